import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// Feeds `bytes` to `parser` in pieces of `chunk` bytes, then finishes.
func feedJSON(_ bytes: [UInt8], to parser: AppDumpJSONParser, chunk: Int) throws(ParseFailure) {
    let result = bytes.withUnsafeBytes { whole in
        Result { () throws(ParseFailure) in
            var start = 0
            while start < whole.count {
                let end = min(whole.count, start + chunk)
                try parser.feed(UnsafeRawBufferPointer(rebasing: whole[start..<end]))
                start = end
            }
            try parser.finish()
        }
    }
    try result.get()
}

@Suite struct AppDumpJSONParserTests {
    typealias Entry = SampleCollector.Entry

    static func parse(_ text: String, chunk: Int = 1 << 16, policy: InvalidRecordPolicy = .fail) throws(ParseFailure)
        -> (collector: SampleCollector, statistics: AppDumpJSONStatistics) {
        let collector = SampleCollector()
        let parser = AppDumpJSONParser(sink: collector, invalidRecords: policy)
        try feedJSON(Array(text.utf8), to: parser, chunk: chunk)
        return (collector, parser.statistics)
    }

    static func failure(_ text: String, policy: InvalidRecordPolicy = .fail) -> ParseFailure? {
        do {
            _ = try parse(text, chunk: 5, policy: policy)
            return nil
        } catch {
            return error
        }
    }

