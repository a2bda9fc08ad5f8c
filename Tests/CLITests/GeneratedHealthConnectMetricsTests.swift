import Foundation
import Testing

/// The metrics beyond steps on Health Connect databases made by `stepimport-synth hc-db` (issue 14,
/// docs/metrics.md): its `--expected` file's `metrics` section holds the day values the generator
/// computed from its own notes of what it wrote (`HealthConnectExpectedMetrics`, a separate
/// implementation of the rules), each record in its own zone offset.
///
/// How the tables map onto the columns (the generator's reading, which the reader must share):
/// `distance_record_table.distance` (metres) → `distance_m`; `active_calories_burned_record_table`
/// `.energy` in small calories / 1000 → `active_kcal` (total calories not used); `floors` →
/// `flights`; heart-rate series samples, on the day of `epoch_millis` in the parent row's
/// `start_zone_offset` → `hr_avg`, `hr_min`, `hr_max`; resting heart rate → `resting_hr`; HRV
/// RMSSD → `hrv_rmssd_ms` (never `hrv_sdnn_ms`); VO2max → `vo2max`; sleep stages 2, 4, 5, 6 (a
/// session without stages whole) → `sleep_min`, session spans → `in_bed_min`, each period on the
/// day it ends in the session's `end_zone_offset`; exercise sessions on the day of their start →
/// `workouts`, `workout_min`.
///
/// The comparison with `stepimport hc DB --metric all --format csv` waits for the reader; the
/// generator's model is checked on its own meanwhile.
@Suite struct GeneratedHealthConnectMetricsTests {
    static let variants = [
        "--out 'Health Connect.zip' --days 120 --seed 11",
        "--out export.db --days 40 --seed 12 --user-version 9",
        "--out export.db --days 90 --seed 13 --user-version 15 --start 2024-10-01",
        "--out export.db --days 60 --seed 14 --user-version 23 --start 2025-09-15",
    ]

    /// The columns of the `metrics` section, in the order of docs/metrics.md.
    static let columns = ["steps", "distance_m", "active_kcal", "total_kcal", "flights", "hr_avg", "hr_min", "hr_max", "resting_hr",
                          "hrv_rmssd_ms", "vo2max", "sleep_min", "in_bed_min", "workouts", "workout_min"]
    /// The columns printed with one decimal; all others are whole numbers.
    static let oneDecimal: Set<String> = ["hr_avg", "resting_hr", "hrv_rmssd_ms", "vo2max"]
    static let separator = "----8<---- stepimport hc metrics test ----8<----"

    /// Every printed day and column equal to `metrics`; columns Health Connect has no data for
    /// (`exercise_min`, `hrv_sdnn_ms`, Google Fit's `move_min` and `heart_points`) empty.
    @Test(arguments: variants)
    func metricsEqualTheGeneratorsModel(_ arguments: String) throws {
        let output = arguments.contains("'Health Connect.zip'") ? "'Health Connect.zip'" : "export.db"
        let command = """
        "$SYNTH" hc-db \(arguments) --expected expected.json 2> /dev/null || exit 70
        "$STEPIMPORT" hc \(output) --metric all --format csv -q > printed.csv || exit
        cat expected.json
        echo '\(Self.separator)'
        cat printed.csv
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
        let parts = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: Self.separator + "\n")
        try #require(parts.count == 2)
        let expected = try ExpectedFile(Data(parts[0].utf8))
        let printed = try PrintedMetricTable(csv: parts[1])
        let problems = Self.differences(printed, expected.metrics)
        if !problems.isEmpty {
            Issue.record("\(problems.count) differences:\n\(problems.prefix(40).joined(separator: "\n"))")
        }
    }

    /// What the generator's model says, checked on its own (no `stepimport` needed): every column
    /// has values, the implausible readings are there to be left out, the `steps` column is the
    /// step section's, and the winners of some days are not the watch.
    /// The day values printed as CSV are a day-value CSV (docs/metrics.md, *CSV*): read back, every
    /// day and column comes out the same, and the values on JSON too.
    @Test func theMetricCSVReadsBackAsItWasPrinted() throws {
        let result = try CommandRunner.run("""
            "$SYNTH" hc-db --out export.db --days 45 --seed 21 2> /dev/null || exit 70
            "$STEPIMPORT" hc export.db --metric all --format csv -q > days.csv || exit
            "$STEPIMPORT" hc days.csv --metric all --format csv -q > again.csv || exit
            "$STEPIMPORT" hc export.db --metric all --format json -q > days.json || exit
            "$STEPIMPORT" hc days.csv --metric all --format json -q > again.json || exit
            wc -l < days.csv; cmp days.csv again.csv && cmp days.json again.json && echo same
            """)
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.last == "same", "\(lines)")
        #expect((Int(lines.first?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0) > 40)
    }

    @Test(arguments: variants)
    func expectedMetricsExerciseEveryColumnAndRule(_ arguments: String) throws {
        let result = try CommandRunner.run("\"$SYNTH\" hc-db \(arguments) --expected expected.json 2> /dev/null && cat expected.json")
        try #require(result.status == 0, "\(result.stderr)")
        let expected = try ExpectedFile(result.stdout)
        let section = expected.metrics
        #expect(section.rule == "file-offset")
        #expect(section.days.count >= 40)
        for column in Self.columns {
            #expect(section.days.values.contains { $0[column] != nil }, "no day has \(column)")
        }
        #expect(section.leftOut.keys.sorted() == ["active-energy", "distance", "flights", "heart-rate", "hrv", "in-bed",
                                                  "resting-hr", "sleep", "total-energy", "vo2max", "workouts"])
        #expect((section.leftOut["heart-rate"] ?? 0) > 0, "no implausible heart rate to leave out")
        #expect(section.roundingTies.count <= 5, "\(section.roundingTies)")
        #expect(section.days.compactMapValues { $0["steps"]?.intValue } == expected.stepDays)
        for (date, day) in section.days {
            for (column, value) in day {
                let number = value.doubleValue
                #expect(Self.oneDecimal.contains(column) ? (number * 10).rounded() == number * 10 : number.rounded() == number,
                        "\(date) \(column): \(value)")
            }
            if let average = day["hr_avg"]?.doubleValue, let low = day["hr_min"]?.doubleValue, let high = day["hr_max"]?.doubleValue {
                #expect(low <= average && average <= high && low >= 25 && high <= 250, "\(date): heart rate \(low) \(average) \(high)")
            }
            if let sleep = day["sleep_min"]?.intValue {
                #expect(sleep > 0 && sleep <= 1440, "\(date): sleep \(sleep)")
            }
        }
    }

    /// The differences between a printed `--metric all` CSV and the `metrics` section: every
    /// Health Connect column printed, every cell equal (`ExpectedMetricsSection.differences`);
    /// columns the section does not have must be empty.
    static func differences(_ printed: PrintedMetricTable, _ section: ExpectedMetricsSection) -> [String] {
        section.differences(printed, columns: columns, oneDecimal: oneDecimal)
    }

    /// The `--expected` file of `hc-db`: the step days and the `metrics` section.
    struct ExpectedFile {
        let stepDays: [String: Int]
        let metrics: ExpectedMetricsSection

        init(_ data: Data) throws {
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let days = root["days"] as? [[String: Any]]
            else { throw ExpectedMetricsSection.Malformed(what: "the days") }
            stepDays = ExpectedMetricsSection.stepDays(days)
            metrics = try ExpectedMetricsSection(root, key: "metrics")
        }
    }
}
