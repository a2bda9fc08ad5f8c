import Foundation
import Testing

/// End to end on the metrics beyond steps (docs/metrics.md, issue 13): `stepimport apple FILE
/// --metric all --format csv` on exports made by `stepimport-synth` must print, day by day and
/// column by column, the values the generator computed from its own notes of what it wrote
/// (`metrics` and `metrics_tz` of `--expected`: a separate implementation of the rules), under
/// both zone rules.
///
/// The exports hold what the rules are about: metrics with one source (exercise, VO2max) and with
/// several (distance from phone, watch and a running app; sleep from the watch and a sleep app
/// whose whole-night interval overlaps the watch's stages, sometimes written twice; in bed from
/// the phone and the sleep app; workouts from the watch and the running app's copies; heart rate
/// from the watch and a band that writes every reading up to three times), weekend naps, units
/// (`mi`, `kJ`, `Cal`, `mL/min·kg`, durations in `min`), implausible readings (heart rate 0 and
/// 255+, HRV 0, resting heart rate 200), samples across midnight, and DST changes on Berlin's clock
/// under the file's fixed +0100.
@Suite struct GeneratedMetricsTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: String
        var testDescription: String { name }
        var output: String { arguments.contains("export.zip") ? "export.zip" : "export.xml" }
    }

    static let variants = [
        Variant(name: "zip with Apple's DTD, 150 days over the autumn DST change",
                arguments: "--out export.zip --days 150 --seed 3 --start 2023-09-01"),
        Variant(name: "bare XML without DTD, 90 days over the spring DST change",
                arguments: "--out export.xml --days 90 --seed 5 --start 2025-03-01 --dtd none"),
        Variant(name: "zip with the broken iOS 16 DTD and control characters",
                arguments: "--out export.zip --days 120 --seed 4 --start 2024-10-01 --dtd broken --control-chars"),
    ]

    /// The columns of `--metric all`, in order (docs/metrics.md, Output).
    static let header = "date,steps,distance_m,active_kcal,flights,exercise_min,hr_avg,hr_min,hr_max,resting_hr,hrv_sdnn_ms,vo2max,sleep_min,in_bed_min,workouts,workout_min"
    /// The columns printed with one decimal; all others are whole numbers.
    static let oneDecimal: Set<String> = ["hr_avg", "resting_hr", "hrv_sdnn_ms", "vo2max"]
    static let separator = "----8<---- stepimport metrics test ----8<----"

    @Test(arguments: variants)
    func metricsEqualTheGeneratorsModel(_ variant: Variant) throws {
        let command = """
        "$SYNTH" apple \(variant.arguments) --expected expected.json 2> /dev/null || exit 70
        "$STEPIMPORT" apple \(variant.output) --metric all --format csv -q > offset.csv || exit
        "$STEPIMPORT" apple \(variant.output) --metric all --format csv -q --tz Europe/Berlin > zoned.csv || exit
        cat expected.json
        echo '\(Self.separator)'
        cat offset.csv
        echo '\(Self.separator)'
        cat zoned.csv
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
        let parts = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: Self.separator + "\n")
        try #require(parts.count == 3)
        let expected = try ExpectedFile(Data(parts[0].utf8))

        for (section, csv) in [(expected.metrics, parts[1]), (expected.metricsTZ, parts[2])] {
            let printed = try PrintedMetricTable(csv: csv)
            #expect(printed.header == Self.header, "\(section.name): header")
            compare(printed, with: section)
        }
    }

    /// What the generator's model says, checked on its own (no `stepimport` needed): every column
    /// has values, the implausible readings are there to be left out, the rules differ, and the
    /// `steps` column is the step section's.
    @Test(arguments: variants)
    func expectedMetricsExerciseEveryColumnAndRule(_ variant: Variant) throws {
        let result = try CommandRunner.run("\"$SYNTH\" apple \(variant.arguments) --expected expected.json 2> /dev/null && cat expected.json")
        try #require(result.status == 0, "\(result.stderr)")
        let expected = try ExpectedFile(result.stdout)
        for section in [expected.metrics, expected.metricsTZ] {
            #expect(section.days.count > 60, "\(section.name)")
            for column in Self.header.split(separator: ",").dropFirst().map(String.init) {
                #expect(section.days.values.contains { $0[column] != nil }, "\(section.name): no day has \(column)")
            }
            for metric in ["heart-rate", "resting-hr", "hrv"] {
                #expect((section.leftOut[metric] ?? 0) > 0, "\(section.name): no implausible \(metric) to leave out")
            }
            #expect(section.leftOut.keys.sorted() == ["active-energy", "distance", "exercise", "flights", "heart-rate", "hrv",
                                                      "in-bed", "resting-hr", "sleep", "vo2max", "workouts"])
            // Only a handful of cells may round either way through floating point alone.
            #expect(section.roundingTies.count <= 5, "\(section.name): \(section.roundingTies)")
        }
        let offsetSteps = expected.metrics.days.compactMapValues { $0["steps"]?.intValue }
        let zonedSteps = expected.metricsTZ.days.compactMapValues { $0["steps"]?.intValue }
        #expect(offsetSteps == expected.stepDays)
        #expect(zonedSteps == expected.zonedStepDays)
        // The two rules must really differ on such data, or the test above would prove little.
        #expect(expected.metrics.days != expected.metricsTZ.days)
    }

    /// Left for later (issue 13): without `-q` the summary on stderr says how many values each
    /// metric left out ("12 heart-rate samples outside 25-250 bpm left out", docs/metrics.md).
    /// Its wording is not settled; once it is, enable this and make the match exact. Until then
    /// only the CSV is compared.
    @Test(.disabled("the wording of the left-out lines on stderr is not settled yet (issue 13)"), arguments: variants)
    func leftOutCountsAreReported(_ variant: Variant) throws {
        let command = """
        "$SYNTH" apple \(variant.arguments) --expected expected.json 2> /dev/null || exit 70
        "$STEPIMPORT" apple \(variant.output) --metric all --format csv > /dev/null || exit
        cat expected.json
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(result.stderr)")
        let expected = try ExpectedFile(result.stdout)
        let lines = result.stderr.split(separator: "\n")
        for (metric, count) in expected.metrics.leftOut where count > 0 {
            #expect(lines.contains { $0.contains("\(count) \(metric)") && $0.contains("left out") },
                    "no stderr line says \(count) \(metric) values were left out:\n\(result.stderr)")
        }
    }

    /// Compares every day and column of `printed` with `section` (`ExpectedMetricsSection.differences`).
    private func compare(_ printed: PrintedMetricTable, with section: ExpectedMetricsSection) {
        let columns = Self.header.split(separator: ",").dropFirst().map(String.init)
        let problems = section.differences(printed, columns: columns, oneDecimal: Self.oneDecimal)
        if !problems.isEmpty {
            let shown = problems.prefix(40).joined(separator: "\n")
            Issue.record("\(section.name): \(problems.count) differences:\n\(shown)")
        }
    }

    /// The `--expected` file: the step days of both rules and the two metrics sections.
    struct ExpectedFile {
        let stepDays: [String: Int]
        let zonedStepDays: [String: Int]
        let metrics: ExpectedMetricsSection
        let metricsTZ: ExpectedMetricsSection

        init(_ data: Data) throws {
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let days = root["days"] as? [[String: Any]], let tz = root["tz"] as? [String: Any],
                  let tzDays = tz["days"] as? [[String: Any]]
            else { throw ExpectedMetricsSection.Malformed(what: "the step sections") }
            stepDays = ExpectedMetricsSection.stepDays(days)
            zonedStepDays = ExpectedMetricsSection.stepDays(tzDays)
            metrics = try ExpectedMetricsSection(root, key: "metrics")
            metricsTZ = try ExpectedMetricsSection(root, key: "metrics_tz")
        }
    }
}