    static func sample(_ start: Int64, _ end: Int64, _ offset: Int32?, _ value: Double, wall: Bool = false) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value, wallClock: wall)
    }

    // MARK: - react-native-health-connect

    static let reactNativeRecords = """
    {"startTime":"2026-03-01T01:00:00.000Z","endTime":"2026-03-01T01:15:00.000Z","count":512,\
    "startZoneOffset":{"id":"+08:00","totalSeconds":28800},"endZoneOffset":{"id":"+08:00","totalSeconds":28800},\
    "metadata":{"id":"0f3c1a","dataOrigin":"com.google.android.apps.fitness","lastModifiedTime":"2026-03-01T02:00:00.000Z",\
    "clientRecordId":null,"clientRecordVersion":0,"device":{"type":0,"manufacturer":"Google","model":"Pixel 9"},"recordingMethod":0}},
      {"startTime":"2023-09-07T09:44:16.818Z","endTime":"2023-09-07T09:50:00.000Z","count":9,\
    "metadata":{"id":"x","dataOrigin":"com.android.healthconnect.phone.samsung","device":{"type":0}}},
      {"metadata":{"dataOrigin":"android"},"count":3.0,"endTime":"2023-09-08T00:10:00Z","startTime":"2023-09-07T23:50:00Z"}
    """

    static let reactNative = "{\"records\":[\n  " + reactNativeRecords + "\n],\"pageToken\":null}\n"

    static let reactNativeExpected: [Entry] = [
        Entry(source: "com.google.android.apps.fitness",
              sample: sample(utcMs(2026, 3, 1, 1), utcMs(2026, 3, 1, 1, 15), 28800, 512)),
        Entry(source: "android", sample: sample(utcMs(2023, 9, 7, 9, 44, 16) + 818, utcMs(2023, 9, 7, 9, 50), nil, 9)),
        Entry(source: "android", sample: sample(utcMs(2023, 9, 7, 23, 50), utcMs(2023, 9, 8, 0, 10), nil, 3)),
    ]

    @Test func reactNativeHealthConnectPage() throws {
        let (collector, statistics) = try Self.parse(Self.reactNative)
        #expect(collector.entries == Self.reactNativeExpected)
        #expect(statistics.records == 3)
        #expect(statistics.stepRecords == 3)
        #expect(statistics.withoutOffset == 2)
        #expect(statistics.wallClock == 0)
        #expect(statistics.shapeNames == ["react-native-health-connect"])
    }

    @Test func reactNativeRecordsInABareArray() throws {
        let (collector, statistics) = try Self.parse("[" + Self.reactNativeRecords + "]")
        #expect(collector.entries == Self.reactNativeExpected)
        #expect(statistics.shapes == [.reactNativeHealthConnect])
    }

    @Test func everyChunkSizeGivesTheSameSamples() throws {
        let length = Self.reactNative.utf8.count
        for chunk in 1...length {
            let (collector, statistics) = try Self.parse(Self.reactNative, chunk: chunk)
            if collector.entries != Self.reactNativeExpected || statistics.stepRecords != 3 {
                Issue.record("chunk size \(chunk) gave \(collector.entries)")
                return
            }
        }
    }

    @Test func anEmptyPageIsReactNativeWithNoRecords() throws {
        let (collector, statistics) = try Self.parse("{\"records\":[],\"pageToken\":null}")
        #expect(collector.entries.isEmpty)
        #expect(statistics.shapes == [.reactNativeHealthConnect])
        #expect(statistics.records == 0)
    }

    @Test func recordsOfOtherTypesInAPageAreNotSteps() throws {
        // readRecords('HeartRate'): no count, no type; not step records, and not an error.
        let text = """
        {"records":[{"startTime":"2024-01-01T10:00:00Z","endTime":"2024-01-01T10:05:00Z",\
        "samples":[{"time":"2024-01-01T10:00:00Z","beatsPerMinute":61}],"metadata":{"dataOrigin":"com.whoop"}}],"pageToken":"abc"}
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries.isEmpty)
        #expect(statistics.shapes == [.reactNativeHealthConnect])
    }

    // MARK: - HCGateway

    @Test func hcGateway() throws {
        let text = """
        [{"_id":"6650a1","id":"6650a1","data":{"count":123},"app":"com.sec.android.app.shealth",\
        "start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:10:00Z"},
         {"_id":"6650a2","id":"6650a2","app":"android","start":"2024-05-01T09:00:00.5Z","end":"2024-05-01T09:10:00Z","data":{"count":7}}]
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries == [
            Entry(source: "com.sec.android.app.shealth", sample: Self.sample(utcMs(2024, 5, 1, 8), utcMs(2024, 5, 1, 8, 10), nil, 123)),
            Entry(source: "android", sample: Self.sample(utcMs(2024, 5, 1, 9) + 500, utcMs(2024, 5, 1, 9, 10), nil, 7)),
        ])
        #expect(statistics.shapeNames == ["HCGateway"])
        #expect(statistics.withoutOffset == 2)
    }

    // MARK: - Capacitor

    @Test func capacitorUnderAKey() throws {
        let text = """
        {"steps":[{"type":"Steps","startTime":"2024-05-01T00:00:00Z","startZoneOffset":"+09:00",\
        "endTime":"2024-05-01T00:30:00Z","endZoneOffset":"+09:00","count":120,"metadata":{"dataOrigin":"com.fitbit.FitbitMobile"}},
        {"type":"HeartRate","startTime":"2024-05-01T00:00:00Z","endTime":"2024-05-01T00:30:00Z",\
        "samples":[{"time":"2024-05-01T00:00:00Z","beatsPerMinute":61}],"metadata":{"dataOrigin":"com.fitbit.FitbitMobile"}},
        {"type":"Steps","startTime":"2024-05-01T01:00:00Z","startZoneOffset":"-0330","endTime":"2024-05-01T01:30:00Z","count":"5"}]}
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries == [
            Entry(source: "com.fitbit.FitbitMobile", sample: Self.sample(utcMs(2024, 5, 1), utcMs(2024, 5, 1, 0, 30), 32400, 120)),
            Entry(source: "(unknown)", sample: Self.sample(utcMs(2024, 5, 1, 1), utcMs(2024, 5, 1, 1, 30), -12600, 5)),
        ])
        #expect(statistics.records == 3)
        #expect(statistics.otherTypeRecords == 1)
        #expect(statistics.shapeNames == ["Capacitor"])
    }

    @Test func aTypedContainerIsNotARecord() throws {
        let text = """
        {"type":"Steps","recordType":"Steps","records":[{"type":"Steps","startTime":"2024-05-01T00:00:00Z",\
        "endTime":"2024-05-01T00:30:00Z","count":120,"metadata":{"dataOrigin":"com.x"}}]}
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries.map(\.sample.value) == [120])
        #expect(statistics.records == 1)
        #expect(statistics.skipped.count == 0)
        let bad = try #require(Self.failure(#"[{"type":"Steps","count":5}]"#))
        #expect(bad.message.hasPrefix("a steps record with no start time and no date"))
    }

    // MARK: - Flutter health

    static let flutter = """
    [{"value":{"__type":"NumericHealthValue","numericValue":123},"type":"STEPS","unit":"COUNT",\
    "dateFrom":"2024-05-01T08:00:00.000","dateTo":"2024-05-01T08:15:00.000","sourcePlatform":"googleHealthConnect",\
    "sourceDeviceId":"abc","sourceId":"","sourceName":"com.google.android.apps.fitness","recordingMethod":"unknown"},
     {"value":{"__type":"NumericHealthValue","numericValue":61},"type":"HEART_RATE","unit":"BEATS_PER_MINUTE",\
    "dateFrom":"2024-05-01T08:00:00.000","dateTo":"2024-05-01T08:00:00.000","sourcePlatform":"googleHealthConnect",\
    "sourceName":"com.google.android.apps.fitness"},
     {"value":{"__type":"NumericHealthValue","numericValue":40.0},"type":"STEPS","unit":"COUNT",\
    "dateFrom":"2024-05-01T09:00:00.000+02:00","dateTo":"2024-05-01T09:05:00.000+02:00","sourcePlatform":"googleHealthConnect",\
    "sourceName":"com.android.healthconnect.phone.pixel"}]
    """

    @Test func flutterHealthWallTimes() throws {
        let (collector, statistics) = try Self.parse(Self.flutter)
        #expect(collector.entries == [
            Entry(source: "com.google.android.apps.fitness",
                  sample: Self.sample(utcMs(2024, 5, 1, 8), utcMs(2024, 5, 1, 8, 15), nil, 123, wall: true)),
            Entry(source: "android", sample: Self.sample(utcMs(2024, 5, 1, 7), utcMs(2024, 5, 1, 7, 5), 7200, 40)),
        ])
        #expect(statistics.records == 3)
        #expect(statistics.otherTypeRecords == 1)
        #expect(statistics.wallClock == 1)
        #expect(statistics.withoutOffset == 0)
        #expect(statistics.shapeNames == ["Flutter health"])
    }

    @Test func flutterHealthOlderSnakeCase() throws {
        let text = """
        [{"value":55,"unit":"COUNT","date_from":"2023-01-02T10:00:00.000","date_to":"2023-01-02T10:30:00.000",\
        "data_type":"STEPS","platform_type":"PlatformType.ANDROID","device_id":"x","source_id":"","source_name":"com.mc.miband1"},
         {"value":{"numeric_value":12},"type":"STEPS","date_from":"2023-01-02T11:00:00.000","date_to":"2023-01-02T11:01:00.000",\
        "source_platform":"googleFit","source_name":"com.google.android.gms"},
         {"value":{"numeric_value":300},"data_type":"ACTIVE_ENERGY_BURNED","date_from":"2023-01-02T11:00:00.000",\
        "date_to":"2023-01-02T11:01:00.000","source_name":"com.google.android.gms"}]
        """
        let (collector, statistics) = try Self.parse(text, chunk: 3)
        #expect(collector.entries == [
            Entry(source: "com.mc.miband1", sample: Self.sample(utcMs(2023, 1, 2, 10), utcMs(2023, 1, 2, 10, 30), nil, 55, wall: true)),
            Entry(source: "com.google.android.gms", sample: Self.sample(utcMs(2023, 1, 2, 11), utcMs(2023, 1, 2, 11, 1), nil, 12, wall: true)),
        ])
        #expect(statistics.otherTypeRecords == 1)
        #expect(statistics.wallClock == 2)
        #expect(statistics.shapes == [.flutterHealth])
    }

    @Test func onlyOtherTypesIsARecognisedShapeWithNoSteps() throws {
        let text = """
        [{"value":{"numericValue":61},"type":"HEART_RATE","dateFrom":"2024-05-01T08:00:00.000","dateTo":"2024-05-01T08:00:00.000",\
        "sourcePlatform":"googleHealthConnect","sourceName":"com.x"}]
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries.isEmpty)
        #expect(statistics.otherTypeRecords == 1)
        #expect(statistics.shapes == [.flutterHealth])
    }

    // MARK: - Plain records and day totals

    @Test func plainRecordsWithAliasesAndEpochTimes() throws {
        let text = """
        [{"start":1714550400000,"end":1714551300000,"steps":250,"source":"com.example.app"},
         {"start_time":"1714552200000","end_time":"1714553100000","value":"30.5","origin":"com.example.app"},
         {"startDate":"2024-05-01T10:00:00+05:30","endDate":"2024-05-01T10:30:00+05:30","count":12,"packageName":"in.app"},
         {"startTime":"2024-05-01T10:00:00Z","endTime":"2024-05-01T10:01:00Z","count":1,"dataOrigin":""},
         {"start":"2024-05-01T10:00:00","end":"2024-05-01T10:10:00","zoneOffset":3600,"steps":2,"app":null},
         {"start":"2024-05-01T10:00:00Z","end":"2024-05-01T10:10:00Z","value":9,"count":8}]
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries == [
            Entry(source: "com.example.app", sample: Self.sample(utcMs(2024, 5, 1, 8), utcMs(2024, 5, 1, 8, 15), nil, 250)),
            Entry(source: "com.example.app", sample: Self.sample(utcMs(2024, 5, 1, 8, 30), utcMs(2024, 5, 1, 8, 45), nil, 30.5)),
            Entry(source: "in.app", sample: Self.sample(utcMs(2024, 5, 1, 4, 30), utcMs(2024, 5, 1, 5), 19800, 12)),
            Entry(source: "(unknown)", sample: Self.sample(utcMs(2024, 5, 1, 10), utcMs(2024, 5, 1, 10, 1), nil, 1)),
            // A wall time with a zone offset beside it is an instant in that offset.
            Entry(source: "(unknown)", sample: Self.sample(utcMs(2024, 5, 1, 9), utcMs(2024, 5, 1, 9, 10), 3600, 2)),
            // `count` wins over `value` whatever the order.
            Entry(source: "(unknown)", sample: Self.sample(utcMs(2024, 5, 1, 10), utcMs(2024, 5, 1, 10, 10), nil, 8)),
        ])
        #expect(statistics.shapes == [.plainRecords])
        #expect(statistics.withoutOffset == 4)
    }

    @Test func recordsOnePerLineAreJSONLines() throws {
        let text = """
        {"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","steps":1,"source":"a"}
        {"start":"2024-05-01T08:01:00Z","end":"2024-05-01T08:02:00Z","steps":2,"source":"a"}

        """
        let (collector, _) = try Self.parse(text)
        #expect(collector.entries.map(\.sample.value) == [1, 2])
    }

    @Test func dayTotals() throws {
        let text = """
        {"exportedAt":"2024-05-04","days":[{"date":"2024-05-01","steps":8421,"source":"Pedometer++"},\
        {"date":"2024-05-02","total_steps":"3110"},{"date":"2024-05-03","count":0,"source":"android"},\
        {"date":"2024-05-03","calories":2100}]}
        """
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries.isEmpty)
        #expect(collector.dayTotals == [
            .init(date: date("2024-05-01"), steps: 8421, source: "Pedometer++"),
            .init(date: date("2024-05-02"), steps: 3110, source: "(unknown)"),
            .init(date: date("2024-05-03"), steps: 0, source: "android"),
        ])
        #expect(statistics.dayTotals == 3)
        #expect(statistics.records == 3)
        #expect(statistics.shapeNames == ["day totals"])
    }

    @Test func thePhonesTwoNamesAreOneSource() throws {
        let text = """
        [{"start":"2026-01-01T08:00:00Z","end":"2026-01-01T08:01:00Z","count":1,"app":"com.android.healthconnect.phone.google"},
         {"start":"2026-01-01T08:00:00Z","end":"2026-01-01T08:01:00Z","count":1,"app":"com.android.healthconnect.phone"},
         {"start":"2026-01-01T08:00:00Z","end":"2026-01-01T08:01:00Z","count":1,"metadata":{"dataOrigin":{"packageName":"android"}}},
         {"start":"2026-01-01T08:00:00Z","end":"2026-01-01T08:01:00Z","count":1,"app":"com.android.healthconnect.phonebook"}]
        """
        let (collector, _) = try Self.parse(text)
        #expect(collector.entries.map(\.source) == ["android", "android", "android", "com.android.healthconnect.phonebook"])
    }

    // MARK: - Google Fit Takeout

    static let estimatedStream = """
    {
        "Data Source": "derived:com.google.step_count.delta:com.google.android.gms:estimated_steps",
        "Data Points": [
            {"fitValue":[{"value":{"intVal":19}}],"originDataSourceId":"raw:com.google.step_count.cumulative:vivo:V2312:557f82c0f6828d19:STEP_COUNTER","endTimeNanos":1738156736058456668,"dataTypeName":"com.google.step_count.delta","startTimeNanos":1738156698230507294,"modifiedTimeMillis":1738159277386,"rawTimestampNanos":0},
            {"startTimeNanos":1738159297841247636,"endTimeNanos":1738159373841249684,"fitValue":[{"value":{"intVal":-3}}]}
        ]
    }
    """

    @Test func googleFitEstimatedStepsStream() throws {
        for chunk in [1, 2, 3, 5, 8, 13, 1 << 16] {
            let (collector, statistics) = try Self.parse(Self.estimatedStream, chunk: chunk)
            #expect(collector.entries == [
                Entry(source: "Google Fit", sample: Self.sample(1_738_156_698_230, 1_738_156_736_058, nil, 19)),
                Entry(source: "Google Fit", sample: Self.sample(1_738_159_297_841, 1_738_159_373_841, nil, -3)),
            ])
            #expect(statistics.shapeNames == ["Google Fit estimated_steps stream"])
            #expect(statistics.googleFitDataSource == "derived:com.google.step_count.delta:com.google.android.gms:estimated_steps")
            #expect(statistics.withoutOffset == 2)
        }
    }

    /// Fit's negative corrections count, but no more than a record can hold either way.
    @Test(arguments: ["1000001", "-1000001", "999999999999999999"])
    func aGoogleFitPointBeyondAMillionIsInvalid(_ value: String) throws {
        let text = Self.estimatedStream.replacingOccurrences(of: "\"intVal\":-3", with: "\"intVal\":\(value)")
        let error = try #require(Self.failure(text))
        #expect(error.kind == .invalidRecord)
        #expect(error.message == "fitValue.intVal \(value) is more steps than one record can hold (at most 1,000,000)")
        let offset = try #require(error.position.byteOffset)
        let bytes = Array(text.utf8)
        #expect(bytes[Int(offset)] == UInt8(ascii: "{"), "the offset is where the bad point's object opens")
        #expect(bytes[..<Int(offset)].filter { $0 == 0x0A }.count + 1 == error.line)
        let (collector, statistics) = try Self.parse(text, policy: .skip)
        #expect(collector.entries.map(\.sample.value) == [19])
        #expect(statistics.skipped.count == 1)
    }

    @Test func anEmptyEstimatedStepsStreamIsZeroRecords() throws {
        let (collector, statistics) = try Self.parse(
            "{\"Data Source\": \"derived:com.google.step_count.delta:com.google.android.gms:estimated_steps\", \"Data Points\": []}")
        #expect(collector.entries.isEmpty)
        #expect(statistics.shapes == [.googleFitEstimatedSteps])
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPaths.sharedFixtures.appendingPathComponent("hc/\(name)")))
    }

    /// Date -> steps from the `Step count` column of Takeout's daily summary, read plainly.
    static func dailySummarySteps() throws -> [String: Int] {
        let text = String(decoding: try fixture("takeout-2025-daily-activity-metrics.csv"), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = try #require(lines.first)
        let column = try #require(header.firstIndex(of: "Step count"))
        var steps: [String: Int] = [:]
        for row in lines.dropFirst() where !row[column].isEmpty {
            steps[String(row[0])] = Int(row[column])
        }
        return steps
    }

    @Test(.needsSharedFixtures) func theEstimatedStepsFixtureMatchesTheDailySummary() throws {
        let expected = try Self.dailySummarySteps()
        #expect(expected.count == 25)
        let bytes = try Self.fixture("takeout-derived-step-delta-estimated-steps.json")
        for chunk in [4093, 1 << 16] {
            let aggregator = DayAggregator(rule: ZoneRule.named("Asia/Kolkata")!)
            let parser = AppDumpJSONParser(sink: aggregator, invalidRecords: .fail)
            try feedJSON(bytes, to: parser, chunk: chunk)
            var totals: [String: Int] = [:]
            for day in aggregator.dayTotals() {
                totals[day.date.description] = day.steps
            }
            #expect(totals == expected)
            #expect(Set(aggregator.dayTotals().map(\.source)) == ["Google Fit"])
            #expect(parser.statistics.shapes == [.googleFitEstimatedSteps])
            #expect(parser.statistics.stepRecords == parser.statistics.records)
            #expect(parser.statistics.stepRecords > 1000)
        }
    }

    @Test(.needsSharedFixtures, arguments: [
        ("takeout-derived-step-delta-top-level.json", "derived:com.google.step_count.delta:com.google.android.fit:vivo:V2312:557f82c0f6828d19:top_level"),
        ("takeout-raw-cumulative-empty.json", "raw:com.google.step_count.cumulative:vivo:V2312:557f82c0f6828d19:STEP_COUNTER"),
    ])
    func otherStepStreamsAreRefused(_ file: String, _ stream: String) throws {
        let collector = SampleCollector()
        let parser = AppDumpJSONParser(sink: collector, invalidRecords: .skip)
        let bytes = try Self.fixture(file)
        do {
            try feedJSON(bytes, to: parser, chunk: 1 << 16)
            Issue.record("\(file) was read")
        } catch {
            #expect(error.kind == .wrongKind)
            #expect(error.line == 2)
            #expect(error.message.contains("\"\(stream)\""))
            #expect(error.message.contains("only the estimated_steps stream"))
            #expect(error.message.contains("double count") || error.message.contains("holds no step counts"))
        }
        #expect(collector.entries.isEmpty)
    }

    /// Without an estimated_steps stream, the merged one comes nearest to Fit's totals: read, and named.
    @Test(.needsSharedFixtures)
    func theMergedStreamGivenAloneIsRead() throws {
        let collector = SampleCollector()
        let parser = AppDumpJSONParser(sink: collector, invalidRecords: .fail)
        try feedJSON(try Self.fixture("takeout-derived-step-delta-merge-step-deltas.json"), to: parser, chunk: 1 << 16)
        try parser.finish()
        #expect(parser.statistics.shapes == [.googleFitMergedSteps])
        #expect(parser.statistics.stepRecords > 1000 && collector.entries.count == parser.statistics.stepRecords)
    }

    @Test func aStreamOfAnotherDataTypeIsRefused() throws {
        let error = try #require(Self.failure("{\"Data Source\":\"derived:com.google.heart_rate.bpm:com.google.android.gms:merge_heart_rate_bpm\",\"Data Points\":[]}"))
        #expect(error.kind == .wrongKind)
        #expect(error.message.contains("holds no step counts"))
    }

    @Test func aDataSourceMemberThatIsNotAFitStreamIsJustAMember() throws {
        let text = #"[{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","steps":5,"Data Source":"Fitbit"}]"#
        let (collector, statistics) = try Self.parse(text)
        #expect(collector.entries.count == 1)
        #expect(statistics.shapes == [.plainRecords])
    }

    @Test func dataPointsWithoutADataSourceAreRefused() throws {
        let error = try #require(Self.failure("[{\"fitValue\":[{\"value\":{\"intVal\":19}}],\"startTimeNanos\":1738156698230507294,\"endTimeNanos\":1738156736058456668}]"))
        #expect(error.kind == .wrongKind)
        #expect(error.message.contains("no \"Data Source\""))
    }

    // MARK: - Invalid records

    struct BadRecord: CustomTestStringConvertible, Sendable {
        let record: String
        let problem: String
        var testDescription: String { record }
    }

    static let badRecords: [BadRecord] = [
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":"abc"}"#,
                  problem: #"count "abc" is not a number"#),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":-5}"#,
                  problem: "count -5 is negative"),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":null}"#,
                  problem: "count is null, not a step count"),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":true}"#,
                  problem: "count is true, not a step count"),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":{"value":9000}}"#,
                  problem: "count is an object, not a step count"),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":[12]}"#,
                  problem: "count is an array, not a step count"),
        BadRecord(record: #"{"type":"Steps","startTime":"2024-05-01T08:00:00Z","endTime":"2024-05-01T08:01:00Z"}"#,
                  problem: "missing step count (count, steps, total_steps, value or numericValue)"),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","data":{"count":"x"}}"#,
                  problem: #"data.count "x" is not a number"#),
        BadRecord(record: #"{"startTime":"yesterday","endTime":"2024-05-01T08:01:00Z","count":1}"#,
                  problem: #"startTime "yesterday" is not a time (ISO 8601 such as 2024-05-01T08:00:00Z, or epoch milliseconds)"#),
        BadRecord(record: #"{"start":1714550400,"end":1714551300,"count":1}"#,
                  problem: "start 1714550400 is not epoch milliseconds between 2000 and 2100"),
        BadRecord(record: #"{"end":"2024-05-01T08:01:00Z","count":1}"#,
                  problem: "missing start time (start, startTime, start_time, startDate, dateFrom or date_from)"),
        BadRecord(record: #"{"start":"2024-05-01T08:02:00Z","end":"2024-05-01T08:01:00Z","count":1}"#,
                  problem: #"end "2024-05-01T08:01:00Z" is before start "2024-05-01T08:02:00Z""#),
        BadRecord(record: #"{"start":"2024-05-01T08:00:00","end":"2024-05-01T08:01:00Z","count":1}"#,
                  problem: "end has a UTC offset and start has none"),
        BadRecord(record: #"{"startTime":"2024-05-01T08:00:00Z","endTime":"2024-05-01T08:01:00Z","count":1,"startZoneOffset":{"id":"+25:00"}}"#,
                  problem: #"startZoneOffset.id "+25:00" is not a UTC offset (such as "+09:00" or a number of seconds)"#),
        BadRecord(record: #"{"date":"2024-02-30","steps":100}"#, problem: #"date "2024-02-30" is not a date (YYYY-MM-DD)"#),
        BadRecord(record: #"{"date":"2024-02-03","steps":-1}"#, problem: "steps -1 is negative"),
        // Beyond SampleLimits (issue 11): these trapped in the aggregator, or ran away.
        BadRecord(record: #"{"startTime":"2024-03-01T10:00:00Z","endTime":"2024-03-01T10:00:00Z","count":1e19}"#,
                  problem: "count 1e19 is more steps than one record can hold (at most 1,000,000)"),
        BadRecord(record: #"{"startTime":"2024-03-01T10:00:00Z","endTime":"2024-03-01T10:00:00Z","count":1e308}"#,
                  problem: "count 1e308 is more steps than one record can hold (at most 1,000,000)"),
        BadRecord(record: #"{"startTime":"2024-03-01T10:00:00Z","endTime":"2024-03-01T10:00:00Z","count":"999999999999999999"}"#,
                  problem: #"count "999999999999999999" is more steps than one record can hold (at most 1,000,000)"#),
        BadRecord(record: #"{"startTime":"2024-03-01T10:00:00Z","endTime":"2024-03-01T10:00:00Z","count":1000001}"#,
                  problem: "count 1000001 is more steps than one record can hold (at most 1,000,000)"),
        BadRecord(record: #"{"date":"2024-03-01","steps":1e19}"#,
                  problem: "steps 1e19 is more steps than one record can hold (at most 1,000,000)"),
        BadRecord(record: #"{"date":"1969-12-31","steps":5}"#, problem: #"date "1969-12-31" is outside the years 1970 to 2200"#),
        BadRecord(record: #"{"start":"2201-01-01T00:00:00Z","end":"2201-01-01T00:01:00Z","count":1}"#,
                  problem: #"start "2201-01-01T00:00:00Z" is outside the years 1970 to 2200"#),
        BadRecord(record: #"{"start":"0001-01-01T00:00:00Z","end":"9999-12-31T23:59:59Z","count":1}"#,
                  problem: #"start "0001-01-01T00:00:00Z" is outside the years 1970 to 2200"#),
        BadRecord(record: #"{"start":"2024-01-01T00:00:00Z","end":"2024-03-01T00:00:00Z","count":1}"#,
                  problem: #"start "2024-01-01T00:00:00Z" to end "2024-03-01T00:00:00Z" is longer than 31 days, the longest one record may span"#),
        BadRecord(record: #"{"startTime":"2024-05-01T08:00:00Z","endTime":"2024-05-01T08:01:00Z","count":1,"startZoneOffset":{"id":"+18:30"}}"#,
                  problem: #"startZoneOffset.id "+18:30" is beyond ±18 hours"#),
    ]

    @Test(arguments: badRecords)
    func anUnusableRecordStopsTheRunOrIsSkipped(_ bad: BadRecord) throws {
        let good = #"{"start":"2024-05-01T09:00:00Z","end":"2024-05-01T09:01:00Z","count":4,"source":"ok"}"#
        let text = "[\n  \(good),\n  \(bad.record),\n  \(good.replacingOccurrences(of: "09:0", with: "10:0"))\n]"
        let error = try #require(Self.failure(text))
        #expect(error.kind == .invalidRecord)
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.message == bad.problem)
        #expect(ExportError(error, at: InputLocation(path: "dump.json"), expected: .android, grammar: "JSON").remedy == .skipInvalid)

        let (collector, statistics) = try Self.parse(text, chunk: 7, policy: .skip)
        #expect(collector.entries.count + collector.dayTotals.count == 2)
        #expect(statistics.skipped.count == 1)
        #expect(statistics.skipped.examples == [SkippedRecord(line: 3, column: 3, problem: bad.problem)])
    }

    @Test func onlyTheFirstFewSkippedRecordsAreKept() throws {
        let bad = #"{"start":"2024-05-01T08:00:00Z","end":"2024-05-01T08:01:00Z","count":"?"}"#
        let text = "[" + Array(repeating: bad, count: 12).joined(separator: ",\n") + "]"
        let (_, statistics) = try Self.parse(text, policy: .skip)
        #expect(statistics.skipped.count == 12)
        #expect(statistics.skipped.examples.map(\.line) == [1, 2, 3, 4, 5])
    }

    // MARK: - Not step data

    @Test(arguments: [
        (#"{"foo":1}"#, #"a JSON object with the keys "foo", with no step records in a shape stepimport reads"#),
        ("[1, 2]", "a JSON array of 2 values, the first a number, with no step records"),
        (#""steps""#, "a JSON document that is just a string, with no step records"),
        ("{}", "an empty JSON object, with no step records"),
        (#"[{"_id":"1","data":{"bpm":60},"start":"2024-01-01T00:00:00Z","end":"2024-01-01T00:01:00Z","app":"x"}]"#,
         #"a JSON array of 1 value, the first an object with the keys "_id", "data", "start", "end", "app", with no step records"#),
        (#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":{"k":1}}"#,
         #"a JSON object with the keys "a", "b", "c", "d", "e", "f", "g", "h" and 2 more, with no step records"#),
    ])
    func jsonOfAnotherKindIsNotAnExport(_ text: String, _ message: String) throws {
        let error = try #require(Self.failure(text))
        #expect(error.kind == .wrongKind)
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.message.contains("react-native-health-connect"))
    }

    @Test func anEmptyArrayIsZeroRecords() throws {
        let (collector, statistics) = try Self.parse(" [ ] ")
        #expect(collector.entries.isEmpty)
        #expect(statistics.records == 0)
        #expect(statistics.shapes.isEmpty)
    }

    @Test func truncatedJSONSaysSo() throws {
        let cut = String(Self.reactNative.prefix(200))
        let error = try #require(Self.failure(cut))
        #expect(error.kind == .malformed)
        #expect(error.message.hasSuffix("the file is truncated"))
    }

    // MARK: - Internals

    @Test func fieldStorageSlotsDoNotOverlap() {
        // The offsets are written out as constants for speed; they must follow the capacities.
        var next = 0
        for slot in AppDumpJSONParser.Slot.allCases {
            #expect(slot.offset == next, "\(slot)")
            next += slot.capacity
        }
        #expect(AppDumpJSONParser.Slot.storage == next)
    }

    @Test func everyKnownNameIsFoundWhateverItsCase() {
        let table = AppDumpJSONParser.KeyTable(AppDumpJSONParser.Key.allCases)
        for key in AppDumpJSONParser.Key.allCases where key != .unknown {
            for spelling in [key.name, key.name.uppercased(), key.name.lowercased()] {
                var text = spelling
                let found = text.withUTF8 { table.lookup(UnsafeRawBufferPointer($0)) }
                #expect(found == key, "\(spelling)")
            }
        }
        for other in ["", "x", "starttimes", "clientRecordId", "lastModified", "Data Points", String(repeating: "a", count: 300)] {
            var text = other
            #expect(text.withUTF8 { table.lookup(UnsafeRawBufferPointer($0)) } == .unknown, "\(other)")
        }
    }

    // MARK: - Size

    /// Counts without keeping anything, so that the test itself stays flat in memory.
    final class CountingSink: RecordSink {
        var samples = 0
        var steps = 0.0
        var sources = Set<String>()
        func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
            samples += 1
            steps += sample.value
            if sources.count < 10 { sources.insert(String(decoding: sourceUTF8, as: UTF8.self)) }
        }
        func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {}
    }

    @Test func aLargeDumpStreamsThroughInChunks() throws {
        let sink = CountingSink()
        let parser = AppDumpJSONParser(sink: sink, invalidRecords: .fail)
        let records = 200_000
        var chunk: [UInt8] = []
        chunk.reserveCapacity(70_000)
        var expectedSteps = 0
        var fedBytes = 0
        func flush() throws(ParseFailure) {
            let result = chunk.withUnsafeBytes { buffer in Result { () throws(ParseFailure) in try parser.feed(buffer) } }
            try result.get()
            fedBytes += chunk.count
            chunk.removeAll(keepingCapacity: true)
        }
        chunk.append(contentsOf: "{\"records\":[\n".utf8)
        let clock = ContinuousClock()
        let started = clock.now
        for index in 0..<records {
            let start = 1_714_550_400_000 + Int64(index) * 60_000
            let count = index % 97
            expectedSteps += count
            let origin = index % 3 == 0 ? "com.google.android.apps.fitness" : "com.android.healthconnect.phone.pixel"
            let record = "{\"startTime\":\(start),\"endTime\":\(start + 60_000),\"count\":\(count),"
                + "\"startZoneOffset\":{\"id\":\"+01:00\",\"totalSeconds\":3600},"
                + "\"metadata\":{\"id\":\"r\(index)\",\"dataOrigin\":\"\(origin)\",\"device\":{\"type\":0}}}"
                + (index == records - 1 ? "\n" : ",\n")
            chunk.append(contentsOf: record.utf8)
            if chunk.count >= 65_536 {
                try flush()
            }
        }
        chunk.append(contentsOf: "],\"pageToken\":null}".utf8)
        try flush()
        try parser.finish()
        let elapsed = clock.now - started

        #expect(fedBytes > 40_000_000)
        #expect(sink.samples == records)
        #expect(Int(sink.steps) == expectedSteps)
        #expect(sink.sources == ["android", "com.google.android.apps.fitness"])
        #expect(parser.statistics.stepRecords == records)
        #expect(parser.statistics.records == records)
        #expect(parser.statistics.withoutOffset == 0)
        // Generous even for a debug build: a parser that kept the document or quadratic work would not make it.
        #expect(elapsed < .seconds(60))
    }
}
