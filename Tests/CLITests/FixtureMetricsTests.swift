import Foundation
import Testing
import TestSupport

/// Issue 13's acceptance check: `stepimport apple FILE --metric all` on the real exports in
/// ../shared/fixtures/apple gives, day by day and column by column, what
/// scripts/reference_metrics.py computes from docs/metrics.md (an independent Python
/// implementation, sharing no code with the tool). Its results are committed in
/// Tests/Fixtures/expected/<fixture>.metrics[.tz-<Zone>].json.
@Suite struct FixtureMetricsTests {
    /// The CSV header docs/metrics.md fixes: the order of the columns too.
    static let columns = [
        "date", "steps", "distance_m", "active_kcal", "flights", "exercise_min",
        "hr_avg", "hr_min", "hr_max", "resting_hr", "hrv_sdnn_ms", "vo2max",
        "sleep_min", "in_bed_min", "workouts", "workout_min",
    ]
    /// Columns printed with exactly one decimal; every other one is a whole number.
    static let oneDecimal: Set<String> = ["hr_avg", "resting_hr", "hrv_sdnn_ms", "vo2max"]

    struct Case: CustomTestStringConvertible, Sendable {
        let fixture: String
        let zone: String?
        var stem: String { String(fixture[..<fixture.lastIndex(of: ".")!]) }
        var expected: String {
            stem + ".metrics" + (zone.map { ".tz-" + $0.replacingOccurrences(of: "/", with: "-") } ?? "") + ".json"
        }
        /// The step totals of scripts/reference_totals.py for the same fixture and rule.
        var stepTotals: String {
            stem + (zone.map { ".tz-" + $0.replacingOccurrences(of: "/", with: "-") } ?? "") + ".json"
        }
        var testDescription: String { fixture + (zone.map { " in \($0)" } ?? "") }
    }

    static let cases = [
        Case(fixture: "de_DE-2015-2018-Export.zip", zone: nil),
        Case(fixture: "de_DE-2015-2018-Export.zip", zone: "Europe/Berlin"),
        Case(fixture: "ios16-broken-dtd-export.zip", zone: nil),
        Case(fixture: "macosx-decoys-export.zip", zone: nil),
        Case(fixture: "ru_RU-testdata.xml", zone: nil),
        Case(fixture: "trimmed-no-dtd-export.xml", zone: nil),
    ]

    /// A day's values by column, as the oracle wrote them (only the columns the day has).
    typealias Days = [String: [String: Double]]

    static func expectedDays(_ name: String) throws -> (columns: [String], days: Days) {
        let data = try Data(contentsOf: TestPaths.expected.appendingPathComponent(name))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let columns = try #require(object["columns"] as? [String])
        let list = try #require(object["days"] as? [[String: Any]])
        var days: Days = [:]
        for entry in list {
            let date = try #require(entry["date"] as? String)
            var row: [String: Double] = [:]
            for (column, value) in entry where column != "date" {
                let number = try #require(Self.number(value), "\(name) \(date) \(column) is not a number")
                row[column] = number
            }
            days[date] = row
        }
        return (columns, days)
    }

    static func number(_ value: Any) -> Double? {
        switch value {
        case let value as Int: return Double(value)
        case let value as Double: return value
        case let value as NSNumber: return value.doubleValue
        default: return nil
        }
    }

