import Foundation
import Testing
@testable import HealthDays

@Suite struct ZoneRuleTests {
    @Test(arguments: ["Europe/Berlin", "UTC", "CET", "US/Eastern", "Etc/GMT+5", "America/Argentina/Buenos_Aires"])
    func namesOfTheZoneDatabaseAreZones(_ name: String) {
        guard case .zone(let zone)? = ZoneRule.named(name) else {
            Issue.record("\(name) was refused")
            return
        }
        #expect(zone.identifier == name || (name == "UTC" && zone.secondsFromGMT() == 0))
    }

    @Test(arguments: [("+05:30", 19_800), ("-0300", -10_800), ("+09", 32_400), ("+00:00", 0)])
    func fixedOffsetsAreZonesWithoutDaylightSaving(_ text: String, _ seconds: Int) {
        guard case .zone(let zone)? = ZoneRule.named(text) else {
            Issue.record("\(text) was refused")
            return
        }
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_720_000_000)) == seconds, "summer")
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_700_000_000)) == seconds, "winter")
    }

    @Test(arguments: ["PST", "europe/berlin", "Europe/Berln", "Mars/Olympus", "", "../../etc/passwd", "/etc/localtime",
                      "Europe/../Europe/Berlin", "+25:00", "+5:3", "zone.tab"])
    func anythingElseIsRefused(_ text: String) {
        #expect(ZoneRule.named(text) == nil, "\(text)")
    }

    @Test func whatWasMeantIsSuggested() {
        #expect(ZoneRule.suggestion(for: "europe/berlin") == "Europe/Berlin")
        #expect(ZoneRule.suggestion(for: "Europe/Berln") == "Europe/Berlin")
        #expect(ZoneRule.suggestion(for: "PST") == "America/Los_Angeles")
        #expect(ZoneRule.suggestion(for: "Mars/Olympus") == nil)
    }
}
