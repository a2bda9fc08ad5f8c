import Foundation
import Testing
import TestSupport

/// Takeout's wall clocks and streams, in words that are true.
@Suite(.needsSharedFixtures) struct TakeoutWordsTests {
    @Test func fitbitsMinutesHaveOneTrueSentenceAndTzChangesNothing() throws {
        let result = try CommandRunner.run("""
            mkdir -p "Takeout/Fitbit/Global Export Data" && cp fixtures/fitbit/steps-*.json "Takeout/Fitbit/Global Export Data/"
            "$STEPIMPORT" hc Takeout --format json > plain.json
            "$STEPIMPORT" hc Takeout --format json --tz Asia/Tokyo > tokyo.json 2> /dev/null
            cmp plain.json tokyo.json && echo SAME
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("SAME"))
        #expect(result.stderr.contains("each counts on the date written, whatever --tz says"), "\(result.stderr)")
        #expect(!result.stderr.contains("taken as UTC"), "\(result.stderr)")
    }

    @Test func withoutEstimatedStepsTheMergedStreamIsReadAndSaid() throws {
        let result = try CommandRunner.run("""
            mkdir -p "Takeout/Fit/All Data"
            cp fixtures/hc/takeout-derived-step-delta-merge-step-deltas.json "Takeout/Fit/All Data/derived_com.google.step_count.delta_com.google(2).json"
            cp fixtures/hc/takeout-derived-step-delta-top-level.json "Takeout/Fit/All Data/derived_com.google.step_count.delta_com.google.json"
            "$STEPIMPORT" hc Takeout --format csv
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Takeout: read the merge_step_deltas stream (there is no estimated_steps stream)"), "\(result.stderr)")
        #expect(result.stderr.contains("(Google Fit Takeout merge_step_deltas stream"))
    }

    @Test func anyOtherStreamIsNamedWithWhatToDo() throws {
        let result = try CommandRunner.run("\"$STEPIMPORT\" hc fixtures/hc/takeout-derived-step-delta-top-level.json")
        #expect(result.status == 65)
        #expect(result.stderr.contains(":top_level\"") && result.stderr.contains("Daily activity metrics.csv"), "\(result.stderr)")
    }
}