    @Test(.needsSharedFixtures, arguments: cases)
    func everyDayAndColumnMatchesTheIndependentComputation(_ test: Case) throws {
        let expected = try Self.expectedDays(test.expected)
        #expect(expected.columns == Self.columns, "\(test.expected) was written for other columns")
        let command = "\"$STEPIMPORT\" apple 'fixtures/apple/\(test.fixture)' --metric all --format csv -q"
            + (test.zone.map { " --tz '\($0)'" } ?? "")
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(command): exit \(result.status)\n\(result.stderr.suffix(2000))")
        let problems = Self.differences(csv: String(decoding: result.stdout, as: UTF8.self), from: expected.days)
        #expect(problems.isEmpty, """
            \(problems.count) differences between `\(command)` and Tests/Fixtures/expected/\(test.expected) \
            (scripts/reference_metrics.py), the first ones:
            \(problems.prefix(40).joined(separator: "\n"))
            """)
    }

    /// Every way the tool's CSV differs from the oracle's days: the header, a row too many or
    /// missing, a cell with another value or in another format. Empty when they agree.
    static func differences(csv text: String, from expected: Days) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first else { return ["no output at all, not even the header"] }
        var problems: [String] = []
        if header != Self.columns.joined(separator: ",") { problems.append("header: \(header)") }
        var seen: Set<String> = []
        var previous = ""
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == Self.columns.count else {
                problems.append("a row of \(cells.count) cells: \(line)")
                continue
            }
            let date = cells[0]
            if date <= previous { problems.append("\(date) comes after \(previous)") }
            previous = date
            seen.insert(date)
            guard let want = expected[date] else {
                problems.append("\(date): a row the oracle does not have: \(line)")
                continue
            }
            for (index, column) in Self.columns.enumerated().dropFirst() {
                if let problem = Self.compare(cells[index], want[column], column: column) {
                    problems.append("\(date) \(column): \(problem)")
                }
            }
            if cells.dropFirst().allSatisfy(\.isEmpty) { problems.append("\(date): a row with no value") }
        }
        for date in expected.keys.sorted() where !seen.contains(date) {
            problems.append("\(date): missing; the oracle has "
                + expected[date]!.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        return problems
    }

    /// Nil when the CSV cell says what the oracle says (nil: no value, an empty cell).
    static func compare(_ cell: String, _ want: Double?, column: String) -> String? {
        guard let want else { return cell.isEmpty ? nil : "\(cell), the oracle has none" }
        guard !cell.isEmpty else { return "empty, the oracle has \(want)" }
        if oneDecimal.contains(column) {
            let parts = cell.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 1, let value = Double(cell) else {
                return "\(cell) is not a number with one decimal"
            }
            return (value * 10).rounded() == (want * 10).rounded() ? nil : "\(cell), the oracle has \(want)"
        }
        guard let value = Int(cell) else { return "\(cell) is not a whole number" }
        return Double(value) == want ? nil : "\(cell), the oracle has \(Int(want))"
    }

    /// The comparison itself, on the oracle's own days written as docs/metrics.md's CSV: it finds
    /// nothing there, and finds each kind of difference (so the fixture test cannot pass vacuously
    /// before the tool prints metrics).
    @Test func theComparisonFindsEveryKindOfDifference() throws {
        let days = try Self.expectedDays("de_DE-2015-2018-Export.metrics.json").days
        try #require(days.count > 900)
        func csv(_ days: Days) -> String {
            var text = Self.columns.joined(separator: ",") + "\n"
            for date in days.keys.sorted() {
                let row = days[date]!
                text += ([date] + Self.columns.dropFirst().map { column in
                    row[column].map { Self.oneDecimal.contains(column) ? String(format: "%.1f", $0) : String(Int($0)) } ?? ""
                }).joined(separator: ",") + "\n"
            }
            return text
        }
        #expect(Self.differences(csv: csv(days), from: days) == [])

        var changed = days
        changed["2016-09-17"]!["hr_avg"]! += 0.1
        changed["2016-09-17"]!["sleep_min"]! += 1
        changed["2017-04-04"]!["distance_m"] = nil
        changed["2018-01-10"] = nil
        changed["2030-01-01"] = ["steps": 1]
        let found = Self.differences(csv: csv(changed), from: days)
        #expect(found.count == 5, "\(found)")
        #expect(found.contains { $0.hasPrefix("2016-09-17 hr_avg: 80.4") })
        #expect(found.contains { $0.hasPrefix("2016-09-17 sleep_min: 578") })
        #expect(found.contains { $0.hasPrefix("2017-04-04 distance_m: empty, the oracle has 2580") })
        #expect(found.contains { $0.hasPrefix("2018-01-10: missing") })
        #expect(found.contains { $0.hasPrefix("2030-01-01: a row the oracle does not have") })

        /// The CSV with one cell of one day written otherwise.
        func edited(_ date: String, _ old: String, _ new: String) -> String {
            csv(days).split(separator: "\n").map { line in
                line.hasPrefix(date + ",") ? line.replacingOccurrences(of: "," + old + ",", with: "," + new + ",") : String(line)
            }.joined(separator: "\n") + "\n"
        }
        #expect(Self.differences(csv: edited("2016-09-17", "80.3", "80.30"), from: days)
                == ["2016-09-17 hr_avg: 80.30 is not a number with one decimal"])
        #expect(Self.differences(csv: edited("2017-04-04", "2580", "2580.0"), from: days)
                == ["2017-04-04 distance_m: 2580.0 is not a whole number"])
        #expect(Self.differences(csv: "date,steps\n", from: [:]) == ["header: date,steps"])
    }

    /// The oracle's own cross-check, on the committed files alone (no fixtures needed): its steps
    /// column is what scripts/reference_totals.py computed, the numbers FixtureTests holds the
    /// tool to.
    @Test(arguments: cases)
    func theOraclesStepsAreTheStepReferenceTotals(_ test: Case) throws {
        let metrics = try Self.expectedDays(test.expected).days
        struct StepTotals: Decodable {
            struct Day: Decodable { let date: String; let steps: Int }
            let days: [Day]
        }
        let steps = try JSONDecoder().decode(
            StepTotals.self, from: Data(contentsOf: TestPaths.expected.appendingPathComponent(test.stepTotals)))
        let fromMetrics = metrics.compactMap { date, row in row["steps"].map { "\(date)=\(Int($0))" } }.sorted()
        #expect(fromMetrics == steps.days.map { "\($0.date)=\($0.steps)" })
    }

    /// The oracle's rule-by-rule tests (stdlib unittest): the rules the real fixtures do not
    /// exercise (most units, resting HR, HRV, VO2max, range edges) are checked there.
    @Test func theOraclePassesItsOwnTests() throws {
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/test_reference_metrics.py").path
        let result = try CommandRunner.run("PYTHONDONTWRITEBYTECODE=1 python3 '\(script)' 2>&1")
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(output.suffix(3000))")
        #expect(output.contains("OK"))
    }
}
