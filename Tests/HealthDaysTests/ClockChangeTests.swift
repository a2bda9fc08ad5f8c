import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// The daylight-saving hint's rule: a fixed offset carried across a change of clocks in a zone
/// at that offset, and the zones given by a name that is no place.
@Suite struct ClockChangeTests {
    @Test func anOffsetCarriedAcrossSpringForwardNamesTheDate() {
        // samples/export.zip: +01:00 from 2024-03-15 to 2024-04-28; Europe leaves +01:00 on 2024-03-31.
        let change = ClockChange.first(atOffset: 3600, from: date("2024-03-15"), to: date("2024-04-28"))
        #expect(change?.date == date("2024-03-31"))
        #expect(change?.zone.hasPrefix("Europe/") == true, "the best-known region first: \(String(describing: change))")
        // Autumn: zones take +01:00 up again on 2023-10-29.
        #expect(ClockChange.first(atOffset: 3600, from: date("2023-10-01"), to: date("2023-11-15"))?.date == date("2023-10-29"))
    }

    @Test func samplesOnOneSideOfEveryChangeGetNoHint() {
        #expect(ClockChange.first(atOffset: 3600, from: date("2024-05-01"), to: date("2024-06-30")) == nil)
        #expect(ClockChange.first(atOffset: 3600, from: date("2024-03-31"), to: date("2024-03-30")) == nil, "an empty span")
        // India keeps +05:30 all year; so does every zone at +05:30.
        #expect(ClockChange.first(atOffset: 19_800, from: date("2015-01-01"), to: date("2020-12-31")) == nil)
    }

    @Test func theLastDayCountsUpToItsEnd() {
        // The change at 01:00 UTC on 2024-03-31 lies inside a span ending that day.
        #expect(ClockChange.first(atOffset: 3600, from: date("2024-03-20"), to: date("2024-03-31"))?.date == date("2024-03-31"))
        #expect(ClockChange.first(atOffset: 3600, from: date("2024-03-20"), to: date("2024-03-30")) == nil)
    }

    @Test func namesThatAreNoPlaceAreExplained() throws {
        let july = try #require(DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                               year: 2026, month: 7, day: 1).date)
        let estZone = try #require(TimeZone(identifier: "EST"))
        let est = try #require(ZoneCaution(estZone, now: july))
        #expect(est.winterOffset == -18_000 && est.summerOffset == -18_000)
        #expect(est.description.contains("UTC-05:00 all year") && est.description.contains("America/New_York"))
        let cetZone = try #require(TimeZone(identifier: "CET"))
        let cet = try #require(ZoneCaution(cetZone, now: july))
        #expect(cet.winterOffset == 3600 && cet.summerOffset == 7200)
        #expect(cet.description.contains("Europe/Berlin"))
        for place in ["Europe/Berlin", "America/New_York", "UTC"] {
            let zone = try #require(TimeZone(identifier: place))
            #expect(ZoneCaution(zone) == nil)
        }
    }
}
