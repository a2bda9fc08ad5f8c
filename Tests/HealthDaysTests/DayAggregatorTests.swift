import Foundation
import Testing
@testable import HealthDays
import TestSupport

@Suite struct DayAggregatorTests {
    private let hour: Int64 = 3_600_000

    private func sample(_ start: Int64, _ end: Int64, _ value: Double, offset: Int32? = 0) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value)
    }

    @Test func theHighestSingleSourceWinsAndSourcesAreNeverAdded() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let morning = utcMs(2024, 5, 1, 9)
        aggregator.add(sample(morning, morning + hour, 5000), source: "iPhone")
        aggregator.add(sample(morning, morning + hour, 5200), source: "Watch")
        aggregator.add(sample(morning + 2 * hour, morning + 3 * hour, 300), source: "iPhone")
        let days = aggregator.dayTotals()
        #expect(days.pairs == ["2024-05-01=5300"])
        #expect(days[0].source == "iPhone")
        #expect(days[0].sources == [SourceTotal(source: "iPhone", steps: 5300), SourceTotal(source: "Watch", steps: 5200)])
    }

    @Test func exactDuplicatesCountOnceSoTheRightSourceWins() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2016, 8, 14, 10)
        aggregator.add(sample(start, start + hour, 4000), source: "iPhone")
        for _ in 0..<17 {
            aggregator.add(sample(start, start + 600_000, 3000), source: "Mi Fit")
        }
        // Same source and times but another value, and same value from another source: not duplicates.
        aggregator.add(sample(start, start + 600_000, 2999), source: "Mi Fit")
        aggregator.add(sample(start, start + 600_000, 3000), source: "Other")
        #expect(aggregator.dayTotals().pairs == ["2016-08-14=5999"])
        #expect(aggregator.dayTotals()[0].source == "Mi Fit")
        #expect(aggregator.statistics.duplicates == 16)
        #expect(aggregator.statistics.samples == 20)
    }

    @Test func duplicatesThatDoNotFitThePackedKeyAreFoundToo() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2020, 1, 1, 10)
        for _ in 0..<3 {
            aggregator.add(sample(start, start + hour, 12.5), source: "Pedometer")      // fraction
            aggregator.add(sample(-hour * 30, -hour * 29, 7), source: "Old")            // before 1970
        }
        #expect(aggregator.statistics.duplicates == 4)
        #expect(aggregator.dayTotals().pairs == ["1969-12-30=7", "2020-01-01=13"])
    }

    @Test func aSampleAcrossMidnightIsSplitInProportionToTime() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        // 23:50 to 00:20 at +0100: a third before midnight, two thirds after.
        let start = utcMs(2024, 3, 9, 22, 50)
        aggregator.add(sample(start, start + 30 * 60_000, 900, offset: 3600), source: "Watch")
        #expect(aggregator.dayTotals().pairs == ["2024-03-09=300", "2024-03-10=600"])
        #expect(aggregator.statistics.crossingMidnight == 1)
    }

    @Test func aSampleEndingAtMidnightStaysOnItsDay() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        aggregator.add(sample(utcMs(2024, 1, 1, 23), utcMs(2024, 1, 2), 100), source: "A")
        #expect(aggregator.dayTotals().pairs == ["2024-01-01=100"])
        #expect(aggregator.statistics.crossingMidnight == 0)
    }

    @Test func aSampleSpanningSeveralDaysIsSpreadOverAllOfThem() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        aggregator.add(sample(utcMs(2024, 1, 1, 12), utcMs(2024, 1, 3, 12), 4800), source: "A")
        #expect(aggregator.dayTotals().pairs == ["2024-01-01=1200", "2024-01-02=2400", "2024-01-03=1200"])
    }

    @Test func aZeroLengthSampleCountsWholeOnItsDay() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let instant = utcMs(2024, 1, 1, 23, 30)
        aggregator.add(sample(instant, instant, 42, offset: 3600), source: "A")
        #expect(aggregator.dayTotals().pairs == ["2024-01-02=42"])
        #expect(aggregator.statistics.zeroLength == 1)
    }

    @Test func eachSampleUsesItsOwnOffsetByDefault() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let instant = utcMs(2024, 6, 1, 22, 30)   // 22:30 UTC
        aggregator.add(sample(instant, instant + 60_000, 10, offset: 0), source: "London")
        aggregator.add(sample(instant, instant + 60_000, 20, offset: 7200), source: "Berlin")
        aggregator.add(sample(instant, instant + 60_000, 30, offset: nil), source: "Nowhere")
        #expect(aggregator.dayTotals().pairs == ["2024-06-01=30", "2024-06-02=20"])
        #expect(aggregator.statistics.offsets == [0, 7200])
        #expect(aggregator.statistics.withoutOffset == 1)
    }

    @Test func roundingHappensPerSourcePerDayBeforeTheHighestIsChosen() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2024, 1, 1, 10)
        // A: 0.4 + 0.4 + 0.4 = 1.2 -> 1;  B: 0.6 -> 1 (half away from zero for 0.5 too).
        for minute in 0..<3 {
            aggregator.add(sample(start + Int64(minute) * 60_000, start + Int64(minute + 1) * 60_000, 0.4), source: "A")
        }
        aggregator.add(sample(start, start + 60_000, 2.5), source: "C")
        let days = aggregator.dayTotals()
        #expect(days[0].steps == 3)
        #expect(days[0].source == "C")
        #expect(days[0].sources.map(\.steps) == [3, 1])
    }

    @Test func tiesGoToTheSourceWhoseNameSortsFirst() {
        for order in [["Watch", "iPhone", "Anna’s iPhone"], ["Anna’s iPhone", "iPhone", "Watch"]] {
            let aggregator = DayAggregator(rule: .recordedOffset)
            for name in order {
                aggregator.add(sample(utcMs(2024, 1, 1, 10), utcMs(2024, 1, 1, 11), 500), source: name)
            }
            #expect(aggregator.dayTotals()[0].source == "Anna’s iPhone")
        }
    }

    @Test func daysWithZeroStepsAreDropped() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        aggregator.add(sample(utcMs(2024, 1, 1, 10), utcMs(2024, 1, 1, 11), 0), source: "A")
        aggregator.add(sample(utcMs(2024, 1, 2, 10), utcMs(2024, 1, 2, 11), 0.4), source: "A")
        aggregator.add(sample(utcMs(2024, 1, 3, 10), utcMs(2024, 1, 3, 11), 1), source: "A")
        #expect(aggregator.dayTotals().pairs == ["2024-01-03=1"])
    }

    @Test func sinceAndUntilKeepOnlyTheirDays() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        for day in 1...5 {
            aggregator.add(sample(utcMs(2024, 1, day, 10), utcMs(2024, 1, day, 11), Double(day * 100)), source: "A")
        }
        #expect(aggregator.dayTotals(in: date("2024-01-02")...date("2024-01-04")).pairs
                == ["2024-01-02=200", "2024-01-03=300", "2024-01-04=400"])
    }

    @Test func anIANAZoneMovesSamplesToTheDayThePhoneShowed() throws {
        // Apple writes a July sample with the January export offset +0100: 23:30 in the file is
        // 00:30 the next day in Berlin summer time.
        let berlin = try #require(ZoneRule.named("Europe/Berlin"))
        let instant = utcMs(2016, 7, 1, 22, 30)
        for (rule, expected) in [(ZoneRule.recordedOffset, "2016-07-01=50"), (berlin, "2016-07-02=50")] {
            let aggregator = DayAggregator(rule: rule)
            aggregator.add(sample(instant, instant + 60_000, 50, offset: 3600), source: "A")
            #expect(aggregator.dayTotals().pairs == [expected])
        }
    }

    @Test func aSampleAcrossADSTMidnightIsSplitByRealElapsedTime() throws {
        let zone = try #require(ZoneRule.named("America/Sao_Paulo"))
        // Sao Paulo's 2018-11-04 started at 01:00 (clocks jumped from 00:00): the night of
        // 2018-11-03 23:00 (-03) to 2018-11-04 02:00 (-02) lasts two real hours, one on each day.
        let aggregator = DayAggregator(rule: zone)
        aggregator.add(sample(utcMs(2018, 11, 4, 2), utcMs(2018, 11, 4, 4), 200), source: "A")
        #expect(aggregator.dayTotals().pairs == ["2018-11-03=100", "2018-11-04=100"])
    }

    @Test func unnamedZonesAndAbbreviationsAreRefused() {
        #expect(ZoneRule.named("Europe/Berlin") != nil)
        #expect(ZoneRule.named("UTC") != nil)
        #expect(ZoneRule.named("CET") != nil, "a zone of the database, with its daylight-saving rules")
        #expect(ZoneRule.named("PST") == nil, "an abbreviation names no rules")
        #expect(ZoneRule.named("Mars/Olympus") == nil)
        #expect(ZoneRule.named("") == nil)
    }

    @Test func highestSourcePerDayIsOrderIndependent() {
        let entries = [
            SourceDayTotal(date: date("2024-01-02"), source: "B", steps: 10),
            SourceDayTotal(date: date("2024-01-01"), source: "A", steps: 7),
            SourceDayTotal(date: date("2024-01-01"), source: "B", steps: 9),
            SourceDayTotal(date: date("2024-01-03"), source: "A", steps: 0),
        ]
        let forward = highestSourcePerDay(entries)
        #expect(forward == highestSourcePerDay(entries.reversed()))
        #expect(forward.pairs == ["2024-01-01=9", "2024-01-02=10"])
    }
}

