import CommandLineKit
import Testing

/// The top level: only the first word is the program's.
@Suite struct ProgramTests {
    let program = Fixture.program

    func problem(_ words: [String]) -> UsageProblem? {
        do {
            _ = try program.parse(words)
            return nil
        } catch {
            #expect(error.command == nil)
            return error.problem
        }
    }

    @Test func requests() throws {
        #expect(try program.parse(["--help"]) == .help(command: nil))
        #expect(try program.parse(["-h", "whatever"]) == .help(command: nil))
        #expect(try program.parse(["--version"]) == .version)
        #expect(try program.parse(["help"]) == .help(command: nil))
        #expect(try program.parse(["help", "generate", "more"]) == .help(command: "generate"))
        #expect(try program.parse(["read", "x", "--verbose"]) == .run(command: "read", arguments: ["x", "--verbose"]))
    }

    @Test func mistakes() {
        #expect(problem([]) == .missingSubcommand(available: ["read", "generate"]))
        #expect(problem(["help", "nope"]) == .unknownSubcommand("nope"))
        #expect(problem(["nope"]) == .unknownSubcommand("nope"))
        #expect(problem(["--nope"]) == .unknownOption("--nope"))
        #expect(problem(["--version=2"]) == .unknownOption("--version=2"))
    }

    @Test func withoutAVersionThereIsNoVersionOption() {
        let bare = Program("bare", overview: "o", commands: [Fixture.generate], layout: HelpLayout(notation: .bare))
        #expect(throws: UsageError(.unknownOption("--version"), command: nil)) { try bare.parse(["--version"]) }
        #expect(!bare.helpPage(for: nil).contains("--version"))
        #expect(bare.usageLine(for: nil) == "bare <subcommand> [options]")
    }

    @Test func usageLinesAndHelpCommands() {
        #expect(program.usageLine(for: nil) == "tool <subcommand> [<options>]")
        #expect(program.usageLine(for: "read") == "tool read <export> [--format <format>]")
        #expect(program.usageLine(for: "generate") == "tool generate --out <PATH> [--days <N> | --size <BYTES>]")
        #expect(program.helpCommand(for: "read") == "tool read --help")
        #expect(program.helpCommand(for: nil) == "tool --help")
        #expect(program.versionLine == "tool 1.2.3")
    }

    @Test func topLevelPage() {
        #expect(program.helpPage(for: nil) == """
            OVERVIEW: Do things.

            USAGE: tool <subcommand> [<options>]

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              read                    Read an export.
              generate                Write a sample.

              See 'tool help <subcommand>' for detailed help.
            EXIT STATUS:
              0   Success.

            """)
    }
}
