import Testing
@testable import HealthDays
import TestSupport

@Suite struct LocalDateTests {
    @Test func epochAndKnownDays() {
        #expect(LocalDate(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1)?.daysSinceEpoch == 11_017)
        #expect(LocalDate(year: 1969, month: 12, day: 31)?.daysSinceEpoch == -1)
        #expect(LocalDate(daysSinceEpoch: 19_723).description == "2024-01-01")
    }

    @Test func roundTripsEveryDayOverFourCenturies() {
        // 1900..2300 covers both century rules (1900 and 2100 are not leap years, 2000 is).
        var days = LocalDate(year: 1900, month: 1, day: 1)!.daysSinceEpoch
        for year in 1900...2300 {
            for month in 1...12 {
                for day in 1...LocalDate.daysIn(month: month, year: year) {
                    let date = LocalDate(year: year, month: month, day: day)!
                    #expect(date.daysSinceEpoch == days)
                    let back = date.components
                    if back.year != year || back.month != month || back.day != day {
                        Issue.record("\(year)-\(month)-\(day) came back as \(back)")
                        return
                    }
                    days += 1
                }
            }
        }
    }

    @Test(arguments: ["2024-02-29", "1999-12-31", "2026-10-06"])
    func parsesAndPrints(_ text: String) {
        #expect(LocalDate(text)?.description == text)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-00-10", "2024-1-01", "20240101", "2024-01-01T", "abcd-ef-gh", ""])
    func rejectsImpossibleOrMalformedDates(_ text: String) {
        #expect(LocalDate(text) == nil)
    }
}
