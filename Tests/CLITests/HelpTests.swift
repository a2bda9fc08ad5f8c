import DisplayText
import Foundation
@testable import stepimport
import Testing

/// Every help page fits a screen: at most 60 lines at `COLUMNS=80` and no line wider than the
/// terminal, the same at 120 columns (pages stop widening at 100); each exit status is
/// documented once, and each option listed once. Read from the built binary's output.
@Suite struct HelpTests {
    /// The command lines of every page, after the binary.
    static let pages = ["--help", "apple --help", "hc --help", "inspect --help", "batch --help", "completions --help",
                        "man --help", "help exit-status"]

    /// The most lines a page may take at 80 columns (the limit), and what the pages keep
    /// under it today, so that a few more options still fit.
    static let lineLimit = 60
    static let lineBudget = 55

    static func page(_ arguments: String, columns: Int) throws -> String {
        let result = try CommandRunner.run("COLUMNS=\(columns) \"$STEPIMPORT\" \(arguments)")
        try #require(result.status == 0, "\(arguments): exit \(result.status) \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    static func lines(_ page: String) -> [Substring] {
        page.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    @Test(arguments: pages)
    func fitsEightyColumns(_ arguments: String) throws {
        let page = try Self.page(arguments, columns: 80)
        let lines = Self.lines(page)
        #expect(lines.count <= Self.lineLimit, "\(arguments): \(lines.count) lines")
        #expect(lines.count <= Self.lineBudget, "\(arguments): \(lines.count) lines, over the budget that leaves room")
        let wide = lines.filter { String($0).displayWidth > 80 }
        #expect(wide.isEmpty, "\(arguments): wider than 80: \(wide)")
    }

    @Test(arguments: pages)
    func fitsAHundredAndTwentyColumnsAndStopsWideningAtAHundred(_ arguments: String) throws {
        let page = try Self.page(arguments, columns: 120)
        let lines = Self.lines(page)
        #expect(lines.count <= Self.lineLimit, "\(arguments): \(lines.count) lines")
        let widest = lines.map { String($0).displayWidth }.max() ?? 0
        #expect(widest <= 100, "\(arguments): a line of \(widest) columns")
        // The width is followed: prose fills more than 80 columns when it may.
        if arguments != "man --help" && arguments != "completions --help" {
            #expect(widest > 80, "\(arguments): no line wider than 80 at 120 columns")
        }
    }

    /// Pages wrap to any width between: at 60 columns only examples to copy, kept whole, go beyond.
    @Test(arguments: pages)
    func wrapsToSixtyColumns(_ arguments: String) throws {
        let lines = Self.lines(try Self.page(arguments, columns: 60))
        let wide = lines.filter { String($0).displayWidth > 60 && !$0.hasPrefix("  stepimport ") }
        #expect(wide.isEmpty, "\(arguments): wider than 60: \(wide)")
    }

    /// Without COLUMNS and a terminal (the test's stdout is a file), pages are 80 columns wide.
    @Test func withoutColumnsPagesAreEightyWide() throws {
        let result = try CommandRunner.run("unset COLUMNS; \"$STEPIMPORT\" apple --help")
        #expect(String(decoding: result.stdout, as: UTF8.self) == (try Self.page("apple --help", columns: 80)))
    }

    /// The entries of a section: the statuses of EXIT STATUS (`  64   Usage error...`).
    static func statusEntries(_ page: String) -> [Int] {
        var statuses: [Int] = []
        var inSection = false
        for line in lines(page) {
            if line.hasPrefix("EXIT STATUS:") {
                inSection = true
            } else if let first = line.first, first != " " {
                inSection = false
            } else if inSection, line.hasPrefix("  "), let word = line.dropFirst(2).split(separator: " ").first,
                      line.dropFirst(2).first != " ", let status = Int(word) {
                statuses.append(status)
            }
        }
        return statuses
    }

    /// The exit statuses are on the program's page and alone with `help exit-status`, each once,
    /// every status the executable returns among them; the subcommands' pages point there.
    @Test func exitStatusesAreDocumentedOnce() throws {
        let every = ExitStatus.allCases.map { Int($0.rawValue) }.filter { $0 != 129 }
        for arguments in ["--help", "help exit-status"] {
            let statuses = Self.statusEntries(try Self.page(arguments, columns: 80))
            #expect(statuses.count == Set(statuses).count, "\(arguments): a status twice: \(statuses)")
            #expect(Set(statuses) == Set(every), "\(arguments): \(statuses) for \(every.sorted())")
        }
        let topic = try Self.page("help exit-status", columns: 80)
        #expect(try Self.page("--help", columns: 80).hasSuffix(topic), "the topic is the program's section")
        for arguments in Self.pages where !["--help", "help exit-status"].contains(arguments) {
            let page = try Self.page(arguments, columns: 80)
            #expect(!page.contains("EXIT STATUS"), "\(arguments) lists statuses")
            #expect(page.contains("stepimport help exit-status"), "\(arguments) does not point to the statuses")
        }
    }

    /// Each option once on a page: its entry in OPTIONS or POSTING, and at most once in the usage.
    @Test(arguments: pages)
    func eachOptionOnce(_ arguments: String) throws {
        let page = try Self.page(arguments, columns: 80)
        var entries: [String] = []
        for line in Self.lines(page) where line.hasPrefix("  -") {
            entries += line.split(separator: " ").prefix { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
        }
        #expect(entries.count == Set(entries).count, "\(arguments): listed twice: \(entries)")
        let usage = page.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE: ") } ?? ""
        // The program's usage line names `[<options>]`; a subcommand's names every option.
        guard !usage.contains("<subcommand>") else { return }
        for entry in entries where entry.hasPrefix("--") && entry != "--help" {
            let count = usage.components(separatedBy: "[\(entry)").count - 1 + usage.components(separatedBy: " \(entry) ").count - 1
                + usage.components(separatedBy: " \(entry)]").count - 1
            #expect(count == 1, "\(arguments): \(entry) \(count) times in the usage line")
        }
    }

    /// `help COMMAND` is `COMMAND --help`, and `-h` is `--help`, for every subcommand.
    @Test func helpCommandAndShortFlagGiveTheSamePage() throws {
        for command in Invocation.program.commands.map(\.name) {
            let page = try Self.page("\(command) --help", columns: 80)
            #expect(try Self.page("help \(command)", columns: 80) == page, "help \(command)")
            #expect(try Self.page("\(command) -h", columns: 80) == page, "\(command) -h")
        }
        #expect(try Self.page("-h", columns: 80) == (try Self.page("--help", columns: 80)))
        #expect(try Self.page("help", columns: 80) == (try Self.page("--help", columns: 80)))
    }

    /// An unknown topic: exit 64, the topics named, the nearest suggested, nothing on stdout.
    @Test func anUnknownTopicNamesTheTopicsAndTheNearest() throws {
        let result = try CommandRunner.run("\"$STEPIMPORT\" help exit-stat")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("help takes apple, hc, inspect, batch, completions, man, exit-status"))
        #expect(result.stderr.contains("did you mean `stepimport help exit-status`?"))
    }
}