@Suite struct DayAggregatorSumTests {
    /// Two sources alternating within each day, days revisited after many new ones (the sums
    /// table grows and moves its entries in between): every source's day total is the plain
    /// sum of its samples, whether a sample adds to the sum added to last or to another.
    @Test func sumsStayApartPerSourceAndDayWhateverTheOrder() throws {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let day: Int64 = 86_400_000
        let base: Int64 = 20_000 * day
        var expected: [String: Int] = [:]
        func add(_ dayIndex: Int64, _ source: String, _ steps: Double, at minute: Int64) {
            let start = base + dayIndex * day + minute * 60_000
            aggregator.add(HealthSample(startMs: start, endMs: start + 30_000, offsetSeconds: 0, value: steps), source: source)
            let date = LocalDate(daysSinceEpoch: Int32(20_000 + dayIndex))
            expected["\(date) \(source)", default: 0] += Int(steps)
        }
        for round in Int64(0)..<3 {
            for dayIndex in Int64(0)..<600 {
                add(dayIndex, "watch", 10, at: round * 10)
                add(dayIndex, "watch", 1, at: round * 10 + 1)
                add(dayIndex, "phone", 100, at: round * 10 + 2)
                add(dayIndex, "watch", 1_000, at: round * 10 + 3)
                add(dayIndex, "phone", 10_000, at: round * 10 + 4)
            }
        }
        try aggregator.finish()
        var got: [String: Int] = [:]
        for total in aggregator.sourceDayTotals() {
            got["\(total.date) \(total.source)"] = total.steps
        }
        #expect(got.count == 1_200)
        #expect(got == expected)
        #expect(got["\(LocalDate(daysSinceEpoch: 20_000)) watch"] == 3 * 1_011)
        #expect(aggregator.dayTotals().allSatisfy { $0.steps == 30_300 && $0.source == "phone" })
    }
}

