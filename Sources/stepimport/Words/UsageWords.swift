import CommandLineKit
import ExportParsers
import Platform

extension UsageError {
    /// The whole message for a mistake on the command line, in the one error style, after
    /// `stepimport: error: `: the problem, the command's usage line, and a hint (what was probably
    /// meant, or where the help is).
    func words(arguments: [String]) -> String {
        let program = Invocation.program
        let help = program.helpCommand(for: command)
        var hint: String
        if let meant = meantCommandLine(arguments) {
            hint = "did you mean `\(meant)`?"
        } else if case .unknownHelpTopic = problem, let nearest = program.suggestion(for: self) {
            hint = "did you mean `\(program.name) help \(nearest)`?"
        } else if let nearest = program.suggestion(for: self) {
            hint = "did you mean '\(nearest)'? '\(help)' lists every \(command == nil ? "subcommand" : "option")"
        } else {
            hint = "'\(help)' says more"
        }
        if case .missingSubcommand = problem {
            hint = "'\(help)' says more; 'stepimport apple export.zip' reads an Apple Health export"
        }
        return "\(sentence)\n  usage: \(program.usageLine(for: command))\n  hint: \(hint)"
    }

    /// `stepimport export.zip ...` with no subcommand: the file's content says which one it needs.
    private func meantCommandLine(_ arguments: [String]) -> String? {
        guard command == nil, case .unknownSubcommand(let word) = problem, arguments.first == word,
              (try? FileStatus.of(path: word)) != nil,
              let importer = try? ExportImporter.open(path: word, as: .auto) else { return nil }
        let subcommand = importer.family.command
        return (["stepimport", subcommand] + arguments.map(Self.shellWord)).joined(separator: " ")
    }

    /// A word as a shell would need it typed: quoted when it holds anything but plain characters.
    private static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:+,@%".unicodeScalars.contains(scalar)
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
