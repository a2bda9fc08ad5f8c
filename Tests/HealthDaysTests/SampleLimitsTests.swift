import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// The bounds readers check (`SampleLimits.problem`) and the looser ones the aggregator keeps itself.
@Suite struct SampleLimitsTests {
    private let minute: Int64 = 60_000
    private let day: Int64 = 86_400_000

    private func sample(_ start: Int64, _ end: Int64, _ value: Double, offset: Int32? = 0) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value)
    }

    @Test func ordinarySamplesAndTheEdgesOfEachBoundPass() {
        let noon = utcMs(2024, 3, 1, 12)
        #expect(SampleLimits.problem(in: sample(noon, noon + minute, 120)) == nil)
        #expect(SampleLimits.problem(in: sample(noon, noon + 31 * day, 1_000_000)) == nil)
        #expect(SampleLimits.problem(in: sample(0, 0, 0)) == nil)
        #expect(SampleLimits.problem(in: sample(utcMs(2200, 12, 31, 23, 59), utcMs(2200, 12, 31, 23, 59), 1)) == nil)
        #expect(SampleLimits.problem(in: sample(noon, noon, 1, offset: 64_800)) == nil)
        #expect(SampleLimits.problem(in: sample(noon, noon, 1, offset: -64_800)) == nil)
        #expect(SampleLimits.problem(in: sample(noon, noon, -5), negativeAllowed: true) == nil)
        #expect(SampleLimits.problem(inDayTotal: date("2200-12-31"), steps: 1_000_000) == nil)
        #expect(SampleLimits.problem(inDayTotal: date("1970-01-01"), steps: 0) == nil)
    }

    @Test(arguments: [1e19, 1e308, 999_999_999_999_999_999, 1_000_001, .infinity, -.infinity, -1e19])
    func countsBeyondAMillionAreTooMany(_ value: Double) {
        let noon = utcMs(2024, 3, 1, 12)
        #expect(SampleLimits.problem(in: sample(noon, noon, value), negativeAllowed: true) == .tooManySteps)
        #expect(SampleLimits.problem(inDayTotal: date("2024-03-01"), steps: value) == .tooManySteps)
    }

    @Test func negativeAndNaNCounts() {
        let noon = utcMs(2024, 3, 1, 12)
        #expect(SampleLimits.problem(in: sample(noon, noon, -1)) == .negativeSteps)
        #expect(SampleLimits.problem(in: sample(noon, noon, .nan), negativeAllowed: true) == .stepsNotANumber)
        #expect(SampleLimits.problem(inDayTotal: date("2024-03-01"), steps: -1) == .negativeSteps)
    }

    @Test func timesOutsideTheYears1970To2200() {
        #expect(SampleLimits.problem(in: sample(-1, 0, 1)) == .startOutOfRange)
        #expect(SampleLimits.problem(in: sample(.min, .max, 1)) == .startOutOfRange)
        #expect(SampleLimits.problem(in: sample(0, .max, 1)) == .endOutOfRange)
        #expect(SampleLimits.problem(in: sample(utcMs(2201, 1, 1), utcMs(2201, 1, 1), 1)) == .startOutOfRange)
        #expect(SampleLimits.problem(in: sample(utcMs(2200, 12, 31), utcMs(2201, 1, 1), 1)) == .endOutOfRange)
        #expect(SampleLimits.problem(inDayTotal: date("1969-12-31"), steps: 1) == .dateOutOfRange)
        #expect(SampleLimits.problem(inDayTotal: date("2201-01-01"), steps: 1) == .dateOutOfRange)
        #expect(SampleLimits.latestDay == date("2200-12-31"))
        #expect(SampleLimits.endMs == utcMs(2201, 1, 1))
    }

    @Test func spansBeyond31DaysAndOffsetsBeyond18Hours() {
        let noon = utcMs(2024, 3, 1, 12)
        #expect(SampleLimits.problem(in: sample(noon, noon + 31 * day + 1, 1)) == .spanTooLong)
        #expect(SampleLimits.problem(in: sample(0, utcMs(2200, 1, 1), 1)) == .spanTooLong)
        #expect(SampleLimits.problem(in: sample(noon, noon, 1, offset: 64_801)) == .offsetOutOfRange)
        #expect(SampleLimits.problem(in: sample(noon, noon, 1, offset: .min)) == .offsetOutOfRange)
        #expect(SampleLimits.problem(in: sample(noon, noon, 1, offset: .max)) == .offsetOutOfRange)
    }

    @Test func aDateBeyondInt32DaysIsNoDate() {
        #expect(LocalDate(year: 9_999_999_999, month: 1, day: 1) == nil)
        #expect(LocalDate(year: -9_999_999_999, month: 1, day: 1) == nil)
        #expect(LocalDate(year: Int.max, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 9999, month: 12, day: 31)?.description == "9999-12-31")
    }
}