@Suite struct ZoneCalendarTests {
    private func calendar(_ name: String) -> ZoneCalendar {
        ZoneCalendar(zone: TimeZone(identifier: name)!)
    }

    @Test func berlinDaysAreTwentyThreeAndTwentyFiveHoursAroundDST() {
        let berlin = calendar("Europe/Berlin")
        let spring = berlin.day(containing: utcMs(2024, 3, 31, 12))
        #expect(spring.day == date("2024-03-31").daysSinceEpoch)
        #expect(spring.startMs == utcMs(2024, 3, 30, 23))
        #expect(spring.endMs - spring.startMs == 23 * 3_600_000)
        let autumn = berlin.day(containing: utcMs(2024, 10, 27, 12))
        #expect(autumn.endMs - autumn.startMs == 25 * 3_600_000)
    }

    @Test func aDayWhoseMidnightNeverHappensStartsAtTheJump() {
        // Sao Paulo, 2018-11-04: 00:00 -03 became 01:00 -02, at 03:00 UTC.
        let day = calendar("America/Sao_Paulo").day(containing: utcMs(2018, 11, 4, 12))
        #expect(day.day == date("2018-11-04").daysSinceEpoch)
        #expect(day.startMs == utcMs(2018, 11, 4, 3))
        #expect(day.endMs == utcMs(2018, 11, 5, 2))
    }

