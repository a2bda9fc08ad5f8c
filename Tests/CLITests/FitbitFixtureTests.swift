import Foundation
import Testing
import TestSupport

/// Issue 16's acceptance check for Fitbit: `stepimport hc` on the real Fitbit Takeout files in
/// ../shared/fixtures/fitbit gives, day by day, what scripts/reference_fitbit.py computes from
/// docs/fitbit.md (an independent Python implementation, sharing no code with the tool). Its
/// results are committed in Tests/Fixtures/expected/fitbit-steps[.tz-<Zone>].json.
@Suite struct FitbitFixtureTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// What is given to `hc`, built in the scratch folder from the fixtures first.
        let input: String
        let zone: String?
        var expected: String {
            "fitbit-steps" + (zone.map { ".tz-" + $0.replacingOccurrences(of: "/", with: "-") } ?? "") + ".json"
        }
        var testDescription: String { input + (zone.map { " in \($0)" } ?? "") }
    }

    /// The fixture folder as it is, and a Takeout folder and zip laid out as Google writes them.
    static let cases = [
        Case(input: "fixtures/fitbit", zone: nil),
        Case(input: "fixtures/fitbit", zone: "America/New_York"),
        Case(input: "Takeout", zone: nil),
        Case(input: "takeout.zip", zone: "America/New_York"),
    ]

    static let buildTakeout = """
        mkdir -p "Takeout/Fitbit/Global Export Data" "Takeout/Fitbit/Your Profile"
        cp fixtures/fitbit/steps-*.json "Takeout/Fitbit/Global Export Data/"
        cp fixtures/fitbit/Profile-timezone-only.csv "Takeout/Fitbit/Your Profile/Profile.csv"
        zip -qr takeout.zip Takeout
        """

    static func expectedDays(_ name: String) throws -> [String: Int] {
        let data = try Data(contentsOf: TestPaths.expected.appendingPathComponent(name))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(object["days"] as? [[String: Any]])
        var days: [String: Int] = [:]
        for entry in list {
            days[try #require(entry["date"] as? String)] = try #require(entry["steps"] as? Int)
        }
        return days
    }

    @Test(.needsSharedFixtures, arguments: cases)
    func everyDayMatchesTheIndependentComputation(_ test: Case) throws {
        let expected = try Self.expectedDays(test.expected)
        #expect(expected.values.reduce(0, +) == 186_477, "the fixtures README's total")
        let command = Self.buildTakeout + "\n\"$STEPIMPORT\" hc '\(test.input)' --format csv -q"
            + (test.zone.map { " --tz '\($0)'" } ?? "")
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(command): exit \(result.status)\n\(result.stderr.suffix(2000))")
        var actual: [String: Int] = [:]
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            try #require(cells.count == 3 && cells[2] == "Fitbit", "unexpected row \(line)")
            actual[String(cells[0])] = Int(cells[1])
        }
        for date in Set(expected.keys).union(actual.keys).sorted() {
            #expect(actual[date] == expected[date], "\(test.input) \(date)")
        }
    }
}
