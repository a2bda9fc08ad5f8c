import DisplayText
import Foundation
import Testing

/// Under a pseudo-terminal (`script(1)` from util-linux runs the command on one): errors red,
/// warnings yellow, the winning source bold green; none with NO_COLOR, TERM=dumb, in a pipe or
/// with `--color never`; `--color always` colours a pipe too.
@Suite(.enabled(if: TerminalRun.available, "needs script(1) (util-linux) to run a command on a pseudo-terminal"))
struct ColorTests {
    /// An error (a missing file), a warning (a pattern that matches no source) and a table with
    /// a winning source, all in one run's output.
    static let warningAndWinner = "apple samples/export.zip --by-source --until 2024-03-15 --exclude-source Nobody"
    static let error = "apple missing.zip"

    @Test func onATerminalErrorsWarningsAndTheWinnerAreColoured() throws {
        let run = try TerminalRun.onTerminal(Self.warningAndWinner)
        #expect(run.contains("stepimport: \u{1B}[33mwarning:\u{1B}[0m --exclude-source Nobody"), "\(run)")
        #expect(run.contains("\u{1B}[1;32m2024-03-15  * Anna’s iPhone"), "\(run)")
        let failed = try TerminalRun.onTerminal(Self.error)
        #expect(failed.contains("stepimport: \u{1B}[31merror:\u{1B}[0m "), "\(failed)")
    }

    /// Every way colour is turned off, on a terminal or not.
    @Test(arguments: [
        ("NO_COLOR=1", true, ""), ("TERM=dumb", true, ""), ("", true, "--color never"), ("", true, "--color=NEVER"),
        ("", false, ""), ("", false, "--color auto"),
    ] as [(String, Bool, String)])
    func noColour(_ environment: String, _ terminal: Bool, _ option: String) throws {
        for command in [Self.warningAndWinner, Self.error] {
            let line = "\(command) \(option)"
            let output = terminal ? try TerminalRun.onTerminal(line, environment: environment)
                : try TerminalRun.inPipe(line, environment: environment)
            #expect(!TerminalRun.hasColour(output), "\(environment) \(terminal ? "terminal" : "pipe") \(line): \(output)")
        }
    }

    /// `--color always` colours where nothing else would: a pipe, and despite NO_COLOR.
    @Test func alwaysColoursAPipe() throws {
        for environment in ["", "NO_COLOR=1"] {
            let run = try TerminalRun.inPipe(Self.warningAndWinner + " --color always", environment: environment)
            #expect(run.contains("\u{1B}[33mwarning:\u{1B}[0m"), "\(environment): \(run)")
            #expect(run.contains("\u{1B}[1;32m2024-03-15  * Anna’s iPhone"), "\(environment): \(run)")
        }
        let failed = try TerminalRun.inPipe(Self.error + " --color=always")
        #expect(failed.contains("\u{1B}[31merror:\u{1B}[0m"), "\(failed)")
    }

    /// A usage error is coloured too, as the command line asks, although it was not parsed.
    @Test func usageErrorsFollowTheColourAsked() throws {
        #expect(TerminalRun.hasColour(try TerminalRun.onTerminal("apple --frobnicate")))
        #expect(!TerminalRun.hasColour(try TerminalRun.onTerminal("apple --frobnicate --color never")))
        #expect(TerminalRun.hasColour(try TerminalRun.inPipe("apple --frobnicate --color always")))
    }

    /// A file of `-o`, written from a terminal, is laid out as for a pipe: whole rows, and colour
    /// only with `--color always`; the terminal still gets its coloured warning.
    @Test func aFileOfDashOGetsNoColourAndWholeRows() throws {
        let written = try TerminalRun.onTerminal(Self.warningAndWinner + " -o days.txt; cat days.txt", environment: "COLUMNS=80")
        #expect(written.contains("2024-03-15  * Anna’s iPhone"), "\(written)")
        #expect(!TerminalRun.hasColour(written.replacingOccurrences(of: "\u{1B}[33mwarning:\u{1B}[0m", with: "")), "\(written)")
        let always = try TerminalRun.onTerminal(Self.warningAndWinner + " -o days.txt --color always 2>/dev/null; cat days.txt")
        #expect(always.contains("\u{1B}[1;32m2024-03-15  * Anna’s iPhone"), "\(always)")
        let metrics = try TerminalRun.onTerminal(TerminalLayoutTests.metrics + " -o m.txt 2>/dev/null; cat m.txt",
                                                 environment: "COLUMNS=80")
        let lines = metrics.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("Date  ") }.count == 1, "split into blocks: \(lines)")
        #expect(lines.contains { String($0).displayWidth > 80 })
    }

    /// `inspect` on a terminal shows the days the server would refuse, in its chart and its list,
    /// as warnings; in a file of `-o`, plain, and lined up as the coloured report.
    @Test func inspectColoursTheRefusedDays() throws {
        let refused = "printf 'date,steps\\n2024-05-01,150000\\n2024-05-02,9000\\n' > days.csv; "
            + "\"$STEPIMPORT\" inspect days.csv --input-format csv --tz Europe/Berlin 2>/dev/null"
        let coloured = try TerminalRun.onTerminal("--version >/dev/null; " + refused)
        #expect(coloured.contains("  " + TextStyle.warning.apply(to: "refused   !!!") + "\n"), "\(coloured)")
        #expect(coloured.contains("  \u{1B}[33m2024-05-01  150000  150000 steps"), "\(coloured)")
        let written = try TerminalRun.onTerminal("--version >/dev/null; " + refused + " -o report.txt; cat report.txt")
        #expect(!TerminalRun.hasColour(written), "\(written)")
        #expect(TerminalRun.withoutColour(coloured) == written)
    }

    /// The escapes are added after padding: a coloured table lines up as the plain one does.
    @Test func colourTakesNoColumn() throws {
        let coloured = try TerminalRun.inPipe("apple samples/export.zip --by-source --until 2024-03-17 --color always 2>/dev/null")
        let plain = try TerminalRun.inPipe("apple samples/export.zip --by-source --until 2024-03-17 2>/dev/null")
        #expect(TerminalRun.withoutColour(coloured) == plain)
        #expect(coloured != plain)
    }
}