    @Test func instantsJustAroundMidnightLandOnTheRightDay() {
        let berlin = calendar("Europe/Berlin")
        #expect(berlin.day(containing: utcMs(2024, 7, 1, 21, 59, 59)).day == date("2024-07-01").daysSinceEpoch)
        #expect(berlin.day(containing: utcMs(2024, 7, 1, 22)).day == date("2024-07-02").daysSinceEpoch)
        // After a cache hit on one day, a far-away instant still gets its own day.
        #expect(berlin.day(containing: utcMs(1999, 1, 1, 12)).day == date("1999-01-01").daysSinceEpoch)
    }

    @Test func wallTimesInGapsMoveForwardAndRepeatedHoursTakeTheFirst() {
        let berlin = calendar("Europe/Berlin")
        let local = { (h: Int, m: Int, d: Int, mo: Int) in utcMs(2024, mo, d, h, m) }
        // 02:30 on 2024-03-31 does not exist; clocks show 03:30 CEST = 01:30 UTC.
        #expect(berlin.instant(ofWallTime: local(2, 30, 31, 3)) == utcMs(2024, 3, 31, 1, 30))
        // 02:30 on 2024-10-27 happens twice; the first is 02:30 CEST = 00:30 UTC.
        #expect(berlin.instant(ofWallTime: local(2, 30, 27, 10)) == utcMs(2024, 10, 27, 0, 30))
        #expect(berlin.instant(ofWallTime: local(12, 0, 1, 7)) == utcMs(2024, 7, 1, 10))
    }
}

@Suite struct DayAggregatorInputKindsTests {
    private let hour: Int64 = 3_600_000

