import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import TestSupport

/// The metric records of apps' JSON dumps (docs/metrics.md, *App JSON dumps*), shape by shape:
/// the type told from a type word or from the fields, units converted or refused, heart-rate
/// samples each a reading at its own time under its record's app and offset (which come after
/// them), sleep stages and sessions, invalid records refused or skipped. Every expected sample is
/// worked out by hand from the text above it.
@Suite struct AppDumpJSONMetricRecordTests {
    typealias Entry = MetricCollector.Entry

    static func parse(_ text: String, chunk: Int = 1 << 16, policy: InvalidRecordPolicy = .fail,
                      metrics: MetricSet = .all) throws(ParseFailure) -> (entries: [Entry], statistics: AppDumpJSONStatistics) {
        let collector = MetricCollector()
        let parser = AppDumpJSONParser(sink: collector, invalidRecords: policy, metrics: metrics)
        try feedJSON(Array(text.utf8), to: parser, chunk: chunk)
        return (collector.entries, parser.statistics)
    }

    static func failure(_ text: String) -> ParseFailure? {
        do {
            _ = try parse(text, chunk: 3)
            return nil
        } catch {
            return error
        }
    }

    static func entry(_ metric: Metric, _ source: String, _ start: Int64, _ end: Int64, _ offset: Int32?, _ value: Double,
                      wall: Bool = false) -> Entry {
        Entry(metric: metric, source: source, sample: HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value,
                                                                 wallClock: wall))
    }

    /// 2025-03-20T08:00:00Z, and a minute.
    static let t0: Int64 = 1_742_457_600_000
    static let minute: Int64 = 60_000
    static let chunks = [1, 7, 1 << 16]

    // MARK: - react-native-health-connect

    static let offset = #""startZoneOffset":{"id":"+01:00","totalSeconds":3600},"endZoneOffset":{"id":"+02:00","totalSeconds":7200}"#
    static let metadata = #""metadata":{"id":"m","dataOrigin":"com.sec.android.app.shealth","device":{"type":0}}"#

    static let reactNative = """
        {"Distance":{"records":[
          {"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T08:10:00.000Z",\(offset),
           "distance":{"inMeters":812.5,"inKilometers":0.8125,"inFeet":2665.68},\(metadata)},
          {"startTime":"2025-03-20T09:00:00.000Z","endTime":"2025-03-20T09:10:00.000Z","distance":{"inKilometers":1.5},\(metadata)}],
          "pageToken":null},
         "ActiveCaloriesBurned":{"records":[{"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T08:10:00.000Z",
           "energy":{"inCalories":41000,"inJoules":171544,"inKilocalories":41,"inKilojoules":171.544},\(metadata)}]},
         "TotalCaloriesBurned":{"records":[{"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T09:00:00.000Z",
           "energy":{"inCalories":95000},\(metadata)}]},
         "FloorsClimbed":{"records":[{"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T08:01:00.000Z","floors":2,\(metadata)}]},
         "HeartRate":{"records":[{"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T08:10:00.000Z",
           "samples":[{"time":"2025-03-20T08:00:00.000Z","beatsPerMinute":71},{"time":"2025-03-20T08:05:00.000Z","beatsPerMinute":88}],
           \(offset),\(metadata)}]},
         "RestingHeartRate":{"records":[{"time":"2025-03-20T08:00:00.000Z","zoneOffset":{"id":"+01:00","totalSeconds":3600},
           "beatsPerMinute":52,\(metadata)}]},
         "HeartRateVariabilityRmssd":{"records":[{"time":"2025-03-20T08:00:00.000Z","heartRateVariabilityMillis":41.25,\(metadata)}]},
         "Vo2Max":{"records":[{"time":"2025-03-20T08:00:00.000Z","vo2MillilitersPerMinuteKilogram":44.5,"measurementMethod":1,\(metadata)}]},
         "SleepSession":{"records":[
           {"startTime":"2025-03-20T00:00:00.000Z","endTime":"2025-03-20T08:00:00.000Z","title":null,"notes":null,
            "stages":[{"startTime":"2025-03-20T00:00:00.000Z","endTime":"2025-03-20T01:00:00.000Z","stage":1},
                      {"startTime":"2025-03-20T01:00:00.000Z","endTime":"2025-03-20T07:00:00.000Z","stage":4},
                      {"startTime":"2025-03-20T07:00:00.000Z","endTime":"2025-03-20T08:00:00.000Z","stage":6}],\(offset),\(metadata)},
           {"startTime":"2025-03-20T13:00:00.000Z","endTime":"2025-03-20T13:30:00.000Z","stages":[],\(metadata)}]},
         "ExerciseSession":{"records":[{"startTime":"2025-03-20T10:00:00.000Z","endTime":"2025-03-20T10:45:00.000Z",
           "exerciseType":79,"title":null,\(metadata)}]}}
        """

    @Test(arguments: chunks)
    func reactNativeRecordsByTheirFieldsAndMembers(_ chunk: Int) throws {
        let (entries, statistics) = try Self.parse(Self.reactNative, chunk: chunk)
        let watch = "com.sec.android.app.shealth"
        let t0 = Self.t0, minute = Self.minute, hour = 60 * minute
        #expect(entries == [
            Self.entry(.distance, watch, t0, t0 + 10 * minute, 3600, 812.5),
            Self.entry(.distance, watch, t0 + hour, t0 + hour + 10 * minute, nil, 1500),
            Self.entry(.activeEnergy, watch, t0, t0 + 10 * minute, nil, 41),
            Self.entry(.totalEnergy, watch, t0, t0 + hour, nil, 95),
            Self.entry(.flights, watch, t0, t0 + minute, nil, 2),
            Self.entry(.heartRate, watch, t0, t0, 3600, 71),
            Self.entry(.heartRate, watch, t0 + 5 * minute, t0 + 5 * minute, 3600, 88),
            Self.entry(.restingHeartRate, watch, t0, t0, 3600, 52),
            Self.entry(.heartRateVariabilityRMSSD, watch, t0, t0, nil, 41.25),
            Self.entry(.vo2Max, watch, t0, t0, nil, 44.5),
            // In bed is the session's span; sleep its light and REM stages, in its end offset.
            Self.entry(.inBed, watch, t0 - 8 * hour, t0, 7200, 0),
            Self.entry(.sleep, watch, t0 - 7 * hour, t0 - hour, 7200, 0),
            Self.entry(.sleep, watch, t0 - hour, t0, 7200, 0),
            // A session without stages: all of it is sleep.
            Self.entry(.inBed, watch, t0 + 5 * hour, t0 + 5 * hour + 30 * minute, nil, 0),
            Self.entry(.sleep, watch, t0 + 5 * hour, t0 + 5 * hour + 30 * minute, nil, 0),
            Self.entry(.workouts, watch, t0 + 2 * hour, t0 + 2 * hour + 45 * minute, nil, 45),
        ])
        #expect(statistics.shapes == [.reactNativeHealthConnect])
        #expect(statistics.untypedEnergyRecords == 0)
    }

    /// An energy record under no member naming its type is left out and counted: active and
    /// total calories are written alike, and a total must never be taken for an active one.
    @Test func energyWithNoTypeIsLeftOutAndCounted() throws {
        let text = """
            {"records":[{"startTime":"2025-03-20T08:00:00.000Z","endTime":"2025-03-20T09:00:00.000Z","energy":{"inKilocalories":90},\(Self.metadata)}]}
            """
        let (entries, statistics) = try Self.parse(text)
        #expect(entries.isEmpty)
        #expect(statistics.untypedEnergyRecords == 1)
        let typed = text.replacingOccurrences(of: "\"energy\"", with: "\"recordType\":\"TotalCaloriesBurned\",\"energy\"")
        #expect(try Self.parse(typed).entries.map(\.metric) == [.totalEnergy])
    }

    /// Metrics not asked for cost nothing: no samples, and a steps-only parser reads the dump's
    /// steps exactly as before.
    @Test func onlyTheMetricsAskedForAreHandedOn() throws {
        let (entries, _) = try Self.parse(Self.reactNative, metrics: MetricSet([.steps, .sleep]))
        #expect(Set(entries.map(\.metric)) == [.sleep])
        let (none, statistics) = try Self.parse(Self.reactNative, metrics: .steps)
        #expect(none.isEmpty)
        #expect(statistics.metricSamples == 0)
    }

    // MARK: - HCGateway

    static let hcGateway = """
        {"heartRate":[{"_id":"a","id":"a","data":{"samples":[{"time":"2025-03-20T08:00:00Z","beatsPerMinute":64},
           {"time":"2025-03-20T08:01:00Z","beatsPerMinute":66}]},"app":"com.google.android.apps.fitness",
           "start":"2025-03-20T08:00:00Z","end":"2025-03-20T08:01:00Z"}],
         "restingHeartRate":[{"_id":"b","id":"b","data":{"beatsPerMinute":49},"app":"com.ouraring.oura","start":"2025-03-20T06:00:00Z","end":null}],
         "activeCaloriesBurned":[{"_id":"c","id":"c","data":{"energy":{"inKilocalories":120.5}},"app":"android",
           "start":"2025-03-20T08:00:00Z","end":"2025-03-20T09:00:00Z"}],
         "sleepSession":[{"_id":"d","id":"d","data":{"title":null,"stages":[{"startTime":"2025-03-20T01:00:00Z",
           "endTime":"2025-03-20T05:00:00Z","stage":5},{"startTime":"2025-03-20T05:00:00Z","endTime":"2025-03-20T06:00:00Z","stage":7}]},
           "app":"com.ouraring.oura","start":"2025-03-20T00:30:00Z","end":"2025-03-20T06:00:00Z"}]}
        """

    @Test(arguments: chunks)
    func hcGatewayDataUnderItsCollections(_ chunk: Int) throws {
        let (entries, statistics) = try Self.parse(Self.hcGateway, chunk: chunk)
        let t0 = Self.t0, minute = Self.minute, hour = 60 * minute
        let fit = "com.google.android.apps.fitness", oura = "com.ouraring.oura"
        #expect(entries == [
            Self.entry(.heartRate, fit, t0, t0, nil, 64),
            Self.entry(.heartRate, fit, t0 + minute, t0 + minute, nil, 66),
            Self.entry(.restingHeartRate, oura, t0 - 2 * hour, t0 - 2 * hour, nil, 49),
            Self.entry(.activeEnergy, "android", t0, t0 + hour, nil, 120.5),
            Self.entry(.inBed, oura, t0 - 7 * hour - 30 * minute, t0 - 2 * hour, nil, 0),
            Self.entry(.sleep, oura, t0 - 7 * hour, t0 - 3 * hour, nil, 0),
        ])
        #expect(statistics.shapes == [.hcGateway])
    }

    // MARK: - Capacitor

    static func capacitor(_ records: String) -> String {
        "{\"records\":[" + records + "]}"
    }

    static let capacitorRecords = """
        {"type":"Distance","metadata":{"id":"x","dataOrigin":"com.google.android.apps.fitness"},"startTime":"2025-03-20T08:00:00Z",
         "startZoneOffset":"+05:30","endTime":"2025-03-20T08:10:00Z","endZoneOffset":"+05:30","distance":{"unit":"kilometer","value":1.25}},
        {"type":"ActiveCaloriesBurned","metadata":{"id":"y","dataOrigin":"com.google.android.apps.fitness"},
         "startTime":"2025-03-20T08:00:00Z","endTime":"2025-03-20T08:10:00Z","energy":{"unit":"calories","value":55000}},
        {"type":"HeartRateSeries","metadata":{"id":"z","dataOrigin":"com.google.android.apps.fitness"},"startTime":"2025-03-20T08:00:00Z",
         "startZoneOffset":"-04:00","endTime":"2025-03-20T08:00:00Z","samples":[{"time":"2025-03-20T08:00:00Z","beatsPerMinute":90}]},
        {"type":"SleepSession","metadata":{"id":"s","dataOrigin":"com.urbandroid.sleep"},"startTime":"2025-03-20T00:00:00Z",
         "endTime":"2025-03-20T02:00:00Z","stages":[{"startTime":"2025-03-20T00:00:00Z","endTime":"2025-03-20T01:00:00Z","stage":"awake_in_bed"},
         {"startTime":"2025-03-20T01:00:00Z","endTime":"2025-03-20T02:00:00Z","stage":"sleeping"}]}
        """

    @Test(arguments: chunks)
    func capacitorUnitsAndStageWords(_ chunk: Int) throws {
        let (entries, statistics) = try Self.parse(Self.capacitor(Self.capacitorRecords), chunk: chunk)
        let t0 = Self.t0, minute = Self.minute, hour = 60 * minute
        let fit = "com.google.android.apps.fitness"
        #expect(entries == [
            Self.entry(.distance, fit, t0, t0 + 10 * minute, 19800, 1250),
            // Capacitor's energy is in (small) calories.
            Self.entry(.activeEnergy, fit, t0, t0 + 10 * minute, nil, 55),
            Self.entry(.heartRate, fit, t0, t0, -14400, 90),
            Self.entry(.inBed, "com.urbandroid.sleep", t0 - 8 * hour, t0 - 6 * hour, nil, 0),
            Self.entry(.sleep, "com.urbandroid.sleep", t0 - 7 * hour, t0 - 6 * hour, nil, 0),
        ])
        #expect(statistics.shapes == [.capacitor])
    }

    /// A unit stepimport does not know is an invalid record naming the unit and the known ones:
    /// the read stops (`.fail`), or skips and counts it and keeps the others (`.skip`).
    @Test func anUnknownUnitIsRefusedNeverGuessed() throws {
        let furlong = """
            {"type":"Distance","metadata":{"dataOrigin":"com.a"},"startTime":"2025-03-20T08:00:00Z","endTime":"2025-03-20T08:10:00Z",
             "distance":{"unit":"furlong","value":3}}
            """
        let text = Self.capacitor(furlong + "," + Self.capacitorRecords)
        let failure = try #require(Self.failure(text))
        #expect(failure.kind == .invalidRecord)
        #expect(failure.record == "distance record")
        #expect(failure.line == 1 && failure.column == 13)
        #expect(failure.message.contains("unit \"furlong\" is not a unit of distance"), "\(failure.message)")
        #expect(failure.message.contains("meter, kilometer"), "\(failure.message)")
        let (entries, statistics) = try Self.parse(text, policy: .skip)
        #expect(entries.count == 5)
        #expect(statistics.skipped.count == 1)
    }

    // MARK: - Flutter health

    static func flutterPoint(_ type: String, _ unit: String, _ value: String, from: String, to: String) -> String {
        """
        {"uuid":"u","value":{"__type":"NumericHealthValue","numericValue":\(value)},"type":"\(type)","unit":"\(unit)",\
        "dateFrom":"\(from)","dateTo":"\(to)","sourcePlatform":"googleHealthConnect","sourceDeviceId":"d",\
        "sourceId":"com.a","sourceName":"com.a","recordingMethod":"automatic"}
        """
    }

    @Test(arguments: chunks)
    func flutterPointsByTypeAndUnit(_ chunk: Int) throws {
        let points = [
            Self.flutterPoint("DISTANCE_DELTA", "MILE", "0.5", from: "2025-03-20T08:00:00.000", to: "2025-03-20T08:10:00.000"),
            Self.flutterPoint("TOTAL_CALORIES_BURNED", "KILOCALORIE", "1800", from: "2025-03-20T00:00:00.000", to: "2025-03-20T08:00:00.000"),
            Self.flutterPoint("HEART_RATE", "BEATS_PER_MINUTE", "77", from: "2025-03-20T08:00:00.000", to: "2025-03-20T08:00:00.000"),
            Self.flutterPoint("HEART_RATE_VARIABILITY_RMSSD", "SECOND", "0.04", from: "2025-03-20T08:00:00.000", to: "2025-03-20T08:00:00.000"),
            Self.flutterPoint("SLEEP_SESSION", "MINUTE", "60", from: "2025-03-20T07:00:00.000", to: "2025-03-20T08:00:00.000"),
            Self.flutterPoint("SLEEP_AWAKE", "MINUTE", "20", from: "2025-03-20T07:00:00.000", to: "2025-03-20T07:20:00.000"),
            Self.flutterPoint("SLEEP_DEEP", "MINUTE", "40", from: "2025-03-20T07:20:00.000", to: "2025-03-20T08:00:00.000"),
            """
            {"value":{"__type":"WorkoutHealthValue","workoutActivityType":"BIKING"},"type":"WORKOUT","unit":"NO_UNIT",\
            "dateFrom":"2025-03-20T10:00:00.000","dateTo":"2025-03-20T10:30:00.000","sourcePlatform":"googleHealthConnect","sourceName":"com.a"}
            """,
            """
            {"value":{"numeric_value":4},"data_type":"FLIGHTS_CLIMBED","unit":"COUNT","date_from":"2025-03-20T08:00:00.000",\
            "date_to":"2025-03-20T08:05:00.000","platform_type":"ANDROID","source_name":"com.a"}
            """,
        ]
        let (entries, statistics) = try Self.parse("[" + points.joined(separator: ",\n") + "]", chunk: chunk)
        let t0 = Self.t0, minute = Self.minute, hour = 60 * minute
        #expect(entries == [
            Self.entry(.distance, "com.a", t0, t0 + 10 * minute, nil, 804.672, wall: true),
            Self.entry(.totalEnergy, "com.a", t0 - 8 * hour, t0, nil, 1800, wall: true),
            Self.entry(.heartRate, "com.a", t0, t0, nil, 77, wall: true),
            Self.entry(.heartRateVariabilityRMSSD, "com.a", t0, t0, nil, 40, wall: true),
            Self.entry(.inBed, "com.a", t0 - hour, t0, nil, 0, wall: true),
            Self.entry(.sleep, "com.a", t0 - 40 * minute, t0, nil, 0, wall: true),
            Self.entry(.workouts, "com.a", t0 + 2 * hour, t0 + 2 * hour + 30 * minute, nil, 30, wall: true),
            Self.entry(.flights, "com.a", t0, t0 + 5 * minute, nil, 4, wall: true),
        ])
        #expect(statistics.shapes == [.flutterHealth])
    }

    @Test func aFlutterValueWithoutItsUnitIsRefused() throws {
        let point = Self.flutterPoint("DISTANCE_DELTA", "METER", "12", from: "2025-03-20T08:00:00.000", to: "2025-03-20T08:10:00.000")
        let failure = try #require(Self.failure("[" + point.replacingOccurrences(of: "\"unit\":\"METER\",", with: "") + "]"))
        #expect(failure.message.contains("has no unit"), "\(failure.message)")
        let grams = try #require(Self.failure("[" + point.replacingOccurrences(of: "METER", with: "GRAM") + "]"))
        #expect(grams.message.contains("unit \"GRAM\" is not a unit of distance"), "\(grams.message)")
    }

    // MARK: - Invalid values

    @Test(arguments: [
        (#""beatsPerMinute":-3"#, "beatsPerMinute -3 is not a non-negative number"),
        (#""beatsPerMinute":"fast""#, "beatsPerMinute \"fast\" is not a non-negative number"),
        (#""beatsPerMinute":1e400"#, "beatsPerMinute 1e400 is not a non-negative number"),
    ])
    func anInvalidValueIsRefusedOrSkipped(_ member: String, _ message: String) throws {
        let bad = "{\"time\":\"2025-03-20T08:00:00Z\",\(member),\(Self.metadata)}"
        let good = "{\"time\":\"2025-03-20T09:00:00Z\",\"beatsPerMinute\":50,\(Self.metadata)}"
        let text = "{\"records\":[" + bad + "," + good + "]}"
        let failure = try #require(Self.failure(text))
        #expect(failure.message == message)
        #expect(failure.record == "resting-hr record")
        let (entries, statistics) = try Self.parse(text, policy: .skip)
        #expect(entries.map(\.sample.value) == [50])
        #expect(statistics.skipped.count == 1)
    }

    @Test func anUnknownSleepStageAndABadSampleTimeAreRefused() throws {
        let stage = """
            {"records":[{"startTime":"2025-03-20T00:00:00Z","endTime":"2025-03-20T02:00:00Z",
             "stages":[{"startTime":"2025-03-20T00:00:00Z","endTime":"2025-03-20T01:00:00Z","stage":9}],\(Self.metadata)}]}
            """
        let failure = try #require(Self.failure(stage))
        #expect(failure.message.hasPrefix("stage 9 is not a sleep stage Health Connect defines"), "\(failure.message)")
        #expect(failure.record == "sleep stage")
        #expect(failure.line == 2)
        let sample = """
            {"records":[{"startTime":"2025-03-20T00:00:00Z","endTime":"2025-03-20T02:00:00Z",
             "samples":[{"time":"yesterday","beatsPerMinute":60},{"time":"2025-03-20T01:00:00Z","beatsPerMinute":61}],\(Self.metadata)}]}
            """
        #expect(try #require(Self.failure(sample)).message.contains("\"yesterday\" is not a time"))
        let (entries, statistics) = try Self.parse(sample, policy: .skip)
        #expect(entries.map(\.sample.value) == [61])
        #expect(statistics.skipped.count == 1)
    }

    // MARK: - Memory

    /// A series of more samples than the spool keeps in memory, all before the record's app:
    /// every sample handed on under it, in order (the rest went through a temporary file).
    @Test func aLongSeriesStreamsThroughTheSpool() throws {
        let count = MetricSpool.memoryLimit * 2 + 17
        var text = "{\"records\":[{\"startTime\":\"2025-03-20T00:00:00Z\",\"endTime\":\"2025-03-21T00:00:00Z\",\"samples\":["
        text.reserveCapacity(count * 48)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += "{\"time\":\(Self.t0 + Int64(index)),\"beatsPerMinute\":\(60 + index % 50)}"
        }
        text += "]," + Self.metadata + "}]}"
        let (entries, _) = try Self.parse(text)
        #expect(entries.count == count)
        #expect(entries.allSatisfy { $0.source == "com.sec.android.app.shealth" && $0.metric == .heartRate })
        #expect(entries.enumerated().allSatisfy { $0.element.sample.startMs == Self.t0 + Int64($0.offset) })
        #expect(entries.last?.sample.value == Double(60 + (count - 1) % 50))
    }
}
