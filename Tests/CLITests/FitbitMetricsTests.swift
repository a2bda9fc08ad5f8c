import Foundation
import Testing
import TestSupport

/// `stepimport hc <Fitbit Takeout> --metric ...` reads Fitbit's distance (cm), calories (total
/// energy) and heart rate files beside its steps: a hand-built Takeout folder of two days, its day
/// values worked out by hand below.
@Suite struct FitbitMetricsTests {
    /// Builds `Takeout/Fitbit/Global Export Data` in the scratch folder, then runs `command`.
    static func run(_ command: String, heartRate: String = heartRateRows) throws -> CommandRunner.Result {
        try CommandRunner.run("""
            folder='Takeout/Fitbit/Global Export Data'
            mkdir -p "$folder"
            printf '%s' '[{"dateTime":"03/01/24 12:00:00","value":"100"},{"dateTime":"03/02/24 08:00:00","value":"50"}]' > "$folder/steps-2024-03-01.json"
            printf '%s' '[{"dateTime":"03/01/24 12:00:00","value":"7550"},{"dateTime":"03/01/24 12:01:00","value":"7575"},{"dateTime":"03/02/24 08:00:00","value":"3350"}]' > "$folder/distance-2024-03-01.json"
            printf '%s' '[{"dateTime":"03/01/24 00:00:00","value":"1.25"},{"dateTime":"03/01/24 00:01:00","value":"1.25"},{"dateTime":"03/01/24 23:59:00","value":"1000"},{"dateTime":"03/02/24 00:00:00","value":"0.99"},{"dateTime":"03/02/24 00:01:00","value":"1.01"}]' > "$folder/calories-2024-03-01.json"
            printf '%s' '\(heartRate)' > "$folder/heart_rate-2024-03-01.json"
            \(command)
            """)
    }

    static let heartRateRows = """
        [{"dateTime":"03/01/24 09:00:00","value":{"bpm":60,"confidence":0}},\
        {"dateTime":"03/01/24 09:00:10","value":{"bpm":70,"confidence":3}},\
        {"dateTime":"03/01/24 23:59:55","value":{"bpm":81,"confidence":2}},\
        {"dateTime":"03/01/24 10:00:00","value":{"bpm":20,"confidence":1}},\
        {"dateTime":"03/02/24 07:00:00","value":{"bpm":100,"confidence":3}}]
        """

    @Test func theDaysComeOutAsWorkedOutByHand() throws {
        let result = try Self.run("\"$STEPIMPORT\" hc Takeout --metric steps,distance,total-energy,heart-rate --format csv")
        try #require(result.status == 0, "\(result.stderr)")
        // 03/01: distance 7550 + 7575 cm = 151.25 m → 151; calories 1.25 + 1.25 + 1000 = 1002.5 → 1003;
        // heart rate 60, 70 and 81 (20 is below 25: left out; confidence 0 kept): mean 70.33 → 70.3.
        // 03/02: 3350 cm = 33.5 m → 34 (half away from zero); 0.99 + 1.01 = 2 kcal; one reading of 100.
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            date,steps,distance_m,total_kcal,hr_avg,hr_min,hr_max
            2024-03-01,100,151,1003,70.3,60,81
            2024-03-02,50,34,2,100.0,100,100

            """)
        #expect(result.stderr.contains("outside 25-250 bpm left out"), "\(result.stderr)")
        #expect(result.stderr.contains("Fitbit: 10 minutes from 3 files"), "\(result.stderr)")
        #expect(result.stderr.contains("Fitbit: 5 heart-rate readings from 1 file"), "\(result.stderr)")
    }

    @Test func filesOfMetricsNotAskedForAreNotOpened() throws {
        // A heart-rate file that cannot be read: steps alone and distance never look at it.
        let broken = #"[{"dateTime":"03/01/24 09:00:00","value":"sixty"}]"#
        let steps = try Self.run("\"$STEPIMPORT\" hc Takeout --format csv", heartRate: broken)
        #expect(steps.status == 0, "\(steps.stderr)")
        #expect(String(decoding: steps.stdout, as: UTF8.self) == "date,steps,source\n2024-03-01,100,Fitbit\n2024-03-02,50,Fitbit\n")
        // Not even opened: the summary names no file but the steps.
        #expect(!steps.stderr.contains("heart_rate") && !steps.stderr.contains("calories") && steps.stderr.contains("read Takeout/Fitbit/Global Export Data/steps-2024-03-01.json ("),
                "\(steps.stderr)")
        let distance = try Self.run("\"$STEPIMPORT\" hc Takeout --metric distance --format csv", heartRate: broken)
        #expect(distance.status == 0, "\(distance.stderr)")
        let heart = try Self.run("\"$STEPIMPORT\" hc Takeout --metric heart-rate --format csv", heartRate: broken)
        #expect(heart.status == 65)
        #expect(heart.stderr.contains(#"heart_rate-2024-03-01.json:1:2"#) && heart.stderr.contains(#"value is a string, not an object {"bpm", "confidence"}"#),
                "\(heart.stderr)")
        let skipped = try Self.run("\"$STEPIMPORT\" hc Takeout --metric heart-rate --skip-invalid --format csv", heartRate: broken)
        #expect(skipped.status == 0, "\(skipped.stderr)")
    }

    @Test func activeEnergyAndSleepAreSaidNotToComeFromFitbit() throws {
        let result = try Self.run("\"$STEPIMPORT\" hc Takeout --metric active-energy,sleep --format csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Fitbit's calories include resting energy: they are total-energy (total_kcal), never active-energy"),
                "\(result.stderr)")
        #expect(result.stderr.contains("--metric active-energy, sleep: Fitbit's files are read for steps, distance, total-energy, heart-rate alone"),
                "\(result.stderr)")
    }
}
