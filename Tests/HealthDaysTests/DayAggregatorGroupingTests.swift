import Testing
@testable import HealthDays
import TestSupport

/// `dayTotals(in:)` groups straight from the sums; it must equal the rule as written in
/// `highestSourcePerDay`, applied to `sourceDayTotals()` cut to the range.
@Suite struct DayAggregatorGroupingTests {
    static func aggregator(seed: UInt64) -> DayAggregator {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let aggregator = DayAggregator(rule: .recordedOffset)
        let names = ["Watch", "iPhone", "Äpp", "app", "Fit", "Zepp", ""]
        for _ in 0..<3000 {
            let day = next(400) - 200   // days before 1970 too
            let start = Int64(day) * 86_400_000 + Int64(next(86_400)) * 1000
            // Whole and fractional counts, some of them zero; equal counts make ties between sources.
            let value = [0, 10, 10, 250, 0.4, 0.5, 1000.5][next(7)] * Double(1 + next(3))
            let sample = HealthSample(startMs: start, endMs: start + Int64(next(4)) * 3_600_000,
                                    offsetSeconds: Int32(next(3) - 1) * 3600, value: value)
            aggregator.add(sample, source: names[next(names.count)])
            if next(50) == 0 {
                aggregator.addDayTotal(LocalDate(daysSinceEpoch: Int32(day)), steps: -Double(next(300)), source: "Fit")
            }
        }
        return aggregator
    }

    static func byTheRule(_ aggregator: DayAggregator, _ range: ClosedRange<LocalDate>?) -> [DayTotal] {
        highestSourcePerDay(aggregator.sourceDayTotals().filter { range?.contains($0.date) ?? true })
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func groupingFromTheSumsFollowsTheRule(seed: UInt64) throws {
        let aggregator = Self.aggregator(seed: seed)
        try aggregator.finish()
        let all = aggregator.dayTotals()
        #expect(all.count > 300)
        #expect(all == Self.byTheRule(aggregator, nil))
        for range in [date("1969-10-01")...date("1970-02-01"), date("1970-03-01")...date("1970-03-01"),
                      date("2030-01-01")...date("2031-01-01")] {
            #expect(aggregator.dayTotals(in: range) == Self.byTheRule(aggregator, range), "\(range)")
        }
    }
}