    private func sample(_ start: Int64, _ end: Int64, _ value: Double) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: 0, value: value)
    }
    @Test func wallClockSamplesAreTakenAsUTCOrAsTheZonesLocalTime() throws {
        // Flutter's dateFrom: 23:30 on the wall clock, no zone.
        let wall = HealthSample(startMs: utcMs(2024, 7, 1, 23, 30), endMs: utcMs(2024, 7, 1, 23, 40), offsetSeconds: nil,
                              value: 80, wallClock: true)
        let plain = DayAggregator(rule: .recordedOffset)
        plain.add(wall, source: "app")
        #expect(plain.dayTotals().pairs == ["2024-07-01=80"])
        // Dated as written, not taken as UTC: no "taken as UTC" line speaks of it.
        #expect(plain.statistics.withoutOffset == 0)

        // In Tokyo, 23:30 local is still July 1st, although it is 14:30 UTC.
        let tokyo = DayAggregator(rule: try #require(ZoneRule.named("Asia/Tokyo")))
        tokyo.add(wall, source: "app")
        #expect(tokyo.dayTotals().pairs == ["2024-07-01=80"])
        #expect(tokyo.statistics.wallClockInZone == 1)

        // An instant (not a wall time) at 23:30 UTC is July 2nd in Tokyo.
        var instant = wall
        instant.wallClock = false
        let tokyoInstant = DayAggregator(rule: try #require(ZoneRule.named("Asia/Tokyo")))
        tokyoInstant.add(instant, source: "app")
        #expect(tokyoInstant.dayTotals().pairs == ["2024-07-02=80"])
    }

    @Test func dayTotalsCountOnTheirDateUnderEveryRuleAndCompeteLikeSources() throws {
        for rule in [ZoneRule.recordedOffset, try #require(ZoneRule.named("Pacific/Kiritimati"))] {
            let aggregator = DayAggregator(rule: rule)
            aggregator.addDayTotal(date("2024-02-29"), steps: 8122, source: "Google Fit")
            aggregator.addDayTotal(date("2024-02-29"), steps: 8122, source: "Google Fit")   // duplicate
            aggregator.addDayTotal(date("2024-02-29"), steps: 9000, source: "Other")
            aggregator.addDayTotal(date("2024-03-01"), steps: 10, source: "Google Fit")
            #expect(aggregator.dayTotals().pairs == ["2024-02-29=9000", "2024-03-01=10"])
            #expect(aggregator.statistics.duplicates == 1)
            #expect(aggregator.statistics.dayTotals == 3)
        }
    }

    @Test func recordsAreCountedPerSourceDuplicatesIncludedRefusedNot() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2024, 5, 1, 9)
        for _ in 0..<3 { aggregator.add(sample(start, start + hour, 100), source: "Mi Fit") }  // 2 duplicates
        aggregator.add(sample(start, start + hour, 5000), source: "iPhone")
        aggregator.addDayTotal(date("2024-05-02"), steps: 10, source: "Mi Fit")
        aggregator.add(sample(start, start + hour, 2_000_000), source: "Refused")             // beyond the bounds
        aggregator.add(sample(start + hour, start + 2 * hour, 0), source: "iPhone")
        #expect(aggregator.statistics.sources == [SourceRecordCount(source: "Mi Fit", records: 4),
                                                   SourceRecordCount(source: "iPhone", records: 2)])
        #expect(aggregator.statistics.sources.map(\.records).reduce(0, +)
                == aggregator.statistics.samples - aggregator.statistics.refused)
    }

    @Test func placedSamplesCountSamplesNotDayTotalsDuplicatesOrRefused() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2024, 5, 1, 9)
        aggregator.addDayTotal(date("2024-05-02"), steps: 10, source: "Fit")
        aggregator.addDayTotal(date("2024-05-02"), steps: 10, source: "Fit")                  // duplicate
        #expect(aggregator.statistics.placedSamples == 0)
        aggregator.add(sample(start, start + hour, 100), source: "Phone")
        aggregator.add(sample(start, start + hour, 100), source: "Phone")                    // duplicate
        aggregator.add(sample(start, start + hour, 2_000_000), source: "Phone")              // refused
        #expect(aggregator.statistics.placedSamples == 1)
        #expect(aggregator.statistics.dayTotals == 1)
    }

    /// Past 32 sources the source table looks names up in a dictionary: the counts stay per source.
    @Test func recordsPerSourceHoldWithManySources() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let start = utcMs(2024, 5, 1, 9)
        for round in 0..<3 {
            for index in 0..<100 where index % 3 >= round {
                aggregator.add(sample(start + Int64(round) * hour, start + Int64(round + 1) * hour, 10), source: "app \(index)")
            }
        }
        let counts = aggregator.statistics.sources
        #expect(counts.count == 100)
        for (index, count) in counts.enumerated() {
            #expect(count == SourceRecordCount(source: "app \(index)", records: index % 3 + 1))
        }
    }
}

