import Foundation
import Testing
import TestSupport

/// The man page and the shell completions carry exactly the options `--help` does: all three are
/// written from the same tables, and these tests read the printed documents, not the tables.
@Suite(.serialized) struct DocumentTests {
    static let commands = ["apple", "hc", "inspect", "batch", "completions", "man"]

    static func run(_ command: String) throws -> String {
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(command): exit \(result.status) \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// The option names of a help page's option sections (`OPTIONS:`, `POSTING (--post):`), from
    /// their entries' terms (`  -q, --quiet`, `  --tz <zone>`), which end at the first word of the
    /// help (which may name other options).
    static func helpOptions(_ page: String) -> Set<String> {
        var names: Set<String> = []
        var inOptions = false
        for line in page.split(separator: "\n") {
            if let first = line.first, first != " " {
                inOptions = line.hasPrefix("OPTIONS:") || line.hasPrefix("POSTING")
            } else if inOptions, line.hasPrefix("  -") {
                let term = line.split(separator: " ").prefix { $0.hasPrefix("-") || $0.hasPrefix("<") }
                for word in term where word.hasPrefix("-") {
                    names.insert(String(word.trimmingCharacters(in: CharacterSet(charactersIn: ","))))
                }
            }
        }
        return names
    }

    /// The man page as plain text: roff's escapes and font changes taken out.
    static func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
            .replacingOccurrences(of: "\\fR", with: "").replacingOccurrences(of: "\\fI", with: "")
            .replacingOccurrences(of: "\\e", with: "\\").replacingOccurrences(of: "\\&", with: "")
    }

    /// The option entries of one command's part of the man page (`.TP` labels that are options).
    static func manOptions(_ roff: String, command: String) -> Set<String> {
        let text = plain(roff)
        guard let start = text.range(of: ".SS \"stepimport \(command)\"") else { return [] }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex
        var names: Set<String> = []
        var afterTP = false
        for line in rest[..<end].split(separator: "\n") {
            if line == ".TP" {
                afterTP = true
                continue
            }
            if afterTP, line.hasPrefix("-") {
                for word in line.split(separator: " ") where word.hasPrefix("-") {
                    names.insert(String(word.trimmingCharacters(in: CharacterSet(charactersIn: ","))))
                }
            }
            afterTP = false
        }
        return names
    }

    @Test(arguments: commands)
    func theManPageHasEveryOptionOfTheHelpAndNoOther(_ command: String) throws {
        let help = Self.helpOptions(try Self.run("\"$STEPIMPORT\" \(command) --help"))
        let man = Self.manOptions(try Self.run("\"$STEPIMPORT\" man"), command: command)
        #expect(help.contains("--help"), "no options read from \(command) --help")
        #expect(man == help, "\(command): only in the man page \(man.subtracting(help).sorted()), only in --help \(help.subtracting(man).sorted())")
    }

    @Test func theManPageHasEveryCommandAndSectionAndRendersWithoutWarnings() throws {
        let roff = try Self.run("\"$STEPIMPORT\" man")
        for command in Self.commands { #expect(roff.contains(".SS \"stepimport \(command)\"")) }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS"] {
            #expect(roff.contains(".SH \"\(section)\""), "no \(section)")
        }
        #expect(roff.hasPrefix(".TH \"STEPIMPORT\" \"1\""))
        #expect(!roff.split(separator: "\n").contains { $0.hasPrefix("'") }, "a line roff would take as a request")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let result = try CommandRunner.run("\"$STEPIMPORT\" man | groff -k -man -Tutf8 -ww -z")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "groff warns: \(result.stderr.prefix(2000))")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func everyCompletionScriptNamesEveryOption(_ shell: String) throws {
        let script = try Self.run("\"$STEPIMPORT\" completions \(shell)")
        for command in Self.commands {
            #expect(script.contains(command), "\(shell): no \(command)")
            for option in Self.helpOptions(try Self.run("\"$STEPIMPORT\" \(command) --help")) {
                let form = shell == "fish" ? (option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())") : option
                #expect(script.contains(form), "\(shell): \(command) \(option) missing")
            }
        }
        let checker = ["bash": "bash -n", "zsh": "zsh -n", "fish": "fish -n"][shell]!
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") else { return }
        let result = try CommandRunner.run("\"$STEPIMPORT\" completions \(shell) > script && \(checker) script")
        #expect(result.status == 0, "\(shell) rejects its script: \(result.stderr)")
    }

    /// bash completes as a user types: a subcommand, an option, a choice, a shell.
    @Test func bashCompletesSubcommandsOptionsAndChoices() throws {
        let output = try Self.run("""
            source <("$STEPIMPORT" completions bash)
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _stepimport; echo "${COMPREPLY[*]}"; }
            complete_words stepimport ap
            complete_words stepimport hc --by
            complete_words stepimport hc export.zip --format ''
            complete_words stepimport inspect --format ''
            complete_words stepimport completions ''
            complete_words stepimport help i
            """)
        #expect(output.split(separator: "\n").map(String.init)
            == ["apple", "--by-source", "table json csv sqlite", "table json", "bash zsh fish", "inspect"])
    }

    @Test func versionNamesTheCommitAndTheLibraries() throws {
        let lines = try Self.run("\"$STEPIMPORT\" --version").split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "\(lines)")
        #expect(lines[0].range(of: #"^stepimport [0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression) != nil)
        #expect(lines[1].hasPrefix("commit: "))
        for (line, library) in zip(lines.dropFirst(2), ["libxml2", "libzip", "ISA-L", "SQLite", "libcurl"]) {
            #expect(line.range(of: "^\(library): [0-9]+\\.[0-9]+", options: .regularExpression) != nil, "\(line)")
        }
    }
}
