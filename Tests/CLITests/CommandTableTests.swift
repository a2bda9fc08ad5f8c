import CommandLineKit
import Foundation
@testable import stepimport
@testable import stepimport_synth
import Testing

/// Every option of every command's table appears in the command's help page and parses, and
/// parsing it changes what the command is asked to do. The tables are the executables' own.
@Suite struct CommandTableTests {
    /// A valid value for each option that takes one, different from its default.
    static let samples: [String: String] = [
        // stepimport
        "--format": "json", "--tz": "UTC", "--since": "2024-01-01", "--until": "2024-12-31", "--input-format": "csv",
        "--api-url": "https://api.example.com", "--token-file": "token", "--cacert": "ca.pem", "--retries": "3",
        "--timeout": "30", "--report": "report.json", "--output": "days.json", "--jobs": "3", "--shard": "1/2", "--journal": "journal.jsonl",
        "--exclude-source": "Mi Fit", "--proxy": "http://proxy.example:3128", "--explain": "2024-03-23", "--metric": "heart-rate", "--rule": "hc-priority", "--priority": "com.watch,android", "--color": "always",
        // stepimport-synth
        "--out": "other.out", "--days": "3", "--size": "1K", "--seed": "7", "--start": "2025-01-02", "--dtd": "broken",
        "--expected": "expected.json", "--rows": "5", "--user-version": "9", "--shape": "capacitor",
        "--expected-priority": "priority.json", "--encoding": "utf16le", "--headers": "bare", "--time-offset": "UTC+0530",
        "--bin-days": "3",
    ]

    /// Sample values of one command where the common one does not apply to it.
    static let commandSamples: [String: [String: String]] = [
        "apple": ["--rule": "highest-source"],  // apple refuses hc-priority
        "batch": ["--output": "days/"],
    ]

    /// Options of one command that need another to be given (as its gate does for a group's).
    static let companions: [String: [String: [String]]] = [
        "batch": ["--format": ["--output", "days/"], "--journal": ["--output", "days/"], "--redo": ["--output", "days/"]],
    ]

    @Test func stepimportCommands() throws {
        let program = Invocation.program
        #expect(program.commands.map(\.name) == ["apple", "hc", "inspect", "batch", "completions", "man"])
        try check(ReadRequest.apple, in: program, start: ReadRequest(), base: ["export.zip"])
        try check(ReadRequest.android, in: program, start: ReadRequest(), base: ["export.zip"])
        try check(InspectRequest.command, in: program, start: InspectRequest(), base: ["export.zip"])
        try check(BatchRequest.command, in: program, start: BatchRequest(), base: ["accounts.csv"])
        try check(CompletionsRequest.command, in: program, start: CompletionsRequest(), base: ["zsh"])
        try check(ManualRequest.command, in: program, start: ManualRequest(), base: [])
    }

    @Test func stepimportSynthCommands() throws {
        let program = Program.synth
        #expect(program.commands.map(\.name) == ["apple", "hc-db", "hc-json", "samsung"])
        try check(AppleCommand.table, in: program, start: .defaults, base: ["--out", "export.xml"])
        try check(HealthConnectDatabaseCommand.table, in: program, start: .defaults, base: ["--out", "hc.db"])
        try check(HealthConnectJSONCommand.table, in: program, start: .defaults, base: ["--out", "hc.json", "--shape", "flutter"])
        try check(SamsungCommand.table, in: program, start: .defaults, base: ["--out", "export.zip"])
    }

    /// Every subcommand of the table reaches its own parser.
    @Test func stepimportDispatchesEverySubcommand() throws {
        for name in Invocation.program.commands.map(\.name) {
            guard case .help(let command) = try Invocation.parse([name, "--help"]) else {
                Issue.record("\(name) --help is no help")
                continue
            }
            #expect(command == name)
        }
    }

    private func check<Options>(_ command: Command<Options>, in program: Program, start: Options, base: [String]) throws {
        let page = program.helpPage(for: command.name)
        let helpUsage = (page.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE: ") } ?? "")
            .replacingOccurrences(of: "\n", with: " ")
        let errorUsage = program.usageLine(for: command.name)

        for group in command.groups {
            #expect(page.contains("\n\(group.title):\n"), "\(command.name): no \(group.title) section")
        }
        for option in command.options {
            let label = option.names.joined(separator: ", ")
            #expect(page.contains("\n  \(label)"), "\(command.name): \(label) is not in the help")
            if !option.isHelp {
                // The usage line of --help is complete: every option is in it.
                #expect(helpUsage.contains(option.longName + " ") || helpUsage.contains(option.longName + "]"),
                        "\(command.name): \(option.longName) not in the help's usage line")
                if group(of: option, in: command)?.name == nil {
                    switch option.usage {
                    case .always:
                        #expect(errorUsage.contains(option.longName), "\(command.name): \(option.longName) not in \(errorUsage)")
                    case .helpOnly:
                        #expect(!errorUsage.contains(option.longName + " ") && !errorUsage.contains(option.longName + "]"),
                                "\(command.name): \(option.longName) in the error's usage line")
                    }
                }
            }
            for name in option.names {
                try checkParses(name, of: option, in: command, start: start, base: base)
            }
        }
    }

    /// `name` parses, alone or with a sample value (after a space and after `=`), with the gate
    /// of its group, and changes the options that the same line without it gives.
    private func checkParses<Options>(_ name: String, of option: Option<Options>, in command: Command<Options>,
                                      start: Options, base: [String]) throws {
        let gate = group(of: option, in: command)?.gate.flatMap { option.names.contains($0) ? nil : $0 }
        let gated = base + (gate.map { [$0] } ?? []) + (Self.companions[command.name]?[option.longName] ?? [])
        var forms = [gated + [name]]
        if option.kind.valueName != nil {
            guard let value = Self.commandSamples[command.name]?[option.longName] ?? Self.samples[option.longName] else {
                Issue.record("\(command.name): no sample value for \(option.longName)")
                return
            }
            forms = [gated + [name, value]]
            if name.hasPrefix("--") { forms.append(gated + ["\(name)=\(value)"]) }
        }
        guard case .run(let without) = try command.parse(gated, into: start) else {
            Issue.record("\(command.name) \(gated.joined(separator: " ")) asks for help")
            return
        }
        for line in forms {
            let request: CommandRequest<Options>
            do {
                request = try command.parse(line, into: start)
            } catch {
                Issue.record("\(command.name) \(line.joined(separator: " ")): \(error.message)")
                continue
            }
            switch request {
            case .help:
                #expect(option.isHelp, "\(command.name) \(line.joined(separator: " ")) asks for help")
            case .run(let options):
                #expect(!option.isHelp, "\(command.name) \(name) does not ask for help")
                #expect(String(reflecting: options) != String(reflecting: without),
                        "\(command.name) \(line.joined(separator: " ")) changes nothing")
            }
        }
    }

    private func group<Options>(of option: Option<Options>, in command: Command<Options>) -> OptionGroup<Options>? {
        command.groups.first { group in group.options.contains { $0.names == option.names } }
    }
}