@Suite struct DuplicateSpillTests {
    /// A reproducible mix: samples, fractional and pre-1970 ones, day totals, wall clocks, with
    /// duplicates far apart from their first copy.
    static func feed(_ aggregator: DayAggregator, count: Int, settling: Bool = false) {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var earlier: [(HealthSample, String)] = []
        for index in 0..<count {
            defer { if settling { aggregator.settle() } }
            if index % 7 == 3, !earlier.isEmpty {
                // A copy of a sample seen long before.
                let (sample, source) = earlier[Int(next() % UInt64(earlier.count))]
                aggregator.add(sample, source: source)
                continue
            }
            if index % 11 == 5 {
                aggregator.addDayTotal(LocalDate(daysSinceEpoch: Int32(19_000 + next() % 30)), steps: Double(next() % 9000),
                                       source: "Fit")
                continue
            }
            let start = utcMs(2024, 1, 1) + Int64(next() % (30 * 86_400)) * 1000 - (index % 13 == 0 ? utcMs(2024, 1, 1) + 86_400_000 : 0)
            let length = Int64(next() % 1800) * 1000
            let value = index % 5 == 0 ? Double(next() % 1000) + 0.5 : Double(next() % 1000)
            let sample = HealthSample(startMs: start, endMs: start + length, offsetSeconds: index % 3 == 0 ? nil : 3600,
                                    value: value, wallClock: index % 17 == 0)
            let source = ["iPhone", "Watch", "Mi Fit"][index % 3]
            aggregator.add(sample, source: source)
            if index % 4 == 0 { earlier.append((sample, source)) }
        }
    }

    @Test(arguments: [ZoneRule.recordedOffset, ZoneRule.named("Europe/Berlin")!])
    func spillingGivesExactlyWhatMemoryGives(_ rule: ZoneRule) throws {
        let inMemory = DayAggregator(rule: rule)
        Self.feed(inMemory, count: 20_000)
        try inMemory.finish()
        let spilling = DayAggregator(rule: rule, inMemoryLimit: 500)
        Self.feed(spilling, count: 20_000)
        try spilling.finish()

        #expect(inMemory.statistics.duplicates > 2_000)
        #expect(spilling.statistics == inMemory.statistics)
        #expect(spilling.dayTotals() == inMemory.dayTotals())
        #expect(spilling.dayTotals().count > 30)
    }

    /// Records are checked in batches (`DayAggregator.batchSize`); each way of reading the
    /// results must first check the records still waiting, whatever their number, and a filter
    /// that begins to spill within a batch must give what checking each record at once gives.
    @Test(arguments: [DayAggregator.defaultInMemoryLimit, 7])
    func everyReadSeesTheRecordsOfAnUnfinishedBatch(_ limit: Int) throws {
        // Without a spill, `finish()` is not needed before reading (and is not called here).
        let spills = limit < DayAggregator.defaultInMemoryLimit
        for count in [1, 5, DayAggregator.batchSize - 1, DayAggregator.batchSize, DayAggregator.batchSize + 1, 45] {
            // The reference settles after every record: checks it at once.
            let reference = DayAggregator(rule: .recordedOffset, inMemoryLimit: limit)
            Self.feed(reference, count: count, settling: true)
            try reference.finish()
            let expected = (reference.statistics, reference.dayTotals(), reference.sourceDayTotals())
            #expect(expected.0.samples == count)

            let statisticsFirst = DayAggregator(rule: .recordedOffset, inMemoryLimit: limit)
            Self.feed(statisticsFirst, count: count)
            if spills { try statisticsFirst.finish() }
            #expect(statisticsFirst.statistics == expected.0, "\(count) records")
            let totalsFirst = DayAggregator(rule: .recordedOffset, inMemoryLimit: limit)
            Self.feed(totalsFirst, count: count)
            if spills { try totalsFirst.finish() }
            #expect(totalsFirst.dayTotals() == expected.1, "\(count) records")
            let sourcesFirst = DayAggregator(rule: .recordedOffset, inMemoryLimit: limit)
            Self.feed(sourcesFirst, count: count)
            if spills { try sourcesFirst.finish() }
            #expect(sourcesFirst.sourceDayTotals().sorted(by: Self.order) == expected.2.sorted(by: Self.order),
                    "\(count) records")
        }
    }

    private static func order(_ lhs: SourceDayTotal, _ rhs: SourceDayTotal) -> Bool {
        (lhs.date, lhs.source) < (rhs.date, rhs.source)
    }

    @Test func finishingTwiceChangesNothing() throws {
        let aggregator = DayAggregator(rule: .recordedOffset, inMemoryLimit: 10)
        Self.feed(aggregator, count: 1_000)
        try aggregator.finish()
        let first = aggregator.dayTotals()
        try aggregator.finish()
        #expect(aggregator.dayTotals() == first)
    }
}