/// The aggregator is a library: whatever a caller hands it, it neither traps nor runs away.
@Suite struct DayAggregatorLimitsTests {
    private let hour: Int64 = 3_600_000

    private func sample(_ start: Int64, _ end: Int64, _ value: Double, offset: Int32? = 0) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value)
    }

    /// The counts that trapped in `Int(_:)` ("Double value cannot be converted to Int").
    @Test(arguments: [1e19, 1e308, 999_999_999_999_999_999, .infinity, .nan])
    func anAbsurdCountIsRefusedNotATrap(_ value: Double) throws {
        for rule in [ZoneRule.recordedOffset, .zone(try #require(TimeZone(identifier: "Europe/Berlin")))] {
            let aggregator = DayAggregator(rule: rule)
            let noon = utcMs(2024, 3, 1, 12)
            aggregator.add(sample(noon, noon + hour, value), source: "Broken")
            aggregator.add(sample(noon, noon + hour, 500), source: "Phone")
            aggregator.addDayTotal(date("2024-03-01"), steps: value, sourceUTF8: UnsafeRawBufferPointer(start: nil, count: 0))
            #expect(aggregator.dayTotals().pairs == ["2024-03-01=500"])
            #expect(aggregator.sourceDayTotals().count == 1)
            #expect(aggregator.statistics.refused == 2)
            #expect(aggregator.statistics.samples == 3)
        }
    }

    /// Ten records of 999999999999999999 steps on one day overflowed the sum.
    @Test func tenHugeRecordsOnOneDayAreRefusedAndTheSumCannotTrap() {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let noon = utcMs(2024, 3, 1, 12)
        for index in 0..<10 {
            aggregator.add(sample(noon + Int64(index) * hour, noon + Int64(index) * hour, 999_999_999_999_999_999), source: "Broken")
        }
        #expect(aggregator.dayTotals().isEmpty)
        #expect(aggregator.statistics.refused == 10)
        // And the one conversion saturates, whatever sum reaches it.
        #expect(DayAggregator.rounded(9_999_999_999_999_999_990) == Int.max)
        #expect(DayAggregator.rounded(-1e300) == Int.min)
        #expect(DayAggregator.rounded(.infinity) == Int.max)
        #expect(DayAggregator.rounded(.nan) == 0)
        #expect(DayAggregator.rounded(2.5) == 3)
        #expect(DayAggregator.rounded(-2.5) == -3)
    }

    /// Times at the integer limits overflowed the shift by the offset and the day arithmetic;
    /// a span of thousands of years made a bucket for every day of it.
    @Test(arguments: [(Int64.min, Int64.max), (Int64.min, Int64.min), (Int64.max, Int64.max), (0, Int64.max),
                      (-62_167_219_200_001, 0), (0, 253_402_300_800_000), (0, 32 * 86_400_000),
                      (-62_167_219_200_000, 253_402_300_799_999)] as [(Int64, Int64)])
    func extremeTimesAndSpansAreRefused(_ start: Int64, _ end: Int64) throws {
        for rule in [ZoneRule.recordedOffset, .zone(try #require(TimeZone(identifier: "America/New_York")))] {
            let aggregator = DayAggregator(rule: rule)
            aggregator.add(sample(start, end, 10, offset: 64_800), source: "Broken")
            aggregator.add(HealthSample(startMs: start, endMs: end, offsetSeconds: nil, value: 10, wallClock: true), source: "Broken")
            #expect(aggregator.dayTotals().isEmpty)
            #expect(aggregator.statistics.refused == 2)
        }
    }

    @Test(arguments: [Int32.min, Int32.max, 64_801, -64_801])
    func offsetsAtTheIntegerLimitsAreRefused(_ offset: Int32) {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let noon = utcMs(2024, 3, 1, 12)
        aggregator.add(sample(noon, noon + hour, 10, offset: offset), source: "Broken")
        #expect(aggregator.dayTotals().isEmpty)
        #expect(aggregator.statistics.refused == 1)
    }

    /// The aggregator's own window is years 0000-9999 (wider than a reader's), so its edges still bucket.
    @Test func theEdgesOfTheAggregatorsWindowStillBucket() throws {
        for rule in [ZoneRule.recordedOffset, .zone(try #require(TimeZone(identifier: "Asia/Tokyo")))] {
            let aggregator = DayAggregator(rule: rule)
            let first = utcMs(0, 1, 1, 12)
            let last = utcMs(9999, 12, 31, 12)
            aggregator.add(sample(first, first + hour, 10), source: "Old")
            aggregator.add(sample(last, last + hour, 20), source: "New")
            aggregator.add(sample(last - 31 * 86_400_000, last, 31_000), source: "Long")
            #expect(aggregator.statistics.refused == 0)
            #expect(aggregator.dayTotals().count == 33, "\(rule): \(aggregator.dayTotals().pairs.prefix(3))")
        }
    }
}
