import Testing
@testable import ExportParsers

@Suite struct FitbitPlanTests {
    @Test func choosesTheStepFilesAndTakeoutsOwnProfile() throws {
        let plan = try #require(FitbitPlan.choose([
            "Takeout/Fitbit/Global Export Data/steps-2022-08-15.json",
            "Takeout/Fitbit/Global Export Data/distance-2022-08-15.json",
            "Takeout/Fitbit/Global Export Data/steps-2022-07-16.json",
            "Takeout/Fitbit/Other/profile-old.csv",
            "Takeout/Fitbit/Your Profile/Profile.csv",
        ]))
        #expect(plan.files == ["Takeout/Fitbit/Global Export Data/steps-2022-07-16.json",
                               "Takeout/Fitbit/Global Export Data/steps-2022-08-15.json"])
        #expect(plan.profile == "Takeout/Fitbit/Your Profile/Profile.csv")
        #expect(FitbitPlan.choose(["Takeout/Fitbit/Your Profile/Profile.csv", "distance-2022-08-15.json"]) == nil)
    }

    @Test func choosesTheFilesOfTheKindsAskedForOnly() throws {
        let names = ["G/steps-2022-08-15.json", "G/heart_rate-2022-08-15.json", "G/distance-2022-08-15.json",
                     "G/calories-2022-08-15.json", "G/sleep-2022-08-15.json"]
        #expect(try #require(FitbitPlan.choose(names, kinds: [.heartRate, .calories])).files
            == ["G/calories-2022-08-15.json", "G/heart_rate-2022-08-15.json"])
        // Recognised by its steps, with nothing of the kinds asked to read.
        #expect(try #require(FitbitPlan.choose(names, kinds: [])).files == [])
        #expect(try #require(FitbitPlan.choose(["heart_rate-2022-08-15.json"], kinds: [.heartRate])).files
            == ["heart_rate-2022-08-15.json"])
        #expect(FitbitPlan.choose(["heart_rate-2022-08-15.json"]) == nil)
    }

    @Test func theAccountZoneIsTheProfilesTimezoneColumn() {
        let real = Array("id,full_name,timezone,locale\n1,\"Doe, Jane\",America/New_York,en_IN\n".utf8)
        #expect(FitbitPlan.accountZone(inProfileHead: real) == "America/New_York")
        #expect(FitbitPlan.accountZone(inProfileHead: Array("timezone\nPST\n".utf8)) == nil)
        #expect(FitbitPlan.accountZone(inProfileHead: Array("locale\nen_US\n".utf8)) == nil)
        #expect(FitbitPlan.accountZone(inProfileHead: Array("timezone\n".utf8)) == nil)
    }
}
