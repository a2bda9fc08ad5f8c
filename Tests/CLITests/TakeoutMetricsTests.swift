import Foundation
import Testing
import TestSupport

/// The real Google Fit Takeout fixtures' daily metric columns (docs/metrics.md, *Google Fit
/// Takeout*) come out as the CSV says: every day and column of `stepimport hc F --metric all
/// --format csv` against the file's own cells, read here with a plain split and rounded half away
/// from zero (the fixtures have no quoted cells); heart rate outside 25-250 left out; sleep the sum
/// of Fit's sleep stage columns in minutes; `Calories (kcal)` in `total_kcal`, never `active_kcal`.
@Suite(.serialized) struct TakeoutMetricsTests {
    /// The tool's column for each Fit header, with the divisor to its unit.
    static let fitColumns: [String: (column: String, divisor: Double)] = [
        "Step count": ("steps", 1), "Distance (m)": ("distance_m", 1), "Calories (kcal)": ("total_kcal", 1),
        "Move Minutes count": ("move_min", 1), "Heart Points": ("heart_points", 1),
        "Average heart rate (bpm)": ("hr_avg", 1), "Min heart rate (bpm)": ("hr_min", 1), "Max heart rate (bpm)": ("hr_max", 1),
    ]
    static let sleepHeaders: Set<String> = ["Sleep duration (ms)", "Light sleeping duration (ms)", "Deep sleeping duration (ms)",
                                            "REM sleeping duration (ms)"]
    static let oneDecimal: Set<String> = ["hr_avg"]

    /// Rounded half away from zero to `decimals` places, after taking the value to a millionth.
    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = decimals == 0 ? 1.0 : 10.0
        let millionths = (value * 1_000_000).rounded()
        return ((millionths / 1_000_000) * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// A CSV without quoted cells: its header and its rows, split at commas.
    static func table(_ text: String) -> (header: [String], rows: [[String]]) {
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (lines.first ?? [], Array(lines.dropFirst()))
    }

    /// The days and columns the CSV says, as the tool must print them.
    static func expected(_ text: String) -> [String: [String: Double]] {
        let (header, rows) = table(text)
        var days: [String: [String: Double]] = [:]
        for cells in rows {
            var day: [String: Double] = [:]
            var sleepMs: Double?
            for (name, cell) in zip(header, cells) where !cell.isEmpty {
                if sleepHeaders.contains(name) { sleepMs = (sleepMs ?? 0) + Double(cell)! }
                guard let (column, divisor) = fitColumns[name] else { continue }
                let value = rounded(Double(cell)! / divisor, oneDecimal.contains(column) ? 1 : 0)
                if column.hasPrefix("hr_") && !(25...250).contains(Double(cell)!) { continue }
                if value != 0 { day[column] = value }
            }
            if let sleepMs, rounded(sleepMs / 60_000, 0) != 0 { day["sleep_min"] = rounded(sleepMs / 60_000, 0) }
            if !day.isEmpty { days[cells[0]] = day }
        }
        return days
    }

    /// The printed CSV as days and columns (empty cells left out).
    static func printed(_ text: String) -> (header: [String], days: [String: [String: Double]]) {
        let (header, rows) = table(text)
        var days: [String: [String: Double]] = [:]
        for cells in rows {
            var day: [String: Double] = [:]
            for (name, cell) in zip(header.dropFirst(), cells.dropFirst()) where !cell.isEmpty { day[name] = Double(cell) }
            days[cells[0]] = day
        }
        return (header, days)
    }

    static let summaries = ["takeout-2025-daily-activity-metrics.csv", "takeout-2012-2020-daily-summaries.csv"]

    @Test(.needsSharedFixtures, arguments: summaries)
    func theDailySummaryColumnsComeOutAsTheCSVSays(_ name: String) throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("hc/\(name)").path
        let result = try CommandRunner.run("\"$STEPIMPORT\" hc '\(path)' --metric all --format csv")
        try #require(result.status == 0, "\(result.stderr)")
        let expected = Self.expected(try String(contentsOfFile: path, encoding: .utf8))
        let printed = Self.printed(String(decoding: result.stdout, as: UTF8.self))
        #expect(!printed.header.isEmpty)
        #expect(printed.days.count == expected.count, "days printed \(printed.days.count), the CSV has \(expected.count)")
        var problems: [String] = []
        for (date, day) in expected.sorted(by: { $0.key < $1.key }) {
            guard let row = printed.days[date] else {
                problems.append("\(date) not printed")
                continue
            }
            if row != day { problems.append("\(date): printed \(row.sorted { $0.key < $1.key }), the CSV says \(day.sorted { $0.key < $1.key })") }
        }
        let differing = problems.count
        #expect(differing == 0, "\(differing) days differ:\n\(problems.prefix(10).joined(separator: "\n"))")
        #expect(printed.days.values.allSatisfy { $0["active_kcal"] == nil }, "Fit's calories went into active_kcal")
        let stderr = result.stderr
        #expect(stderr.contains("include resting energy"), "\(stderr)")
        #expect(stderr.contains("no metric reads"), "the columns no metric reads are not named")
    }

    /// The per-day file's 15-minute buckets add up to its day's row of the daily summary.
    @Test(.needsSharedFixtures)
    func thePerDayBucketsGiveTheDailySummarysDay() throws {
        let folder = TestPaths.sharedFixtures.appendingPathComponent("hc").path
        let result = try CommandRunner.run("""
            "$STEPIMPORT" hc '\(folder)/takeout-2025-02-02.csv' --metric all --format csv -q && \
            "$STEPIMPORT" hc '\(folder)/takeout-2025-daily-activity-metrics.csv' --metric all --format csv -q --since 2025-02-02 --until 2025-02-02
            """)
        try #require(result.status == 0, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        #expect(lines[1].hasPrefix("2025-02-02,8122,5401,,1552,"))
        #expect(lines[1] == lines[3])
    }

    /// Steps alone read nothing else and say nothing about the other columns.
    @Test(.needsSharedFixtures)
    func stepsAloneReadNoOtherColumn() throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("hc/takeout-2012-2020-daily-summaries.csv").path
        let plain = try CommandRunner.run("\"$STEPIMPORT\" hc '\(path)' --format csv")
        let steps = try CommandRunner.run("\"$STEPIMPORT\" hc '\(path)' --format csv --metric steps")
        #expect(plain.status == 0 && steps.status == 0)
        #expect(plain.stdout == steps.stdout)
        #expect(!plain.stderr.contains("no metric reads"))
    }
}
