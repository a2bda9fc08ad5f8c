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
            printf '%s' '\(sleepLogs)' > "$folder/sleep-2024-03-01.json"
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

    /// A night from 23:00 on the 1st to 06:00 on the 2nd: light 23:10-00:00, deep 00:00-01:00, REM
    /// 01:00-01:30, light 01:30-06:00 (410 minutes), less short wakes of 1 and 2 minutes: 407
    /// asleep, 420 in bed. A classic nap on the 2nd, 14:00-15:00: asleep 40 + 10 minutes (restless
    /// and awake are not), 60 in bed. Both end on the 2nd.
    static let sleepLogs = """
        [{"dateOfSleep":"2024-03-02","startTime":"2024-03-01T23:00:00.000","endTime":"2024-03-02T06:00:00.000","type":"stages",\
        "levels":{"data":[{"dateTime":"2024-03-01T23:00:00.000","level":"wake","seconds":600},\
        {"dateTime":"2024-03-01T23:10:00.000","level":"light","seconds":3000},\
        {"dateTime":"2024-03-02T00:00:00.000","level":"deep","seconds":3600},\
        {"dateTime":"2024-03-02T01:00:00.000","level":"rem","seconds":1800},\
        {"dateTime":"2024-03-02T01:30:00.000","level":"light","seconds":16200}],\
        "shortData":[{"dateTime":"2024-03-01T23:30:00.000","level":"wake","seconds":60},\
        {"dateTime":"2024-03-02T03:00:00.000","level":"wake","seconds":120}]}},\
        {"dateOfSleep":"2024-03-02","startTime":"2024-03-02T14:00:00.000","endTime":"2024-03-02T15:00:00.000","type":"classic",\
        "levels":{"data":[{"dateTime":"2024-03-02T14:00:00.000","level":"asleep","seconds":2400},\
        {"dateTime":"2024-03-02T14:40:00.000","level":"restless","seconds":300},\
        {"dateTime":"2024-03-02T14:45:00.000","level":"awake","seconds":300},\
        {"dateTime":"2024-03-02T14:50:00.000","level":"asleep","seconds":600}]}}]
        """

    @Test func sleepCountsOnTheDayItEnds() throws {
        let result = try Self.run("\"$STEPIMPORT\" hc Takeout --metric sleep,in-bed --format csv")
        try #require(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "date,sleep_min,in_bed_min\n2024-03-02,457,480\n")
        #expect(result.stderr.contains("Fitbit: 2 sleep logs from 1 file"), "\(result.stderr)")
        // The same days read in a zone: the wall clocks are placed in it and end on the same date.
        let zoned = try Self.run("\"$STEPIMPORT\" hc Takeout --metric sleep,in-bed --format csv --tz America/New_York")
        #expect(zoned.stdout == result.stdout, "\(zoned.stderr)")
    }

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
        #expect(!steps.stderr.contains("heart_rate") && !steps.stderr.contains("calories") && !steps.stderr.contains("sleep") && steps.stderr.contains("read Takeout/Fitbit/Global Export Data/steps-2024-03-01.json ("),
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

    @Test func activeEnergyAndFlightsAreSaidNotToComeFromFitbit() throws {
        let result = try Self.run("\"$STEPIMPORT\" hc Takeout --metric active-energy,flights --format csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Fitbit's calories include resting energy: they are total-energy (total_kcal), never active-energy"),
                "\(result.stderr)")
        #expect(result.stderr.contains("--metric active-energy, flights: Fitbit's files are read for steps, distance, total-energy, "
                + "heart-rate, sleep, in-bed alone"),
                "\(result.stderr)")
    }
}
