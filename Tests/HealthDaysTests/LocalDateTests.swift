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

    @Test func theNextDayEndsAtTheLastDayALocalDateHolds() {
        #expect(LocalDate(daysSinceEpoch: 0).next == LocalDate(daysSinceEpoch: 1))
        #expect(LocalDate(daysSinceEpoch: -1).next == LocalDate(daysSinceEpoch: 0))
        #expect(LocalDate(daysSinceEpoch: .max).next == nil, "no day after it, and no trap")
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

    // MARK: - The one YYYY-MM-DD parser, from bytes

    private func fromBytes(_ text: String) -> LocalDate? {
        Array(text.utf8).withUnsafeBytes { LocalDate($0) }
    }

    @Test func everyDayParsesBackFromItsOwnText() {
        // 1600..2400: four-century leap rules on both sides of 2000, and years before 1970.
        let first = LocalDate(year: 1600, month: 1, day: 1)!.daysSinceEpoch
        let last = LocalDate(year: 2400, month: 12, day: 31)!.daysSinceEpoch
        for days in first...last {
            let date = LocalDate(daysSinceEpoch: days)
            let text = date.description
            if fromBytes(text) != date || LocalDate(text) != date {
                Issue.record("\(text) does not parse back to \(days)")
                return
            }
        }
    }

    @Test(arguments: [
        ("0000-01-01", -719_528), ("0000-02-29", -719_469), ("9999-12-31", 2_932_896),
        ("1970-01-01", 0), ("1969-12-31", -1), ("2000-02-29", 11_016), ("2024-02-29", 19_782),
        ("2024-12-31", 20_088), ("2024-04-30", 19_843),
    ] as [(String, Int32)])
    func readsTheBoundsOfEveryField(_ text: String, _ days: Int32) {
        #expect(fromBytes(text)?.daysSinceEpoch == days)
        #expect(LocalDate(text)?.daysSinceEpoch == days)
    }

    @Test(arguments: [
        // Days that do not exist.
        "2024-02-30", "2023-02-29", "1900-02-29", "2100-02-29", "2024-04-31", "2024-06-31", "2024-09-31",
        "2024-11-31", "2024-01-32", "2024-01-00", "2024-00-01", "2024-13-01", "2024-99-99",
        // Other layouts and stray bytes.
        "2024/01/01", "01/02/2024", "01/02/24", "2024.01.01", "2024_01_01", "20240101", "2024-1-01", "2024-01-1",
        "24-01-01", "+2024-01-01", "-2024-01-01", "12024-01-01", " 2024-01-01", "2024-01-01 ", "2024-01-01Z",
        "2024-01-01T00:00:00Z", "2024-0a-01", "2024-01-0x", "abcd-ef-gh", "2024--1-01", "2024-01--1",
        "2024\u{2212}01\u{2212}01", "\u{0662}\u{0660}\u{0662}\u{0664}-01-01", "2024-01-01\u{0}", "",
    ])
    func refusesEverythingElse(_ text: String) {
        #expect(fromBytes(text) == nil)
        #expect(LocalDate(text) == nil)
    }

    @Test func readsASliceSuchAsTheDateOfATimestamp() {
        let bytes = Array("2024-02-29T23:59:59+14:00 and 2023-02-29".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(LocalDate(buffer[0..<10])?.description == "2024-02-29")
            #expect(LocalDate(buffer[buffer.count - 10..<buffer.count]) == nil)
            #expect(LocalDate(buffer[0..<11]) == nil)
            #expect(LocalDate(buffer) == nil)
        }
    }
}
