import Testing
@testable import ExportParsers

@Suite struct TakeoutPlanTests {
    static let streams = ["derived_com.google.step_count.delta_com.google.android.gms_estimated_steps.json",
                          "derived_com.google.step_count.delta_com.google.android.gms_merge_step_deltas.json",
                          "raw_com.google.step_count.cumulative_com.example.json"]

    @Test func aTakeoutFolderItsAllDataFolderAndThatFolderGivenItselfGiveTheSamePlan() throws {
        let fromTakeout = try #require(TakeoutPlan.choose(Self.streams.map { "Fit/All Data/" + $0 }))
        #expect(fromTakeout.tier == .rawStreams)
        #expect(fromTakeout.files.count == 2, "both derived step streams; which is read is decided by its Data Source")
        let given = try #require(TakeoutPlan.choose(Self.streams, inFolderNamed: "All Data"))
        #expect(given.tier == .rawStreams)
        #expect(given.files == Array(Self.streams.prefix(2)).sorted())
        // Files of no Takeout folder are no plan.
        #expect(TakeoutPlan.choose(Self.streams) == nil)
        #expect(TakeoutPlan.choose(Self.streams, inFolderNamed: "Downloads") == nil)
    }

    @Test func theDailyActivityMetricsFolderGivenItself() throws {
        let plan = try #require(TakeoutPlan.choose(["Daily activity metrics.csv", "2025-02-02.csv"],
                                                   inFolderNamed: "Daily activity metrics"))
        #expect(plan.tier == .dailySummary)
        #expect(plan.files == ["Daily activity metrics.csv"])
        #expect(plan.ignored == ["2025-02-02.csv"])
    }
}
