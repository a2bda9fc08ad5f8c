import Foundation
import Testing
import TestSupport

/// Issue 33's acceptance check: `stepimport hc` on the real Samsung Health export in
/// ../shared/fixtures/samsung gives, day by day, what scripts/reference_samsung.py computes from
/// docs/samsung.md (an independent Python implementation, sharing no code with the tool; its
/// results are committed in Tests/Fixtures/expected/samsung-*.json), from the folder, a zip of
/// it, and its CSVs alone and renamed; and each day is the export's own combined (-2) total.
@Suite struct SamsungHealthFixtureTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// What is given to `hc`, built in the scratch folder first (`Self.build`).
        let input: String
        let expected: String
        var testDescription: String { input }
    }

    static let trendExpected = "samsung-step_daily_trend.json"
    static let cases = [
        Case(input: "fixtures/samsung", expected: trendExpected),
        Case(input: "samsunghealth.zip", expected: trendExpected),
        Case(input: "fixtures/samsung/com.samsung.shealth.step_daily_trend.20251215221761.csv", expected: trendExpected),
        Case(input: "Step Daily Trend.csv", expected: trendExpected),
        Case(input: "Step Daily Trend UTF-16.csv", expected: trendExpected),
        Case(input: "Pedometer Step Count.csv", expected: "samsung-pedometer_step_count.json"),
    ]

    /// The export laid out as the app writes it (a folder with `jsons/`), zipped; its CSVs renamed.
    static let build = """
        folder=samsunghealth_user_20251215221761
        mkdir -p "$folder/jsons/com.samsung.shealth.step_daily_trend/2"
        cp fixtures/samsung/*.csv "$folder/"
        printf '[{"mStepCount":12}]\\n' > "$folder/jsons/com.samsung.shealth.step_daily_trend/2/266392d6.binning_data.json"
        # jsons/ is never opened: a second trend file there would make the export ambiguous.
        cp fixtures/samsung/com.samsung.shealth.step_daily_trend.*.csv "$folder/jsons/com.samsung.shealth.step_daily_trend/2/"
        zip -qr samsunghealth.zip "$folder"
        cp fixtures/samsung/com.samsung.shealth.step_daily_trend.*.csv 'Step Daily Trend.csv'
        python3 -c 'import sys; t = open(sys.argv[1], encoding="utf-8-sig").read(); open(sys.argv[2], "wb").write(b"\\xff\\xfe" + t.encode("utf-16-le"))' 'Step Daily Trend.csv' 'Step Daily Trend UTF-16.csv'
        cp fixtures/samsung/com.samsung.shealth.tracker.pedometer_step_count.*.csv 'Pedometer Step Count.csv'
        """

    /// `date -> (steps, source)` of an expected file.
    static func expectedDays(_ name: String) throws -> [String: (Int, String)] {
        let object = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: TestPaths.expected.appendingPathComponent(name))) as? [String: Any])
        var days: [String: (Int, String)] = [:]
        for entry in try #require(object["days"] as? [[String: Any]]) {
            days[try #require(entry["date"] as? String)] = (try #require(entry["steps"] as? Int), try #require(entry["source"] as? String))
        }
        return days
    }

    /// `date -> (steps, source)` of `--format csv` output.
    static func printedDays(_ stdout: Data) throws -> [String: (Int, String)] {
        var days: [String: (Int, String)] = [:]
        for line in String(decoding: stdout, as: UTF8.self).split(separator: "\n").dropFirst() {
            // The source is last and may hold a comma (quoted): split off the first two cells only.
            let cells = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            try #require(cells.count == 3, "unexpected row \(line)")
            days[String(cells[0])] = (try #require(Int(cells[1])), String(cells[2]).replacingOccurrences(of: "\"", with: ""))
        }
        return days
    }

    @Test(.needsSharedFixtures, arguments: cases)
    func everyDayMatchesTheIndependentComputation(_ test: Case) throws {
        let expected = try Self.expectedDays(test.expected)
        let result = try CommandRunner.run(Self.build + "\n\"$STEPIMPORT\" hc '\(test.input)' --format csv -q")
        try #require(result.status == 0, "\(test.input): exit \(result.status)\n\(result.stderr.suffix(2000))")
        let printed = try Self.printedDays(result.stdout)
        #expect(printed.count == expected.count)
        for date in Set(expected.keys).union(printed.keys).sorted() {
            #expect(printed[date]?.0 == expected[date]?.0 && printed[date]?.1 == expected[date]?.1,
                    "\(test.input) \(date): \(String(describing: printed[date])) against \(String(describing: expected[date]))")
        }
        if test.expected == Self.trendExpected {
            #expect(expected.count == 411 && expected.values.map(\.0).reduce(0, +) == 3_199_673, "the issue's figures")
        } else {
            #expect(expected.count == 10 && expected.values.map(\.0).reduce(0, +) == 61_906)
        }
    }

    /// Each day's total is the `count` of its combined row, read here from the CSV apart from the tool.
    @Test(.needsSharedFixtures) func eachDayIsTheCombinedRowsCount() throws {
        let trend = try String(contentsOf: TestPaths.sharedFixtures
            .appendingPathComponent("samsung/com.samsung.shealth.step_daily_trend.20251215221761.csv"), encoding: .utf8)
        let lines = trend.split(separator: "\n")
        let header = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let type = try #require(header.firstIndex(of: "source_type")), count = try #require(header.firstIndex(of: "count"))
        let dayTime = try #require(header.firstIndex(of: "day_time"))
        var combined: [String: Int] = [:]
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        for line in lines.dropFirst(2) {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count > dayTime, cells[type] == "-2", let ms = Double(cells[dayTime]) else { continue }
            combined[format.string(from: Date(timeIntervalSince1970: ms / 1000))] = Int(cells[count])
        }
        let result = try CommandRunner.run("\"$STEPIMPORT\" hc fixtures/samsung --format json -q")
        try #require(result.status == 0, "\(result.stderr)")
        struct Body: Decodable {
            struct Day: Decodable { let date: String; let steps: Int }
            let days: [Day]
        }
        let days = try JSONDecoder().decode(Body.self, from: result.stdout).days
        #expect(days.count == 411 && combined.count == 411)
        #expect(days.map(\.steps).reduce(0, +) == 3_199_673)
        for day in days {
            #expect(day.steps == combined[day.date], "\(day.date)")
        }
    }

    @Test(.needsSharedFixtures) func theSummaryNamesWhatWasReadAndLeftOut() throws {
        let result = try CommandRunner.run(Self.build + "\n\"$STEPIMPORT\" hc samsunghealth.zip > /dev/null")
        try #require(result.status == 0, "\(result.stderr)")
        for words in [
            "(Samsung Health step_daily_trend CSV)",
            "Samsung Health's step_daily_trend: 411 combined day totals (source Samsung Health) and 665 of 3 devices, each a source of its own",
            "Samsung Health: read step_daily_trend; 3 other step files left out, as they hold the same steps again (never added together): tracker.pedometer_step_count, tracker.pedometer_day_summary, activity.day_summary",
            "Samsung Health (phone, XLy3VBYEN4) (393 records, won no day)",
        ] {
            #expect(result.stderr.contains(words), "\(words)\n\(result.stderr)")
        }
    }

    @Test(.needsSharedFixtures) func distanceIsTheCombinedRowsToo() throws {
        let object = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: TestPaths.expected.appendingPathComponent(Self.trendExpected))) as? [String: Any])
        let expected = try #require(object["distance"] as? [[String: Any]])
        let result = try CommandRunner.run("\"$STEPIMPORT\" hc fixtures/samsung --metric distance --format csv -q")
        try #require(result.status == 0, "\(result.stderr)")
        let printed = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").dropFirst().map(String.init)
        #expect(printed == expected.map { "\($0["date"] as? String ?? ""),\($0["metres"] as? Int ?? -1)" })
        #expect(printed.count == 411)
    }

    @Test(.needsSharedFixtures) func inspectShowsTheSources() throws {
        let result = try CommandRunner.run(Self.build + "\n\"$STEPIMPORT\" inspect samsunghealth.zip")
        try #require(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        for words in ["Samsung Health step_daily_trend CSV: day totals     1076",
                      "Samsung Health                            0         411  2023-10-10  2025-12-15",
                      "Samsung Health (watch, 60rRju/E5J)        0         266  2023-10-10  2025-12-13",
                      "411 days with steps, 2023-10-10 to 2025-12-15"] {
            #expect(text.contains(words), "\(words)\n\(text)")
        }
    }

    @Test(.needsSharedFixtures) func batchReadsItAsHcAndAuto() throws {
        let result = try CommandRunner.run(Self.build + """

            printf 'account,file,kind,token_env,tz\\nzip,samsunghealth.zip,auto,T1,America/Sao_Paulo\\n' > manifest.csv
            printf 'folder,samsunghealth_user_20251215221761,hc,T2,America/Sao_Paulo\\n' >> manifest.csv
            printf 'renamed,Step Daily Trend.csv,auto,T3,America/Sao_Paulo\\n' >> manifest.csv
            T1=a T2=b T3=c "$STEPIMPORT" batch manifest.csv --jobs 1 -q --report report.json > /dev/null
            cat report.json
            """)
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let accounts = try #require(report["accounts"] as? [[String: Any]])
        #expect(accounts.count == 3)
        for account in accounts {
            #expect(account["status"] as? String == "done" && account["daysParsed"] as? Int == 411
                        && account["totalSteps"] as? Int == 3_199_673, "\(account)")
        }
    }
}