/// On a terminal, stderr's long lines wrap at its width with their later lines indented, and a
/// `--metric` table wider than it comes in blocks of columns, each with the date; in a pipe,
/// whole lines and whole rows.
@Suite(.enabled(if: TerminalRun.available, "needs script(1) (util-linux) to run a command on a pseudo-terminal"))
struct TerminalLayoutTests {
    static let metrics = "apple samples/export.zip --metric all --until 2024-03-18"

    @Test func summaryLinesWrapOnATerminalAndStayWholeInAPipe() throws {
        let wrapped = try TerminalRun.onTerminal(Self.metrics + " > /dev/null", environment: "COLUMNS=60 NO_COLOR=1")
        let lines = wrapped.split(separator: "\n")
        #expect(lines.allSatisfy { String($0).displayWidth <= 60 }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  ") }, "no continued line: \(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("stepimport: ") || $0.hasPrefix("  ") }, "\(lines)")
        let whole = try TerminalRun.inPipe(Self.metrics + " 2>&1 >/dev/null", environment: "COLUMNS=60")
        let pipeLines = whole.split(separator: "\n")
        #expect(pipeLines.allSatisfy { $0.hasPrefix("stepimport: ") }, "\(pipeLines)")
        #expect(pipeLines.contains { String($0).displayWidth > 60 })
        // The same words either way.
        #expect(wrapped.split(whereSeparator: \.isWhitespace) == whole.split(whereSeparator: \.isWhitespace))
    }

    @Test func aWideMetricTableComesInBlocksOnATerminal() throws {
        let table = try TerminalRun.onTerminal(Self.metrics + " 2>/dev/null", environment: "COLUMNS=80 NO_COLOR=1")
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { String($0).displayWidth <= 80 }, "\(lines)")
        let headers = lines.filter { $0.hasPrefix("Date  ") }
        #expect(headers.count >= 2, "not split: \(lines)")
        // Every block has each day: four days, four rows a block.
        #expect(lines.filter { $0.hasPrefix("2024-03-15") }.count == headers.count)
        let piped = try TerminalRun.inPipe(Self.metrics + " 2>/dev/null", environment: "COLUMNS=80")
        #expect(piped.split(separator: "\n").filter { $0.hasPrefix("Date  ") }.count == 1)
        #expect(piped.split(separator: "\n").contains { String($0).displayWidth > 80 })
        // The blocks hold the same cells as the whole rows.
        #expect(Set(table.split(whereSeparator: \.isWhitespace)) == Set(piped.split(whereSeparator: \.isWhitespace)))
    }
}

/// Runs stepimport on a pseudo-terminal (script(1)) or with its output in a pipe.
enum TerminalRun {
    static let script = "/usr/bin/script"

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: script)
    }

    /// The command's stdout and stderr as the terminal got them (line ends as `\n`). `environment`
    /// is `NAME=value ...` for the command; NO_COLOR, which the runner sets, is unset first.
    static func onTerminal(_ arguments: String, environment: String = "") throws -> String {
        let inner = "unset NO_COLOR; export TERM=xterm; \(environment.isEmpty ? "" : "export \(environment); ")"
            + "\"$STEPIMPORT\" \(arguments)"
        let quoted = "'" + inner.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let result = try CommandRunner.run("\(script) -qec \(quoted) /dev/null")
        return String(decoding: result.stdout, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            // The progress line, drawn and erased in place.
            .replacingOccurrences(of: #"\r\x1B\[K(?:reading [^\r]*)?"#, with: "", options: .regularExpression)
    }

    /// The command's stdout and stderr, both into a pipe (redirections in `arguments` apply first).
    static func inPipe(_ arguments: String, environment: String = "") throws -> String {
        let result = try CommandRunner.run("unset NO_COLOR; export TERM=xterm; \(environment.isEmpty ? "" : "export \(environment); ")"
                                           + "{ \"$STEPIMPORT\" \(arguments); } 2>&1 | cat")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Whether the text holds an SGR escape (a colour or bold).
    static func hasColour(_ text: String) -> Bool {
        text.range(of: #"\x1B\[[0-9;]*m"#, options: .regularExpression) != nil
    }

    static func withoutColour(_ text: String) -> String {
        text.replacingOccurrences(of: #"\x1B\[[0-9;]*m"#, with: "", options: .regularExpression)
    }
}
