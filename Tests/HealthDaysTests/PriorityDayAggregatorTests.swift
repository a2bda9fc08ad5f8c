import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// Health Connect's own total (`--rule hc-priority`), each expected value worked out by hand.
@Suite struct PriorityDayAggregatorTests {
    private let hour: Int64 = 3_600_000
    private let minute: Int64 = 60_000

    private func add(_ aggregator: PriorityDayAggregator, _ source: String, _ start: Int64, _ end: Int64, _ value: Double,
                     offset: Int32? = 0, modified: Int64? = nil) {
        var name = source
        name.withUTF8 { bytes in
            aggregator.add(HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value),
                           lastModifiedMs: modified, sourceUTF8: UnsafeRawBufferPointer(bytes))
        }
    }

    private func totals(_ aggregator: PriorityDayAggregator) throws -> [String] {
        try aggregator.finish()
        return aggregator.dayTotals().pairs
    }

    @Test func aFullOverlapCountsOnlyTheHigherApp() throws {
        let nine = utcMs(2024, 5, 1, 9)
        for (list, expected) in [(["watch", "phone"], 5000), (["phone", "watch"], 6000)] {
            let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: list)
            add(aggregator, "phone", nine, nine + hour, 6000)
            add(aggregator, "watch", nine, nine + hour, 5000)
            #expect(try totals(aggregator) == ["2024-05-01=\(expected)"])
        }
    }

    /// docs/rules.md's example: phone 6,000 over 08:00-11:00, watch 5,000 over 10:00-12:00.
    @Test func aPartialOverlapCountsEachSliceOnceProRata() throws {
        let eight = utcMs(2024, 5, 1, 8)
        // Watch first: 08-10 phone 6000 x 2/3 = 4000; 10-12 watch 5000: 9000.
        let watchFirst = PriorityDayAggregator(rule: .recordedOffset, priority: ["watch", "phone"])
        add(watchFirst, "phone", eight, eight + 3 * hour, 6000)
        add(watchFirst, "watch", eight + 2 * hour, eight + 4 * hour, 5000)
        #expect(try totals(watchFirst) == ["2024-05-01=9000"])
        #expect(watchFirst.dayTotals()[0].sources == [SourceTotal(source: "watch", steps: 5000),
                                                      SourceTotal(source: "phone", steps: 4000)])
        // Phone first: 08-11 phone 6000; 11-12 watch 5000 x 1/2 = 2500: 8500.
        let phoneFirst = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone", "watch"])
        add(phoneFirst, "phone", eight, eight + 3 * hour, 6000)
        add(phoneFirst, "watch", eight + 2 * hour, eight + 4 * hour, 5000)
        #expect(try totals(phoneFirst) == ["2024-05-01=8500"])
        #expect(phoneFirst.dayTotals()[0].source == "phone")
    }

    @Test func anAppAbsentFromTheListCountsNothingAndIsNamed() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["watch"])
        add(aggregator, "watch", nine, nine + hour, 1000)
        // Alone in its hour, and bigger: still nothing.
        add(aggregator, "fit", nine + 2 * hour, nine + 3 * hour, 9000)
        add(aggregator, "fit", nine + 4 * hour, nine + 5 * hour, 1)
        #expect(try totals(aggregator) == ["2024-05-01=1000"])
        #expect(aggregator.unlistedSources == [SourceRecordCount(source: "fit", records: 2)])
    }

    @Test func aZeroLengthRecordCountsWholeOnlyWhereNoHigherRecordIsOpen() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["watch", "phone"])
        add(aggregator, "watch", nine, nine + hour, 1200)
        // Inside the watch's hour: the watch is open and higher, so this counts nothing.
        add(aggregator, "phone", nine + 30 * minute, nine + 30 * minute, 500)
        // Alone: whole.
        add(aggregator, "phone", nine + 4 * hour, nine + 4 * hour, 70)
        // Higher than the phone record around it: whole, and the phone's slices are all still counted.
        add(aggregator, "phone", nine + 6 * hour, nine + 7 * hour, 600)
        add(aggregator, "watch", nine + 6 * hour + 10 * minute, nine + 6 * hour + 10 * minute, 300)
        // Two at the same instant: only the higher one.
        add(aggregator, "phone", nine + 9 * hour, nine + 9 * hour, 40)
        add(aggregator, "watch", nine + 9 * hour, nine + 9 * hour, 45)
        // 1200 + 70 + 600 + 300 + 45
        #expect(try totals(aggregator) == ["2024-05-01=2215"])
        #expect(aggregator.statistics.zeroLength == 5)
    }

    @Test func withinOneAppTheLaterModifiedRecordWins() throws {
        let nine = utcMs(2024, 5, 1, 9)
        // A 09:00-10:00 600, B 09:30-10:30 900. B later: 09:00-09:30 A 300, then B 450 + 450 = 1200.
        // A later: A 300 + 300, then 10:00-10:30 B 450 = 1050.
        for (modifiedA, modifiedB, expected) in [(1, 2, 1200), (2, 1, 1050)] as [(Int64, Int64, Int)] {
            let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"])
            add(aggregator, "phone", nine, nine + hour, 600, modified: modifiedA)
            add(aggregator, "phone", nine + 30 * minute, nine + 90 * minute, 900, modified: modifiedB)
            #expect(try totals(aggregator) == ["2024-05-01=\(expected)"])
        }
        // Without last-modified times the later start wins, as in Health Connect's order: 1200.
        let unknown = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"])
        add(unknown, "phone", nine + 30 * minute, nine + 90 * minute, 900)
        add(unknown, "phone", nine, nine + hour, 600)
        #expect(try totals(unknown) == ["2024-05-01=1200"])
    }

    @Test func exactCopiesCountOnce() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"])
        for _ in 0..<17 { add(aggregator, "phone", nine, nine + hour, 3000, modified: 5) }
        #expect(try totals(aggregator) == ["2024-05-01=3000"])
    }

    @Test func aRecordOverMidnightIsSplitAndEachDayIsCutToWholeSteps() throws {
        // 1000 over 22:00-01:00 local (+01:00): 666.67 then 333.33, cut to 666 and 333 (the
        // highest-source rule rounds: 667).
        let start = utcMs(2024, 5, 1, 21)
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"])
        add(aggregator, "phone", start, start + 3 * hour, 1000, offset: 3600)
        #expect(try totals(aggregator) == ["2024-05-01=666", "2024-05-02=333"])
        // Under --tz the zone's midnight splits it: in Asia/Kolkata (+05:30) 21:00Z is 02:30 on the 2nd.
        let zoned = PriorityDayAggregator(rule: .zone(TimeZone(identifier: "Asia/Kolkata")!), priority: ["phone"])
        add(zoned, "phone", start, start + 3 * hour, 1000, offset: 3600)
        #expect(try totals(zoned) == ["2024-05-02=1000"])
    }

    @Test func severalDaysKeepTheirOwnSlices() throws {
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["watch", "phone"])
        for day in 1...3 {
            let nine = utcMs(2024, 5, day, 9)
            add(aggregator, "phone", nine, nine + 2 * hour, Double(1000 * day))
            add(aggregator, "watch", nine + hour, nine + 2 * hour, 100)
        }
        // Each day: the phone's first hour (half its count) and the watch's 100.
        #expect(try totals(aggregator) == ["2024-05-01=600", "2024-05-02=1100", "2024-05-03=1600"])
    }

    @Test func recordsInStartOrderGiveWhatTheWholeSetGives() throws {
        var records: [(String, Int64, Int64, Double, Int64)] = []
        var generator = SystemRandomNumberGenerator()
        let base = utcMs(2024, 1, 1)
        var start = base
        for index in 0..<20_000 {
            start += Int64.random(in: 0...(20 * minute), using: &generator)
            let length = index % 50 == 0 ? 0 : Int64.random(in: 1...(3 * hour), using: &generator)
            let app = ["phone", "watch", "ring", "fit"][Int.random(in: 0..<4, using: &generator)]
            records.append((app, start, start + length, Double(Int.random(in: 0...900, using: &generator)),
                            Int64.random(in: 0...3, using: &generator)))
        }
        let inOrder = PriorityDayAggregator(rule: .recordedOffset, priority: ["ring", "watch", "phone"])
        inOrder.recordsComeInStartOrder()
        for record in records { add(inOrder, record.0, record.1, record.2, record.3, offset: 7200, modified: record.4) }
        let heldWhole = PriorityDayAggregator(rule: .recordedOffset, priority: ["ring", "watch", "phone"])
        for record in records.reversed() { add(heldWhole, record.0, record.1, record.2, record.3, offset: 7200, modified: record.4) }
        #expect(try totals(inOrder) == (try totals(heldWhole)))
    }

    /// A dump in no known order beyond the records held in memory is sorted in runs through a
    /// temporary file and merged back: the same sums, to the last bit, as holding it whole.
    @Test(arguments: [1, 7, 4_999]) func runsThroughATemporaryFileGiveWhatTheWholeSetGives(limit: Int) throws {
        var records: [(String, Int64, Int64, Double, Int64)] = []
        var generator = SystemRandomNumberGenerator()
        var start = utcMs(2024, 1, 1)
        for index in 0..<15_000 {
            start += Int64.random(in: 0...(20 * minute), using: &generator)
            let length = index % 40 == 0 ? 0 : Int64.random(in: 1...(5 * hour), using: &generator)
            let app = ["phone", "watch", "ring", "fit"][Int.random(in: 0..<4, using: &generator)]
            records.append((app, start, start + length, Double(Int.random(in: 0...900, using: &generator)),
                            Int64.random(in: 0...3, using: &generator)))
        }
        records.shuffle(using: &generator)
        let whole = PriorityDayAggregator(rule: .recordedOffset, priority: ["ring", "watch", "phone"], inMemoryLimit: .max)
        let spilled = PriorityDayAggregator(rule: .recordedOffset, priority: ["ring", "watch", "phone"], inMemoryLimit: limit)
        for record in records {
            add(whole, record.0, record.1, record.2, record.3, offset: 3600, modified: record.4)
            add(spilled, record.0, record.1, record.2, record.3, offset: 3600, modified: record.4)
        }
        // Fit is absent from the list: its records are never held. The rest is written in runs
        // of `limit`, and what is left at the end as one more.
        let held = records.count { $0.0 != "fit" }
        #expect(spilled.writtenRuns == held / limit)
        #expect(whole.writtenRuns == 0)
        #expect(try totals(spilled) == (try totals(whole)))
        #expect(spilled.writtenRuns == (held + limit - 1) / limit)
        #expect(spilled.unroundedDays().map { "\($0.date)=\($0.sum)" } == whole.unroundedDays().map { "\($0.date)=\($0.sum)" })
        let shares = { (aggregator: PriorityDayAggregator) in
            aggregator.sourceShares().map { "\($0.date) \($0.source) \($0.sum)" }.sorted()
        }
        #expect(shares(spilled) == shares(whole))
        #expect(spilled.dayTotals().count > 100)
    }

    /// More records overlapping one another than can be held is an error, in start order (a
    /// database) and in the merge of a dump's runs; as many as that, apart, are not.
    @Test func tooManyRecordsOverlappingOneAnotherAreAnError() throws {
        let nine = utcMs(2024, 5, 1, 9)
        for inMemoryLimit in [3, 1_000] {
            for ordered in [true, false] where !(ordered && inMemoryLimit == 3) {
                let overlapping = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"],
                                                        inMemoryLimit: inMemoryLimit, overlapLimit: 10)
                if ordered { overlapping.recordsComeInStartOrder() }
                // One record over the whole day, and ten inside it.
                add(overlapping, "phone", nine, nine + 10 * hour, 100)
                for index in 0..<Int64(10) { add(overlapping, "phone", nine + index * hour, nine + index * hour + minute, 1) }
                if ordered || inMemoryLimit == 3 {
                    #expect(throws: ExportError.priorityRecordsBeyondLimit(limit: 10)) { try overlapping.finish() }
                } else {
                    // Held whole, in memory: no limit on overlaps (the dump fitted in memory). The
                    // short records that start later win their minutes; the first starts with the long
                    // one and ends sooner, so it loses: 100 x 591/600 + 9 = 107.5, cut to 107.
                    #expect(try totals(overlapping) == ["2024-05-01=107"])
                }
            }
            let apart = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"], inMemoryLimit: inMemoryLimit, overlapLimit: 10)
            for index in 0..<Int64(30) { add(apart, "phone", nine + index * hour, nine + index * hour + minute, 1) }
            #expect(try totals(apart) == ["2024-05-01=15", "2024-05-02=15"])
        }
    }

    @Test func noListIsAnErrorThatSaysWhetherTheInputCouldHoldOne() {
        let dump = PriorityDayAggregator(rule: .recordedOffset)
        #expect(throws: ExportError.noPriorityList(inputHasPlace: false)) { try dump.finish() }
        let database = PriorityDayAggregator(rule: .recordedOffset)
        database.storedPriority(nil)
        #expect(throws: ExportError.noPriorityList(inputHasPlace: true)) { try database.finish() }
        #expect(ExportError.noPriorityList(inputHasPlace: true).remedy == .givePriorityList)
    }

    @Test func aGivenListWinsOverTheStoredOne() throws {
        let nine = utcMs(2024, 5, 1, 9)
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone", "watch"])
        aggregator.storedPriority(["watch", "phone"])
        add(aggregator, "phone", nine, nine + hour, 6000)
        add(aggregator, "watch", nine, nine + hour, 5000)
        #expect(try totals(aggregator) == ["2024-05-01=6000"])
        #expect(aggregator.priority == ["phone", "watch"])
        #expect(aggregator.storedPriority == ["watch", "phone"])
    }

    @Test func dayTotalsHaveNoTimesAndAreLeftOut() throws {
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["phone"])
        aggregator.addDayTotal(LocalDate("2024-05-01")!, steps: 5000, source: "phone")
        #expect(try totals(aggregator) == [])
        #expect(aggregator.statistics.dayTotals == 1)
    }
}
