import Foundation
import Testing

/// Hostile documents and containers (issue 11): each gives a clear error or a correct result,
/// never a signal, with nothing on stdout after a failure, and the peak memory bounded.
///
/// The inputs come from `scripts/make_hostile.py` (its big ones at 256 MiB here, 1 GiB when run
/// by hand), the peak memory and time from `scripts/peak_rss.py`, in the runner's scratch folder.
@Suite(.serialized) struct HostileInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let kind: String
        /// The command after the input is made: `$IN` is the input's path; `-` reads it piped.
        let command: String
        let status: Int32
        /// Words stderr must hold.
        let says: String
        /// The stdout, when the run succeeds.
        var stdout: String = ""
        var testDescription: String { kind + (command.contains("$IN") ? "" : " on stdin") }
    }

    static let cases: [Case] = [
        Case(kind: "billion-laughs.xml", command: "apple \"$IN\"", status: 65,
             says: "malformed XML: Entity 'l10' not defined"),
        Case(kind: "quadratic.xml", command: "apple \"$IN\"", status: 65, says: "malformed XML: Entity 'a' not defined"),
        Case(kind: "deep.xml", command: "apple \"$IN\"", status: 65, says: "elements nested more than 256 deep"),
        Case(kind: "deep.json", command: "hc -", status: 65,
             says: "malformed JSON: objects and arrays are nested more than 512 levels deep"),
        Case(kind: "long-string.json", command: "hc -", status: 65,
             says: "a string longer than 1048576 bytes begins here, over the limit for one value"),
        Case(kind: "long-line.json", command: "hc -", status: 65, says: "its first 4096 bytes are white space only"),
        Case(kind: "long-line.json", command: "hc --input-format json -", status: 0,
             says: "no step records to total in this export", stdout: "No days with steps."),
        Case(kind: "long-line.xml", command: "apple -", status: 0, says: "2 step records", stdout: "2024-03-01"),
        Case(kind: "tall-tags.xml", command: "apple \"$IN\"", status: 0, says: "2 step records", stdout: "2024-03-01"),
        Case(kind: "bomb.zip", command: "apple \"$IN\"", status: 0, says: "2 step records", stdout: "2024-03-01"),
        Case(kind: "many-entries.zip", command: "apple \"$IN\"", status: 0, says: "3 step records", stdout: "2024-03-01"),
        Case(kind: "nested-deep.zip", command: "apple \"$IN\"", status: 65,
             says: "not an Apple Health export: the zip holds no Apple Health export XML"),
        Case(kind: "encrypted.zip", command: "apple \"$IN\"", status: 65, says: "damaged zip archive: No password provided"),
        Case(kind: "bad-crc.zip", command: "apple \"$IN\"", status: 65, says: "damaged zip archive: CRC error"),
        Case(kind: "samsung-long-field.csv", command: "hc \"$IN\"", status: 65,
             says: "samsung-long-field.csv:3:1048577: malformed CSV: field 1 of the record that starts at line 3 is longer than 1 MiB"),
        Case(kind: "samsung-utf16-long-line.csv", command: "hc -", status: 65,
             says: "<stdin>:3:1048577: malformed CSV: field 1 of the record that starts at line 3 is longer than 1 MiB"),
    ]

    /// Well above the 30–80 MB these runs take, far below what the unbounded ones took
    /// (390 MB for 70 MB of nesting, gigabytes for a bomb held in memory).
    static let memoryBoundKiB = 150 * 1024

    @Test(arguments: cases)
    func keepsItsPromise(_ hostile: Case) throws {
        let make = "HOSTILE_MIB=256 python3 \"$SCRIPTS/make_hostile.py\" \(hostile.kind)"
        let measure = "python3 \"$SCRIPTS/peak_rss.py\" rss -- \"$STEPIMPORT\""
        let script: String
        if hostile.command.contains("$IN") {
            script = "IN=\(hostile.kind); \(make) \"$IN\" && \(measure) \(hostile.command); status=$?; "
                + "rm -f \"$IN\"; echo \"$(cat rss)\" >&2; exit $status"
        } else {
            script = "\(make) - | \(measure) \(hostile.command); status=$?; echo \"$(cat rss)\" >&2; exit $status"
        }
        let result = try CommandRunner.run(script)
        let lines = result.stderr.split(separator: "\n")
        let figures = lines.last.map { $0.split(separator: " ") } ?? []
        let peakKiB = figures.first.flatMap { Int($0) } ?? -1
        let seconds = figures.count > 1 ? String(figures[1]) : "?"
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == hostile.status, "\(hostile.kind): \(result.stderr)")
        #expect(result.stderr.contains(hostile.says), "\(hostile.kind): \(result.stderr)")
        #expect(peakKiB > 0 && peakKiB < Self.memoryBoundKiB, "\(hostile.kind): peak \(peakKiB) KiB in \(seconds) s")
        if hostile.status == 0 {
            #expect(stdout.contains(hostile.stdout), "\(hostile.kind): \(stdout)")
        } else {
            #expect(stdout.isEmpty, "\(hostile.kind): nothing on stdout after a failure")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("backtrace"))
        }
    }
}

/// Ctrl-C while an export is read says so and exits 130, with nothing on stdout (issue 12).
@Suite struct InterruptWhileReadingTests {
    @Test(arguments: ["apple", "hc"])
    func ctrlCWhileReadingSaysInterrupted(_ command: String) throws {
        // The export never ends: a writer holds the FIFO open, so the read waits for more. Job
        // control on, so that the background reader does not start with SIGINT ignored.
        let head = command == "apple" ? "<?xml version=\\\"1.0\\\"?>\\\\n<HealthData locale=\\\"en_US\\\">\\\\n"
            : "{\\\"records\\\":[\\\\n"
        let result = try CommandRunner.run("""
            set -m
            mkfifo export.xml
            (printf "\(head)"; exec sleep 8) > export.xml &
            writer=$!
            "$STEPIMPORT" \(command) export.xml > out.txt 2> err.txt &
            reader=$!
            sleep 1
            kill -INT $reader
            wait $reader; status=$?
            kill $writer 2>/dev/null
            cat err.txt >&2; cat out.txt; exit $status
            """)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("stepimport: interrupted (SIGINT)"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
