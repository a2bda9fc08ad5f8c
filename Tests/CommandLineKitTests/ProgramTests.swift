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
        #expect(problem(["help", "nope"]) == .unknownHelpTopic("nope", topics: ["read", "generate", "exit-status"]))
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
              --version         Show the version.
              -h, --help        Show help information.

            SUBCOMMANDS:
              read              Read an export.
              generate          Write a sample.

              See 'tool help <subcommand|exit-status>' for detailed
              help.

            EXIT STATUS:
              0   Success.
              64  Usage error: unknown option, missing or bad argument.

            """)
    }

    /// `help TOPIC`: a subcommand's page (as `COMMAND --help`), a section of the program's page
    /// alone, the program's page for `help --help`; else a usage error that names the topics and
    /// suggests the nearest.
    @Test func helpTopics() throws {
        #expect(program.topics == ["exit-status"])
        #expect(try program.parse(["help", "exit-status"]) == .topic("exit-status"))
        #expect(try program.parse(["help", "--help"]) == .help(command: nil))
        #expect(try program.parse(["help", "-h"]) == .help(command: nil))
        #expect(program.topicPage("exit-status") == "EXIT STATUS:\n  0   Success.\n  64  Usage error: unknown option, missing or bad argument.\n")
        #expect(program.topicPage("nope") == nil)
        let error = UsageError(.unknownHelpTopic("exit-stat", topics: ["read", "generate", "exit-status"]), command: nil)
        #expect(program.suggestion(for: error) == "exit-status")
        #expect(error.message == "no help on 'exit-stat' (help takes read, generate, exit-status)")
    }

    /// A page laid out for a terminal's width: within 40 to 100 columns, every line within it.
    @Test func pagesFollowTheWidth() {
        #expect(HelpLayout.pageWidth(forTerminalColumns: 20) == 40)
        #expect(HelpLayout.pageWidth(forTerminalColumns: 80) == 80)
        #expect(HelpLayout.pageWidth(forTerminalColumns: 300) == 100)
        for width in [60, 80, 100] {
            let laidOut = program.laidOut(width: width)
            for page in [laidOut.helpPage(for: nil), laidOut.helpPage(for: "read"), laidOut.helpPage(for: "generate")] {
                let wide = page.split(separator: "\n").filter { $0.count > width }
                #expect(wide.isEmpty, "at \(width): \(wide)")
            }
        }
        // Wider pages take fewer lines.
        #expect(program.laidOut(width: 100).helpPage(for: nil).split(separator: "\n").count
                < program.laidOut(width: 40).helpPage(for: nil).split(separator: "\n").count)
    }
}
