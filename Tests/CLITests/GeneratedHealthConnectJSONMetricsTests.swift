import Foundation
import Testing

/// The metrics beyond steps in the app JSON dumps made by `stepimport-synth hc-json --metrics`
/// (docs/metrics.md, *App JSON dumps*): for every shape, `stepimport hc dump.json --metric all`
/// must print the `metrics` section of the generator's `--expected` file, which it computed from
/// its own notes of what it wrote (the hc-db model, placed by the shape's rule), never by reading
/// the dump.
///
/// What each shape writes and how it is placed: react-native with zone offsets (each record in
/// its own offset, a sleep session in its end offset), react-native without offsets and HCGateway
/// (UTC), Capacitor (its offsets as strings), Flutter `health` in camelCase and snake_case (wall
/// clock, no VO2max). react-native and HCGateway keep each record type under a member of its own,
/// the only place where active and total calories are told apart.
@Suite struct GeneratedHealthConnectJSONMetricsTests {
    static let variants = [
        "--shape react-native --days 70 --seed 21",
        "--shape react-native-no-offsets --days 40 --seed 22 --start 2024-10-01",
        "--shape hcgateway --days 50 --seed 23",
        "--shape capacitor --days 60 --seed 24 --start 2025-09-15",
        "--shape flutter --days 45 --seed 25",
        "--shape flutter-snake --days 40 --seed 26 --start 2024-03-20",
    ]

    /// Every printed day and column equal to `metrics`.
    @Test(arguments: variants)
    func metricsEqualTheGeneratorsModel(_ arguments: String) throws {
        let separator = GeneratedHealthConnectMetricsTests.separator
        let command = """
        "$SYNTH" hc-json \(arguments) --metrics --out dump.json --expected expected.json 2> /dev/null || exit 70
        "$STEPIMPORT" hc dump.json --metric all --format csv -q > printed.csv || exit
        cat expected.json
        echo '\(separator)'
        cat printed.csv
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
        let parts = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: separator + "\n")
        try #require(parts.count == 2)
        let expected = try GeneratedHealthConnectMetricsTests.ExpectedFile(Data(parts[0].utf8))
        #expect(expected.metrics.days.count >= 30)
        let printed = try PrintedMetricTable(csv: parts[1])
        var columns = GeneratedHealthConnectMetricsTests.columns
        if arguments.contains("flutter") { columns.removeAll { $0 == "vo2max" } }
        let problems = expected.metrics.differences(printed, columns: columns,
                                                    oneDecimal: GeneratedHealthConnectMetricsTests.oneDecimal)
        if !problems.isEmpty {
            Issue.record("\(problems.count) differences:\n\(problems.prefix(40).joined(separator: "\n"))")
        }
    }

    /// Without `--metrics` the dump is what it always was: steps alone, and `--metric all` prints
    /// nothing but the step column.
    @Test func withoutMetricsTheDumpHoldsStepsAlone() throws {
        let result = try CommandRunner.run("""
            "$SYNTH" hc-json --shape react-native --days 5 --out dump.json 2> /dev/null || exit 70
            "$STEPIMPORT" hc dump.json --metric all --format csv -q | cut -d, -f3- | sort -u
            """)
        try #require(result.status == 0, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.allSatisfy { $0 == "," } }, "\(lines)")
    }
}
