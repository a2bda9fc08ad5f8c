import Testing
@testable import HealthDays
import TestSupport

/// `DayTotal(highestSourceOn:among:)`, the one copy of the day rule that `highestSourcePerDay`
/// and `DayAggregator.dayTotals(in:)` both apply.
@Suite struct DayTotalRuleTests {
    private let day = date("2026-10-06")

    private func rule(_ totals: [(String, Int)]) -> DayTotal? {
        DayTotal(highestSourceOn: day, among: totals.map { SourceTotal(source: $0.0, steps: $0.1) })
    }

    @Test func theHighestSourceWinsAndTheOthersFollowByStepsThenName() throws {
        let total = try #require(rule([("iPhone", 8_000), ("Watch", 8_421), ("Fit", 120), ("Äpp", 8_000)]))
        #expect(total.date == day)
        #expect(total.steps == 8_421)
        #expect(total.source == "Watch")
        #expect(total.sources.map(\.source) == ["Watch", "iPhone", "Äpp", "Fit"])
    }

    @Test func tiesGoToTheNameFirstInUTF8ByteOrder() throws {
        // "Z" (0x5A) < "a" (0x61) < "Ä" (0xC3 0x84) < "😀"; a prefix sorts first.
        let total = try #require(rule([("😀", 50), ("Äpp", 50), ("app", 50), ("Zepp", 50), ("ap", 50), ("", 50)]))
        #expect(total.sources.map(\.source) == ["", "Zepp", "ap", "app", "Äpp", "😀"])
        #expect(total.source == "")
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let names = ["b", "a", "c"]
            #expect(rule(order.map { (names[$0], 7) })?.source == "a")
        }
    }

    @Test func sourcesWithZeroStepsAreLeftOut() throws {
        let total = try #require(rule([("Watch", 0), ("iPhone", 12), ("Fit", -3)]))
        #expect(total.sources == [SourceTotal(source: "iPhone", steps: 12), SourceTotal(source: "Fit", steps: -3)])
    }

    @Test(arguments: [[], [("Watch", 0)], [("Fit", -3)], [("Fit", -3), ("Watch", 0)], [("a", -1), ("b", -1)]] as [[(String, Int)]])
    func aDayWithoutPositiveStepsIsDropped(_ totals: [(String, Int)]) {
        #expect(rule(totals) == nil)
    }

    @Test func highestSourcePerDayAppliesTheRulePerDaySortedByDate() {
        let entries = [
            SourceDayTotal(date: date("2026-10-07"), source: "iPhone", steps: 3_110),
            SourceDayTotal(date: date("2026-10-06"), source: "Watch", steps: 8_421),
            SourceDayTotal(date: date("2026-10-06"), source: "iPhone", steps: 8_000),
            SourceDayTotal(date: date("2026-10-08"), source: "iPhone", steps: 0),
            SourceDayTotal(date: date("2026-10-09"), source: "Fit", steps: -5),
        ]
        let days = highestSourcePerDay(entries)
        #expect(days.map(\.date.description) == ["2026-10-06", "2026-10-07"])
        #expect(days.map(\.steps) == [8_421, 3_110])
        #expect(days[0].sources.count == 2)
    }
}
