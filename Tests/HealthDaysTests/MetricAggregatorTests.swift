import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// The day rules of docs/metrics.md for cumulative and sampled metrics and workouts, on samples
/// built by hand; every expected value is worked out in the comment beside it.
@Suite struct MetricAggregatorTests {
    private let minute = MetricTime.minute
    private let hour = MetricTime.hour

    // MARK: - Cumulative

    @Test func aCumulativeMetricTakesTheStepRule() {
        let aggregator = MetricAggregator(metrics: metricSet(.distance), rule: .recordedOffset)
        // 2024-05-01: iPhone 1000 (written three times) + 500.4 = 1500.4 → 1500; Watch 1400 + 99.6
        // = 1499.6 → 1500. The tie goes to the name first in UTF-8 order: "W" (0x57) < "i" (0x69).
        // Counted three times, iPhone's 3500 would win.
        let may1 = utcMs(2024, 5, 1, 9)
        for _ in 0..<3 { aggregator.add(.distance, may1, may1 + hour, 1000, source: "iPhone") }
        aggregator.add(.distance, may1 + 2 * hour, may1 + 3 * hour, 500.4, source: "iPhone")
        aggregator.add(.distance, may1, may1 + hour, 1400, source: "Watch")
        aggregator.add(.distance, may1 + 4 * hour, may1 + 4 * hour + 10 * minute, 99.6, source: "Watch")
        // 2024-05-02: iPhone 2000, Watch 1800 of the same walk: the highest source, 2000, never 3800.
        let may2 = utcMs(2024, 5, 2, 10)
        aggregator.add(.distance, may2, may2 + hour, 2000, source: "iPhone")
        aggregator.add(.distance, may2, may2 + hour, 1800, source: "Watch")
        // 23:30 to 00:30 at +0100 (22:30Z to 23:30Z): 600 m split in half at local midnight.
        aggregator.add(.distance, utcMs(2024, 5, 3, 22, 30), utcMs(2024, 5, 3, 23, 30), 600, offset: 3600, source: "Watch")
        // 0.4 m rounds to nothing: no day.
        aggregator.add(.distance, utcMs(2024, 5, 5, 10), utcMs(2024, 5, 5, 11), 0.4, source: "iPhone")
        try? aggregator.finish()

        #expect(aggregator.column(.distanceMetres) == ["2024-05-01=1500", "2024-05-02=2000", "2024-05-03=300", "2024-05-04=300"])
        #expect(aggregator.sourceRows(.distanceMetres).prefix(4) == [
            "2024-05-01 Watch 1500 winner", "2024-05-01 iPhone 1500 other",
            "2024-05-02 iPhone 2000 winner", "2024-05-02 Watch 1800 other",
        ])
        let statistics = aggregator.statistics(of: .distance)
        #expect(statistics.records == 10)
        #expect(statistics.duplicates == 2)
        #expect(statistics.leftOut == 0)
        #expect(statistics.offsets == [0, 3600])
        // No other column is filled.
        #expect(aggregator.days().allSatisfy { day in MetricColumn.allCases.allSatisfy { $0 == .distanceMetres || day[$0] == nil } })
    }

    static let cumulativeMaxima: [(Metric, Double)] = [(.distance, 350_000), (.activeEnergy, 20_000), (.flights, 5_000), (.exercise, 1_440)]

    @Test(arguments: cumulativeMaxima)
    func aSourceDayOverThePlausibleMaximumIsLeftOutAndTheNextSourceWins(_ metric: Metric, _ maximum: Double) {
        let aggregator = MetricAggregator(metrics: MetricSet(metric), rule: .recordedOffset)
        let column = metric.columns[0]
        let max = Int(maximum)
        // 06-01: Big sums to the maximum + 1 in two samples, each plausible alone: left out, Small wins.
        let june1 = utcMs(2024, 6, 1, 8)
        aggregator.add(metric, june1, june1 + hour, (maximum + 1) / 2, source: "Big")
        aggregator.add(metric, june1 + 2 * hour, june1 + 3 * hour, (maximum + 1) / 2, source: "Big")
        aggregator.add(metric, june1, june1 + hour, 10, source: "Small")
        // 06-02: exactly the maximum is plausible and wins.
        let june2 = utcMs(2024, 6, 2, 8)
        aggregator.add(metric, june2, june2 + hour, maximum / 2, source: "Big")
        aggregator.add(metric, june2 + 2 * hour, june2 + 3 * hour, maximum / 2, source: "Big")
        aggregator.add(metric, june2, june2 + hour, 10, source: "Small")
        // 06-03: one sample beyond a whole day's maximum makes its source-day implausible (checked on
        // the day's sum, like every cumulative day: a record over two days may hold more).
        let june3 = utcMs(2024, 6, 3, 8)
        aggregator.add(metric, june3, june3 + hour, maximum + 1, source: "Huge")
        aggregator.add(metric, june3, june3 + hour, 10, source: "Small")
        try? aggregator.finish()

        #expect(aggregator.column(column) == ["2024-06-01=10", "2024-06-02=\(max)", "2024-06-03=10"])
        #expect(Set(aggregator.sourceRows(column)) == [
            "2024-06-01 Big \(max + 1) implausible", "2024-06-01 Small 10 winner",
            "2024-06-02 Big \(max) winner", "2024-06-02 Small 10 other",
            "2024-06-03 Huge \(max + 1) implausible", "2024-06-03 Small 10 winner",
        ])
        let statistics = aggregator.statistics(of: metric)
        #expect(statistics.leftOut == 2, "two source-days")
        #expect(statistics.records == 8)
    }

    // MARK: - Heart rate

    @Test func heartRateTakesTheSourceWithTheMostSamples() {
        let aggregator = MetricAggregator(metrics: metricSet(.heartRate), rule: .recordedOffset)
        // 07-01: Watch 70, 70, 70, 71: four samples, mean 70.25 → 70.3 (half away from zero; to even
        // it would be 70.2), min 70, max 71. Cuff 140, 150, 160 (160 written three times): three
        // samples, mean 150: a higher mean, fewer samples. Counting the copies (5), Cuff would win.
        let july1 = utcMs(2024, 7, 1)
        for (hourOfDay, value) in [(8, 70.0), (9, 70), (10, 70), (11, 71)] {
            aggregator.add(.heartRate, at: july1 + Int64(hourOfDay) * hour, value, source: "Watch")
        }
        for (hourOfDay, value) in [(12, 140.0), (13, 150), (14, 160), (14, 160), (14, 160)] {
            aggregator.add(.heartRate, at: july1 + Int64(hourOfDay) * hour, value, source: "Cuff")
        }
        // 07-02: two samples each; the tie goes to "Zebra" ("Z" 0x5A < "a" 0x61), not to "apple".
        let july2 = utcMs(2024, 7, 2)
        aggregator.add(.heartRate, at: july2 + 8 * hour, 60, source: "apple")
        aggregator.add(.heartRate, at: july2 + 9 * hour, 62, source: "apple")
        aggregator.add(.heartRate, at: july2 + 8 * hour, 90, source: "Zebra")
        aggregator.add(.heartRate, at: july2 + 9 * hour, 100, source: "Zebra")
        // 07-03: Watch has five records but 24.9 and 250.5 are outside 25-250: three samples (25,
        // 250 and 80 kept: the bounds are inside); Phone's four win: mean 61.5, min 60, max 63.
        let july3 = utcMs(2024, 7, 3)
        for (index, value) in [24.9, 25, 250, 250.5, 80].enumerated() {
            aggregator.add(.heartRate, at: july3 + Int64(index + 1) * hour, value, source: "Watch")
        }
        for (index, value) in [60.0, 61, 62, 63].enumerated() {
            aggregator.add(.heartRate, at: july3 + Int64(index + 10) * hour, value, source: "Phone")
        }
        // 07-04: mean (61.5 + 62.5 + 64.45) / 3 = 62.816… → 62.8; min 61.5 → 62 (half away from
        // zero), max 64.45 → 64.
        let july4 = utcMs(2024, 7, 4)
        for (index, value) in [61.5, 62.5, 64.45].enumerated() {
            aggregator.add(.heartRate, at: july4 + Int64(index + 1) * hour, value, source: "Watch")
        }
        // A sample from 23:59 to 00:10 counts on the day it starts; one at 23:30Z written at +0200
        // starts at 01:30 on the 7th.
        aggregator.add(.heartRate, utcMs(2024, 7, 5, 23, 59), utcMs(2024, 7, 6, 0, 10), 100, source: "Watch")
        aggregator.add(.heartRate, at: utcMs(2024, 7, 6, 23, 30), 90, offset: 7200, source: "Watch")
        try? aggregator.finish()

        #expect(aggregator.column(.heartRateAverage) == ["2024-07-01=70.3", "2024-07-02=95", "2024-07-03=61.5",
                                                         "2024-07-04=62.8", "2024-07-05=100", "2024-07-07=90"])
        #expect(aggregator.column(.heartRateMinimum) == ["2024-07-01=70", "2024-07-02=90", "2024-07-03=60",
                                                         "2024-07-04=62", "2024-07-05=100", "2024-07-07=90"])
        #expect(aggregator.column(.heartRateMaximum) == ["2024-07-01=71", "2024-07-02=100", "2024-07-03=63",
                                                         "2024-07-04=64", "2024-07-05=100", "2024-07-07=90"])
        #expect(aggregator.sourceRows(.heartRateAverage).prefix(6) == [
            "2024-07-01 Watch 70.3 winner", "2024-07-01 Cuff 150 other",
            "2024-07-02 Zebra 95 winner", "2024-07-02 apple 61 other",
            "2024-07-03 Phone 61.5 winner", "2024-07-03 Watch 118.3 other",
        ])
        #expect(aggregator.sourceRows(.heartRateMinimum).contains("2024-07-03 Watch 25 other"))
        #expect(aggregator.sourceRows(.heartRateMaximum).contains("2024-07-03 Watch 250 other"))
        let statistics = aggregator.statistics(of: .heartRate)
        #expect(statistics.records == 27)
        #expect(statistics.duplicates == 2)
        #expect(statistics.leftOut == 2)
        #expect(statistics.offsets == [0, 7200])
    }

    @Test func restingHeartRateHRVAndVO2maxAreTheMeanOfTheSourceWithTheMostSamples() {
        let aggregator = MetricAggregator(metrics: metricSet(.restingHeartRate, .heartRateVariability, .vo2Max),
                                          rule: .recordedOffset)
        let day = utcMs(2024, 8, 1)
        // Resting: Watch 50, 53 → 51.5 beats App's single 80; 151 and 24 are outside 25-150.
        for (hourOfDay, value) in [(6, 50.0), (7, 53), (9, 151), (10, 24)] {
            aggregator.add(.restingHeartRate, at: day + Int64(hourOfDay) * hour, value, source: "Watch")
        }
        aggregator.add(.restingHeartRate, at: day + 8 * hour, 80, source: "App")
        // HRV: Watch 45, 46, 47.2 → 46.066… → 46.1 beats Other's two; 0.5 and 301 are outside 1-300.
        for (hourOfDay, value) in [(1, 45.0), (2, 46), (3, 47.2), (4, 0.5), (5, 301)] {
            aggregator.add(.heartRateVariability, at: day + Int64(hourOfDay) * hour, value, source: "Watch")
        }
        aggregator.add(.heartRateVariability, at: day + 6 * hour, 100, source: "Other")
        aggregator.add(.heartRateVariability, at: day + 7 * hour, 200, source: "Other")
        // VO2max: Watch 40, 41 → 40.5 beats App's 50; 9.9 and 95.1 are outside 10-95.
        for (hourOfDay, value) in [(10, 40.0), (11, 41), (12, 9.9), (13, 95.1)] {
            aggregator.add(.vo2Max, at: day + Int64(hourOfDay) * hour, value, source: "Watch")
        }
        aggregator.add(.vo2Max, at: day + 14 * hour, 50, source: "App")
        try? aggregator.finish()

        #expect(aggregator.column(.restingHeartRate) == ["2024-08-01=51.5"])
        #expect(aggregator.column(.heartRateVariability) == ["2024-08-01=46.1"])
        #expect(aggregator.column(.vo2Max) == ["2024-08-01=40.5"])
        #expect(aggregator.column(.heartRateAverage).isEmpty)
        #expect(aggregator.sourceRows(.restingHeartRate) == ["2024-08-01 Watch 51.5 winner", "2024-08-01 App 80 other"])
        #expect(aggregator.sourceRows(.heartRateVariability) == ["2024-08-01 Watch 46.1 winner", "2024-08-01 Other 150 other"])
        for metric in [Metric.restingHeartRate, .heartRateVariability, .vo2Max] {
            #expect(aggregator.statistics(of: metric).leftOut == 2, "\(metric)")
        }
        #expect(aggregator.statistics(of: .heartRateVariability).records == 7)
    }

    // MARK: - Workouts

    @Test func workoutsCountOnTheDayTheyStartAndTheSourceWithTheMostMinutesWins() {
        let aggregator = MetricAggregator(metrics: metricSet(.workouts), rule: .recordedOffset)
        // 10-01: Watch: 23:30 to 00:30 (60 min, all on the 1st: a workout is not split) and 45 min
        // written twice (once) → 2 workouts, 105 min. Strava: three of 30 → 3 workouts, 90 min:
        // more workouts, fewer minutes: Watch gives both columns.
        let october1 = utcMs(2024, 10, 1)
        aggregator.add(.workouts, october1 + 23 * hour + 30 * minute, october1 + 24 * hour + 30 * minute, 60, source: "Watch")
        aggregator.add(.workouts, october1 + 7 * hour, october1 + 7 * hour + 45 * minute, 45, source: "Watch")
        aggregator.add(.workouts, october1 + 7 * hour, october1 + 7 * hour + 45 * minute, 45, source: "Watch")
        for start in [12, 14, 16] {
            aggregator.add(.workouts, october1 + Int64(start) * hour, october1 + Int64(start) * hour + 30 * minute, 30,
                           source: "Strava")
        }
        // 10-05: Logger's 1500 minutes are more than a day: left out, Watch's 30 win.
        let october5 = utcMs(2024, 10, 5)
        aggregator.add(.workouts, october5, october5 + 25 * hour, 1500, source: "Logger")
        aggregator.add(.workouts, october5 + 8 * hour, october5 + 8 * hour + 30 * minute, 30, source: "Watch")
        // 10-07: b 40 min in one, a 20 + 20 in two: a tie in minutes goes to "a".
        let october7 = utcMs(2024, 10, 7)
        aggregator.add(.workouts, october7 + 8 * hour, october7 + 9 * hour, 40, source: "b")
        aggregator.add(.workouts, october7 + 8 * hour, october7 + 9 * hour, 20, source: "a")
        aggregator.add(.workouts, october7 + 10 * hour, october7 + 11 * hour, 20, source: "a")
        try? aggregator.finish()

        #expect(aggregator.column(.workouts) == ["2024-10-01=2", "2024-10-05=1", "2024-10-07=2"])
        #expect(aggregator.column(.workoutMinutes) == ["2024-10-01=105", "2024-10-05=30", "2024-10-07=40"])
        #expect(aggregator.sourceRows(.workoutMinutes) == [
            "2024-10-01 Watch 105 winner", "2024-10-01 Strava 90 other",
            "2024-10-05 Logger 1500 implausible", "2024-10-05 Watch 30 winner",
            "2024-10-07 a 40 winner", "2024-10-07 b 40 other",
        ])
        #expect(aggregator.sourceRows(.workouts).prefix(2) == ["2024-10-01 Watch 2 winner", "2024-10-01 Strava 3 other"])
        let statistics = aggregator.statistics(of: .workouts)
        #expect(statistics.records == 11)
        #expect(statistics.duplicates == 1)
        #expect(statistics.leftOut == 1)
    }

    // MARK: - Zones

    static let berlin = ZoneRule.named("Europe/Berlin")!

    /// Sampled values and workouts go to the day of their start: under `--tz Europe/Berlin` by the
    /// zone's own offset on that day, whatever offset the export wrote.
    @Test(arguments: [Metric.heartRate, .workouts])
    func underTZASampleStartsOnTheZonesDayDaylightSavingIncluded(_ metric: Metric) {
        func days(_ rule: ZoneRule) -> [String] {
            let aggregator = MetricAggregator(metrics: MetricSet(metric), rule: rule)
            // 2024-10-27 22:30Z, written at +0200 (summer, export time): 00:30 on the 28th at +0200,
            // but 23:30 CET on the 27th in Berlin (the clocks went back that night).
            aggregator.add(metric, utcMs(2024, 10, 27, 22, 30), utcMs(2024, 10, 27, 23), 70, offset: 7200, source: "Watch")
            // 2024-03-31 22:30Z, written at +0100 (winter): 23:30 on the 31st at +0100, but 00:30
            // CEST on 1 April in Berlin (the clocks went forward that morning).
            aggregator.add(metric, utcMs(2024, 3, 31, 22, 30), utcMs(2024, 3, 31, 23), 80, offset: 3600, source: "Watch")
            try? aggregator.finish()
            return aggregator.column(metric.columns.count == 3 ? .heartRateAverage : .workoutMinutes)
        }
        #expect(days(.recordedOffset) == ["2024-03-31=80", "2024-10-28=70"])
        #expect(days(Self.berlin) == ["2024-04-01=80", "2024-10-27=70"])
    }

    @Test func underTZACumulativeSampleIsSplitAtTheZonesMidnight() {
        func days(_ rule: ZoneRule) -> [String] {
            let aggregator = MetricAggregator(metrics: metricSet(.distance), rule: rule)
            // 22:30Z to 23:30Z on 2024-10-27, written at +0200: 00:30-01:30 on the 28th there; in Berlin
            // (CET) 23:30 to 00:30: half on each day.
            aggregator.add(.distance, utcMs(2024, 10, 27, 22, 30), utcMs(2024, 10, 27, 23, 30), 600, offset: 7200,
                           source: "Watch")
            try? aggregator.finish()
            return aggregator.column(.distanceMetres)
        }
        #expect(days(.recordedOffset) == ["2024-10-28=600"])
        #expect(days(Self.berlin) == ["2024-10-27=300", "2024-10-28=300"])
    }

    // MARK: - The shared duplicate budget

    /// Distinct samples of several metrics, every seventh written twice; whole and fractional
    /// values (both kinds of duplicate key), sums exact in binary so that no order changes them.
    static func feed(_ aggregator: MetricAggregator) {
        let base = utcMs(2024, 2, 1)
        for day in 0..<10 {
            for index in 0..<20 {
                let start = base + Int64(day) * MetricTime.day + Int64(index) * 40 * MetricTime.minute
                let end = start + 5 * MetricTime.minute
                let source = index % 2 == 0 ? "Phone" : "Watch"
                let copies = index % 7 == 0 ? 2 : 1
                for _ in 0..<copies {
                    aggregator.add(.steps, start, end, Double(100 + index) + (index % 4 == 0 ? 0.25 : 0), source: source)
                    aggregator.add(.distance, start, end, Double(70 + index + day), source: source)
                    aggregator.add(.heartRate, at: start, Double(60 + (index * 7 + day) % 30), source: source)
                    if index < 3 { aggregator.add(.restingHeartRate, at: start, Double(50 + index), source: source) }
                    if index % 5 == 0 { aggregator.add(.workouts, start, start + 30 * MetricTime.minute, 30.5 + Double(index), source: source) }
                    aggregator.add(.sleep, start, end, source: source)
                }
            }
        }
    }

    static let budgetMetrics = metricSet(.steps, .distance, .heartRate, .restingHeartRate, .workouts, .sleep)

    @Test func aSmallDuplicateBudgetSpillsEveryAggregatorAndGivesTheSameResult() {
        let reference = MetricAggregator(metrics: Self.budgetMetrics, rule: .recordedOffset)
        let spilling = MetricAggregator(metrics: Self.budgetMetrics, rule: .recordedOffset, inMemoryLimit: 10)
        Self.feed(reference)
        Self.feed(spilling)
        #expect(throws: Never.self) { try reference.finish() }
        #expect(throws: Never.self) { try spilling.finish() }

        #expect(spilling.days() == reference.days())
        #expect(spilling.sourceValues() == reference.sourceValues())
        for metric in Self.budgetMetrics.metrics {
            #expect(spilling.statistics(of: metric) == reference.statistics(of: metric), "\(metric)")
        }
        // Every seventh record (index 0, 7, 14 of 20) was written twice: 3 copies a day, ten days.
        #expect(reference.statistics(of: .distance).duplicates == 30)
        #expect(reference.statistics(of: .heartRate).duplicates == 30)
        #expect(reference.statistics(of: .workouts).duplicates == 10)
        #expect(reference.statistics(of: .restingHeartRate).duplicates == 10)
        #expect(reference.steps.statistics.duplicates == 30)
        #expect(reference.days().count == 10)
        // Heart rate of 2024-02-01: Phone and Watch have ten samples each; the tie goes to Phone,
        // whose values are 60 + (index * 7) % 30 for the even indexes: 60, 74, 88, 72, 86, 70, 84,
        // 68, 82, 66 → mean 75, min 60, max 88.
        let first = reference.days()[0]
        #expect(first[.heartRateAverage] == 75)
        #expect(first[.heartRateMinimum] == 60)
        #expect(first[.heartRateMaximum] == 88)
    }

    /// Without `finish()` the spilled samples are not counted yet: reading the values then is a
    /// programming error that stops the process rather than giving low totals.
    @Test func readingBeforeFinishStopsWhenTheCheckSpilled() async {
        await #expect(processExitsWith: .failure) {
            let aggregator = MetricAggregator(metrics: MetricAggregatorTests.budgetMetrics, rule: .recordedOffset,
                                              inMemoryLimit: 10)
            MetricAggregatorTests.feed(aggregator)
            _ = aggregator.statistics(of: .heartRate)
        }
    }

    @Test func filtersSharingABudgetSpillOnceTheirKeysTogetherPassIt() throws {
        let budget = DuplicateBudget(limit: 10)
        let first = DuplicateFilter(sharing: budget)
        let second = DuplicateFilter(sharing: budget)
        func record(_ index: Int) -> SampleRecord {
            SampleRecord(HealthSample(startMs: Int64(index) * 60_000, endMs: Int64(index) * 60_000 + 1000, offsetSeconds: 0,
                                    value: 5), source: 0)
        }
        for index in 0..<8 { #expect(first.check(record(index)) == .new) }
        #expect(first.check(record(3)) == .duplicate)
        for index in 0..<2 { #expect(second.check(record(index)) == .new) }
        #expect(!first.isSpilling && !second.isSpilling, "10 keys held: at the limit, not past it")
        // The eleventh key passes the limit: the filter that took it spills, the other keeps its keys.
        #expect(second.check(record(2)) == .new)
        #expect(second.isSpilling && !first.isSpilling)
        #expect(budget.held == 8)
        #expect(second.check(record(0)) == .deferred)
        #expect(second.check(record(50)) == .deferred)
        // The budget is free again for 2 more keys of the first filter, then it spills too.
        #expect(first.check(record(8)) == .new)
        #expect(first.check(record(9)) == .new)
        #expect(!first.isSpilling)
        #expect(first.check(record(10)) == .new)
        #expect(first.isSpilling)
        #expect(first.check(record(9)) == .deferred)

        var handed: [Int64] = []
        #expect(try second.drain { handed.append($0.startMs / 60_000) } == 1, "record 0 again")
        #expect(handed == [50])
        handed = []
        #expect(try first.drain { handed.append($0.startMs / 60_000) } == 1, "record 9 again")
        #expect(handed.isEmpty)
    }
}
