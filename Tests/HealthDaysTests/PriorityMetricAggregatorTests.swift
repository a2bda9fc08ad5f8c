import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// `--rule hc-priority --metric`: one sweep per metric over the same list; each expected value
/// worked out by hand.
@Suite struct PriorityMetricAggregatorTests {
    private let hour: Int64 = 3_600_000

    private func add(_ sink: PriorityRecordSink, _ metric: Metric, _ source: String, _ start: Int64, _ end: Int64,
                     _ value: Double, modified: Int64? = nil) {
        var name = source
        name.withUTF8 { bytes in
            sink.add(HealthSample(startMs: start, endMs: end, offsetSeconds: 0, value: value), of: metric,
                     lastModifiedMs: modified, sourceUTF8: UnsafeRawBufferPointer(bytes))
        }
    }

    private func rows(_ days: [MetricDay], _ columns: [MetricColumn]) -> [String] {
        days.map { day in "\(day.date) " + columns.map { day[$0].map { String(Int($0)) } ?? "-" }.joined(separator: " ") }
    }

    /// docs/rules.md's phone and watch, for steps and distance: steps are cut, distance rounded.
    @Test func stepsAreCutAndDistanceIsRounded() throws {
        let eight = utcMs(2024, 5, 1, 8)
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.steps, .distance]), rule: .recordedOffset,
                                                  priority: ["watch", "phone"])
        // 08-11 phone 1000 steps and 1000 m; 10-12 watch 900 of each. Watch first:
        // 08-10 phone 1000 x 2/3 = 666.67, 10-12 watch 900: 1566.67, cut to 1566 steps, 1567 m.
        for metric in [Metric.steps, .distance] {
            add(aggregator, metric, "phone", eight, eight + 3 * hour, 1000)
            add(aggregator, metric, "watch", eight + 2 * hour, eight + 4 * hour, 900)
        }
        try aggregator.finish()
        #expect(rows(aggregator.days(), [.steps, .distanceMetres]) == ["2024-05-01 1566 1567"])
        // The shares, rounded, the higher first and marked.
        let shares = aggregator.sourceValues().map { "\($0.column.name) \($0.source) \(Int($0.value)) \($0.standing)" }
        #expect(shares == ["steps watch 900 winner", "steps phone 667 other",
                           "distance_m watch 900 winner", "distance_m phone 667 other"])
    }

    /// Each metric is its own sweep: an app that wins the steps of an hour gives no distance where
    /// it wrote none, and the next app's distance counts there.
    @Test func eachMetricHasItsOwnSlices() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.steps, .distance, .activeEnergy, .flights]), rule: .recordedOffset,
                                                  priority: ["watch", "phone"])
        add(aggregator, .steps, "watch", nine, nine + hour, 3000)
        add(aggregator, .steps, "phone", nine, nine + hour, 2000)
        // Only the phone measured distance: all of it counts.
        add(aggregator, .distance, "phone", nine, nine + hour, 1500)
        // Energy from both: the watch's; 250.4 kcal rounds to 250.
        add(aggregator, .activeEnergy, "watch", nine, nine + hour, 250.4)
        add(aggregator, .activeEnergy, "phone", nine, nine + hour, 400)
        // Floors: a zero-length record of the phone counts whole (3), alone at its instant.
        add(aggregator, .flights, "phone", nine + 2 * hour, nine + 2 * hour, 3)
        // Metrics the rule does not total are left out, not mixed in.
        add(aggregator, .heartRate, "watch", nine, nine, 70)
        add(aggregator, .totalEnergy, "watch", nine, nine + hour, 900)
        try aggregator.finish()
        #expect(rows(aggregator.days(), [.steps, .distanceMetres, .activeKilocalories, .flights, .totalKilocalories])
            == ["2024-05-01 3000 1500 250 3 -"])
        #expect(aggregator.aggregators.map { $0.metric } == [.steps, .distance, .activeEnergy, .flights])
    }

    /// A value that comes to nothing is absent, and a day with none is left out; a day value given
    /// whole (a summary) is left out and counted for its metric only.
    @Test func zeroValuesAndDayValues() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.steps, .distance]), rule: .recordedOffset, priority: ["phone"])
        add(aggregator, .steps, "phone", nine, nine + hour, 0)
        add(aggregator, .distance, "phone", nine, nine + hour, 0.4)
        add(aggregator, .distance, "phone", nine + 24 * hour, nine + 25 * hour, 12)
        "phone".utf8CString.withUnsafeBytes { bytes in
            let name = UnsafeRawBufferPointer(rebasing: bytes.dropLast())
            aggregator.addDayValue(LocalDate(year: 2024, month: 5, day: 3)!, of: .distanceMetres, value: 800, sourceUTF8: name)
            aggregator.addDayValue(LocalDate(year: 2024, month: 5, day: 3)!, of: .heartRateAverage, value: 60, sourceUTF8: name)
        }
        try aggregator.finish()
        #expect(rows(aggregator.days(), [.steps, .distanceMetres]) == ["2024-05-02 - 12"])
        #expect(aggregator.aggregator(of: .distance)?.statistics.dayTotals == 1)
        #expect(aggregator.aggregator(of: .steps)?.statistics.dayTotals == 0)
    }

    /// Without a list, the first metric's finish fails as for steps.
    @Test func noListIsAnError() {
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.distance]), rule: .recordedOffset)
        #expect(throws: ExportError.noPriorityList(inputHasPlace: false)) { try aggregator.finish() }
    }

    /// `--exclude-source` before the rule: the excluded app's records are gone before the sweep,
    /// so the next app in the list takes its slices, and the records are counted as excluded.
    @Test func anExcludedAppsSlicesGoToTheNextApp() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.steps, .flights]), rule: .recordedOffset,
                                                  priority: ["watch", "phone", "fit"])
        let exclusion = SourceExclusion(patterns: [try SourcePattern("watch")], next: aggregator)
        #expect(exclusion.prioritySink === exclusion)
        exclusion.storedPriority(["fit"])
        // 09-10 watch 3000; phone A 09:00-09:30 2000 (modified later) and B 09:15-09:45 600;
        // fit 1800 (09-10). Without the watch: 09:00-09:30 A 2000; 09:30-09:45 B 600 x 1/2 = 300;
        // 09:45-10:00 fit 1800 x 1/4 = 450: 2750. (Were the modified times lost on the way, B
        // would win 09:15-09:30 by its later start: 1000 + 600 + 450 = 2050.)
        let quarter = hour / 4
        add(exclusion, .steps, "watch", nine, nine + hour, 3000, modified: 5)
        add(exclusion, .steps, "phone", nine, nine + 2 * quarter, 2000, modified: 9)
        add(exclusion, .steps, "phone", nine + quarter, nine + 3 * quarter, 600, modified: 1)
        add(exclusion, .steps, "fit", nine, nine + hour, 1800)
        add(exclusion, .flights, "watch", nine, nine + hour, 4)
        try aggregator.finish()
        #expect(rows(aggregator.days(), [.steps, .flights]) == ["2024-05-01 2750 -"])
        #expect(exclusion.excluded.map(\.records) == [2])
        // The stored list reached the aggregators through the exclusion (the given one still wins).
        #expect(aggregator.storedPriority == ["fit"])
        #expect(aggregator.priority == ["watch", "phone", "fit"])
        // Before a plain sink it is no priority sink, as before.
        #expect(SourceExclusion(patterns: [], next: DayAggregator(rule: .recordedOffset)).prioritySink == nil)
    }
}
