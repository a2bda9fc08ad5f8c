import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// The sleep rule of docs/metrics.md on intervals built by hand: per source the union, cut into
/// periods at gaps of an hour or more, each period's minutes on the local day it ends, then the
/// source with the most minutes.
@Suite struct SleepDayAggregatorTests {
    private let minute = MetricTime.minute
    private let hour = MetricTime.hour

    private func sleepAggregator(_ metrics: MetricSet = metricSet(.sleep), rule: ZoneRule = .recordedOffset) -> MetricAggregator {
        MetricAggregator(metrics: metrics, rule: rule)
    }

    @Test func overlappingStagesOfOneSourceCountOnceOnTheDayTheNightEnds() {
        let aggregator = sleepAggregator()
        // Core 23:00-03:00 (written twice) and deep 02:00-05:00 overlap by an hour: the union is
        // 23:00-05:00, 360 minutes, on the 4th (the night of the 3rd to the 4th), never 540.
        aggregator.add(.sleep, utcMs(2024, 9, 3, 23), utcMs(2024, 9, 4, 3), source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 3, 23), utcMs(2024, 9, 4, 3), source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 4, 2), utcMs(2024, 9, 4, 5), source: "Watch")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-04=360"])
        #expect(aggregator.statistics(of: .sleep).records == 3)
    }

    @Test func ofTwoSourcesTheLongerNightWinsNotTheSum() {
        let aggregator = sleepAggregator()
        // Watch stages 23:00-01:00, 01:00-03:00 (touching) and 03:30-06:30 after 30 minutes awake:
        // one period, 120 + 120 + 180 = 420 minutes (the gap not counted).
        aggregator.add(.sleep, utcMs(2024, 9, 7, 23), utcMs(2024, 9, 8, 1), source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 8, 1), utcMs(2024, 9, 8, 3), source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 8, 3, 30), utcMs(2024, 9, 8, 6, 30), source: "Watch")
        // The sleep app's one interval for the whole night: 22:45-06:45, 480 minutes. It wins; the
        // sum (900) would be more than the night.
        aggregator.add(.sleep, utcMs(2024, 9, 7, 22, 45), utcMs(2024, 9, 8, 6, 45), source: "SleepApp")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-08=480"])
        #expect(aggregator.sourceRows(.sleepMinutes) == ["2024-09-08 SleepApp 480 winner", "2024-09-08 Watch 420 other"])
    }

    @Test func aGapOf59MinutesJoinsAPeriodAnd60SplitIt() {
        let aggregator = sleepAggregator()
        // A: 22:00-23:00 on the 10th, then 59 minutes awake, 23:59-01:00: one period ending on the
        // 11th, 60 + 61 = 121 minutes there (split, it would be 60 on the 10th and 61 on the 11th).
        aggregator.add(.sleep, utcMs(2024, 9, 10, 22), utcMs(2024, 9, 10, 23), source: "A")
        aggregator.add(.sleep, utcMs(2024, 9, 10, 23, 59), utcMs(2024, 9, 11, 1), source: "A")
        // B: 22:00-23:00 on the 12th, then exactly an hour awake, 00:00-01:00: two periods, 60 minutes
        // on the 12th and 60 on the 13th (joined, 120 on the 13th).
        aggregator.add(.sleep, utcMs(2024, 9, 12, 22), utcMs(2024, 9, 12, 23), source: "B")
        aggregator.add(.sleep, utcMs(2024, 9, 13, 0), utcMs(2024, 9, 13, 1), source: "B")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-11=121", "2024-09-12=60", "2024-09-13=60"])
    }

    @Test func aNapIsAPeriodOfItsOwnOnTheDayItEnds() {
        let aggregator = sleepAggregator()
        // The night of the 4th to the 5th (23:00-06:00, 420) and a nap on the afternoon of the 5th
        // (14:00-14:40, 40): two periods, both ending on the 5th: 460 there, none on the 4th.
        aggregator.add(.sleep, utcMs(2024, 9, 4, 23), utcMs(2024, 9, 5, 6), source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 5, 14), utcMs(2024, 9, 5, 14, 40), source: "Watch")
        // A nap on the 6th with no night before it: 15:00-15:30, 30 minutes on the 6th.
        aggregator.add(.sleep, utcMs(2024, 9, 6, 15), utcMs(2024, 9, 6, 15, 30), source: "Watch")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-05=460", "2024-09-06=30"])
    }

    @Test func inBedIsItsOwnMetric() {
        let aggregator = sleepAggregator(metricSet(.sleep, .inBed))
        // In bed 22:30-07:00 (510) from the phone, asleep 23:00-06:30 (450) from the watch: neither
        // takes part in the other's union or choice.
        aggregator.add(.inBed, utcMs(2024, 9, 14, 22, 30), utcMs(2024, 9, 15, 7), source: "iPhone")
        aggregator.add(.sleep, utcMs(2024, 9, 14, 23), utcMs(2024, 9, 15, 6, 30), source: "Watch")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-15=450"])
        #expect(aggregator.column(.inBedMinutes) == ["2024-09-15=510"])

        // Asked for sleep alone, in-bed intervals are left out.
        let sleepOnly = sleepAggregator()
        sleepOnly.add(.inBed, utcMs(2024, 9, 14, 22, 30), utcMs(2024, 9, 15, 7), source: "iPhone")
        #expect(sleepOnly.days().isEmpty)
    }

    @Test func aSourceDayOver1440MinutesIsLeftOutAndTheNextSourceWins() {
        let aggregator = sleepAggregator()
        // Broken: 00:00 on the 20th to 01:00 on the 21st, 1500 minutes in one period ending on the 21st.
        aggregator.add(.sleep, utcMs(2024, 9, 20), utcMs(2024, 9, 21, 1), source: "Broken")
        // Watch: 00:00-07:00 on the 21st, 420 minutes.
        aggregator.add(.sleep, utcMs(2024, 9, 21), utcMs(2024, 9, 21, 7), source: "Watch")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-21=420"])
        #expect(aggregator.sourceRows(.sleepMinutes) == ["2024-09-21 Broken 1500 implausible", "2024-09-21 Watch 420 winner"])
        #expect(aggregator.statistics(of: .sleep).leftOut == 1)
    }

    @Test func aPeriodIsPlacedWithTheOffsetOfTheRecordThatEndsIt() {
        let aggregator = sleepAggregator()
        // 20:00Z-23:30Z written at +0000, then 23:30Z-00:30Z written at -0300 (the phone travelled):
        // the period ends at 21:30 on the 25th at -0300: 270 minutes on the 25th, not the 26th.
        aggregator.add(.sleep, utcMs(2024, 9, 25, 20), utcMs(2024, 9, 25, 23, 30), offset: 0, source: "Watch")
        aggregator.add(.sleep, utcMs(2024, 9, 25, 23, 30), utcMs(2024, 9, 26, 0, 30), offset: -10_800, source: "Watch")
        #expect(aggregator.column(.sleepMinutes) == ["2024-09-25=270"])
    }

    @Test func underTZAPeriodEndsOnTheZonesDayDaylightSavingIncluded() {
        func days(_ rule: ZoneRule) -> [String] {
            let aggregator = sleepAggregator(rule: rule)
            // The night the clocks went back: 20:00Z (22:00 CEST) to 06:00Z (07:00 CET), 600 minutes,
            // on the 27th whichever rule (08:00 at the export's +0200).
            aggregator.add(.sleep, utcMs(2024, 10, 26, 20), utcMs(2024, 10, 27, 6), offset: 7200, source: "Watch")
            // 21:00Z-22:30Z on the 27th at +0200 ends at 00:30 on the 28th, but at 23:30 CET on the 27th.
            aggregator.add(.sleep, utcMs(2024, 10, 27, 21), utcMs(2024, 10, 27, 22, 30), offset: 7200, source: "Watch")
            // 21:00Z-22:30Z on 31 March at +0100 ends at 23:30 on the 31st, but at 00:30 CEST on 1 April.
            aggregator.add(.sleep, utcMs(2024, 3, 31, 21), utcMs(2024, 3, 31, 22, 30), offset: 3600, source: "Watch")
            return aggregator.column(.sleepMinutes)
        }
        #expect(days(.recordedOffset) == ["2024-03-31=90", "2024-10-27=600", "2024-10-28=90"])
        #expect(days(MetricAggregatorTests.berlin) == ["2024-04-01=90", "2024-10-27=690"])
    }

    // MARK: - The interval cap

    /// `count` one-minute intervals two hours apart (each its own period, twelve a day), from 1980.
    private func addDisjoint(_ aggregator: MetricAggregator, count: Int, length: Int64 = MetricTime.minute) {
        let base = utcMs(1980, 1, 1)
        for index in 0..<count {
            let start = base + Int64(index) * 2 * hour
            aggregator.add(.sleep, start, start + length, source: "Watch")
        }
    }

    private func totalMinutes(_ aggregator: MetricAggregator) -> Double {
        aggregator.days().reduce(0) { $0 + ($1[.sleepMinutes] ?? 0) }
    }

    @Test func pastHalfAMillionDisjointIntervalsFurtherOnesAreRefusedInLinearTime() {
        let clock = ContinuousClock()
        let started = clock.now
        let aggregator = sleepAggregator()
        addDisjoint(aggregator, count: 600_000)
        let statistics = aggregator.statistics(of: .sleep)
        let days = aggregator.days()
        let elapsed = clock.now - started
        #expect(statistics.records == 600_000)
        #expect(statistics.refused == 100_000)
        // The first 500,000 kept: twelve minutes a day for 41,666 days and 8 on the next.
        #expect(days.count == 41_667)
        #expect(totalMinutes(aggregator) == 500_000)
        #expect(elapsed < .seconds(60), "took \(elapsed): no compaction per record")
    }

    @Test func intervalsThatMergeIntoHeldOnesAreNotRefusedAtTheCap() {
        let aggregator = sleepAggregator()
        // 300,000 disjoint minutes, then each again from the same start to two minutes (a second
        // device of the same source): the union is 300,000 disjoint intervals of 2 minutes, under
        // the cap, so nothing may be refused: 600,000 minutes.
        addDisjoint(aggregator, count: 300_000)
        addDisjoint(aggregator, count: 300_000, length: 2 * minute)
        let statistics = aggregator.statistics(of: .sleep)
        #expect(statistics.refused == 0)
        #expect(totalMinutes(aggregator) == 600_000)
    }

    @Test func copiesNearTheCapNeitherRefusedNorCompactedForEachRecord() {
        let clock = ContinuousClock()
        let started = clock.now
        let aggregator = sleepAggregator()
        // 450,000 distinct intervals, just under the cap, then every one twice more: each merging
        // leaves 450,000, so nothing is refused, and compactions stay far apart.
        for _ in 0..<3 { addDisjoint(aggregator, count: 450_000) }
        let statistics = aggregator.statistics(of: .sleep)
        let elapsed = clock.now - started
        #expect(statistics.refused == 0)
        #expect(totalMinutes(aggregator) == 450_000)
        #expect(elapsed < .seconds(60), "took \(elapsed)")
    }
}
