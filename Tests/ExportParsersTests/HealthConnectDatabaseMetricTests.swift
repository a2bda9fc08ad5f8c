import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import TestSupport

/// The metric tables of Health Connect's database (`stepimport hc --metric`): every table read
/// with its stored unit converted, heart-rate series read reading by reading, sleep stages and
/// sessions, exercise sessions, invalid rows refused with table and row named, absent tables
/// reported. The expected samples are worked out by hand from the rows below.
@Suite struct HealthConnectDatabaseMetricTests {
    /// The tables, word for word as in Google's own v9 test database (docs/formats.md).
    static let metricSchema = """
        CREATE TABLE distance_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, distance REAL);
        CREATE TABLE active_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL);
        CREATE TABLE total_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL);
        CREATE TABLE floors_climbed_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, floors REAL);
        CREATE TABLE heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER);
        CREATE TABLE heart_rate_record_series_table (parent_key INTEGER, beats_per_minute INTEGER, epoch_millis INTEGER);
        CREATE TABLE resting_heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, beats_per_minute INTEGER);
        CREATE TABLE heart_rate_variability_rmssd_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, heart_rate_variability_millis REAL NOT NULL);
        CREATE TABLE vo2_max_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_method INTEGER, vo2_milliliters_per_minute_kilogram REAL);
        CREATE TABLE sleep_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, title TEXT);
        CREATE TABLE sleep_stages_table (parent_key INTEGER NOT NULL, stage_start_time INTEGER NOT NULL, stage_end_time INTEGER NOT NULL, stage_type INTEGER NOT NULL);
        CREATE TABLE exercise_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, exercise_type INTEGER, title TEXT, has_route INTEGER);
        """

    /// 2024-06-10T06:13:20Z, and an hour.
    static let t0: Int64 = 1_718_000_000_000
    static let hour: Int64 = 3_600_000
    /// The apps of `DatabaseBuilder`: 3 Google Fit, 4 Samsung Health.
    static let fit = "com.google.android.apps.fitness"
    static let samsung = "com.sec.android.app.shealth"

    static let rows = """
        INSERT INTO distance_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, distance)
          VALUES (x'01', 4, \(t0), 7200, \(t0 + hour), 7200, 5000.5), (x'02', 3, \(t0), 7200, \(t0 + hour), 7200, 4000);
        INSERT INTO active_calories_burned_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, energy)
          VALUES (x'03', 4, \(t0), 7200, \(t0 + hour), 7200, 350000);
        INSERT INTO total_calories_burned_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, energy)
          VALUES (x'0301', 4, \(t0), 7200, \(t0 + hour), 7200, 420500);
        INSERT INTO floors_climbed_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, floors)
          VALUES (x'04', 3, \(t0), 7200, \(t0 + 60_000), 7200, 2);
        INSERT INTO heart_rate_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset)
          VALUES (10, x'05', 4, \(t0), 7200, \(t0 + hour), 7200), (11, x'06', 3, \(t0), -18000, \(t0), -18000);
        INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis)
          VALUES (10, 70, \(t0 + 60_000)), (10, 60, \(t0)), (11, 150, \(t0));
        INSERT INTO resting_heart_rate_record_table (uuid, app_info_id, time, zone_offset, beats_per_minute)
          VALUES (x'07', 4, \(t0), 7200, 52);
        INSERT INTO heart_rate_variability_rmssd_record_table (uuid, app_info_id, time, zone_offset, heart_rate_variability_millis)
          VALUES (x'08', 4, \(t0), 7200, 41.25);
        INSERT INTO vo2_max_record_table (uuid, app_info_id, time, zone_offset, measurement_method, vo2_milliliters_per_minute_kilogram)
          VALUES (x'09', 4, \(t0), 7200, 1, 44.5);
        INSERT INTO sleep_session_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset)
          VALUES (20, x'0a', 4, \(t0 - 8 * hour), 7200, \(t0), 7200), (21, x'0b', 3, \(t0 - 7 * hour), 7200, \(t0), 3600);
        INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type)
          VALUES (20, \(t0 - 8 * hour), \(t0 - 7 * hour), 1), (20, \(t0 - 7 * hour), \(t0 - hour), 4),
                 (20, \(t0 - hour), \(t0 - hour / 2), 6), (20, \(t0 - hour / 2), \(t0), 7);
        INSERT INTO exercise_session_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, exercise_type)
          VALUES (x'0c', 4, \(t0), 7200, \(t0 + 45 * 60_000), 7200, 56);
        """

    /// A database with the step schema, the metric tables and `sql` run on it.
    static func database(_ sql: String, schema: String = metricSchema, in folder: ScratchFolder) throws -> HealthConnectDatabase {
        let path = folder.file("health_connect_export.db")
        try DatabaseBuilder().write([], to: path)
        try DatabaseBuilder.execute(schema + "\n" + sql, at: path)
        return try HealthConnectDatabase(path: path, location: InputLocation(path: path))
    }

    static func read(_ database: HealthConnectDatabase, _ metrics: MetricSet,
                     policy: InvalidRecordPolicy = .fail) throws -> ([MetricCollector.Entry], HealthConnectDatabaseStatistics) {
        let collector = MetricCollector()
        let statistics = try database.read(into: collector, invalidRecords: policy, metrics: metrics)
        return (collector.entries, statistics)
    }

    static func sample(_ start: Int64, _ end: Int64, _ offset: Int32?, _ value: Double) -> HealthSample {
        HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value)
    }

    @Test func everyTableInTheColumnsUnit() throws {
        let folder = ScratchFolder()
        let database = try Self.database(Self.rows, in: folder)
        let all = ExportFamily.android.metrics.subtracting(.steps)
        let (entries, statistics) = try Self.read(database, all)
        let t0 = Self.t0, hour = Self.hour
        let expected: [MetricCollector.Entry] = [
            .init(metric: .distance, source: Self.samsung, sample: Self.sample(t0, t0 + hour, 7200, 5000.5)),
            .init(metric: .distance, source: Self.fit, sample: Self.sample(t0, t0 + hour, 7200, 4000)),
            // Calories as stored: 350,000 cal is 350 kcal.
            .init(metric: .activeEnergy, source: Self.samsung, sample: Self.sample(t0, t0 + hour, 7200, 350)),
            // Total calories in the same unit, as their own metric: never active energy.
            .init(metric: .totalEnergy, source: Self.samsung, sample: Self.sample(t0, t0 + hour, 7200, 420.5)),
            .init(metric: .flights, source: Self.fit, sample: Self.sample(t0, t0 + 60_000, 7200, 2)),
            .init(metric: .restingHeartRate, source: Self.samsung, sample: Self.sample(t0, t0, 7200, 52)),
            .init(metric: .heartRateVariabilityRMSSD, source: Self.samsung, sample: Self.sample(t0, t0, 7200, 41.25)),
            .init(metric: .vo2Max, source: Self.samsung, sample: Self.sample(t0, t0, 7200, 44.5)),
            // Each reading of a series at its own time (in time order), placed by its record's offset.
            .init(metric: .heartRate, source: Self.samsung, sample: Self.sample(t0, t0, 7200, 60)),
            .init(metric: .heartRate, source: Self.samsung, sample: Self.sample(t0 + 60_000, t0 + 60_000, 7200, 70)),
            .init(metric: .heartRate, source: Self.fit, sample: Self.sample(t0, t0, -18000, 150)),
            // Sessions: the span is in bed, placed by the end offset; 21 has no stages, so it is sleep whole.
            .init(metric: .inBed, source: Self.samsung, sample: Self.sample(t0 - 8 * hour, t0, 7200, 0)),
            .init(metric: .inBed, source: Self.fit, sample: Self.sample(t0 - 7 * hour, t0, 3600, 0)),
            .init(metric: .sleep, source: Self.fit, sample: Self.sample(t0 - 7 * hour, t0, 3600, 0)),
            // Stages of 20: light and REM are sleep; awake (1) and awake in bed (7) are not.
            .init(metric: .sleep, source: Self.samsung, sample: Self.sample(t0 - 7 * hour, t0 - hour, 7200, 0)),
            .init(metric: .sleep, source: Self.samsung, sample: Self.sample(t0 - hour, t0 - hour / 2, 7200, 0)),
            .init(metric: .workouts, source: Self.samsung, sample: Self.sample(t0, t0 + 45 * 60_000, 7200, 45)),
        ]
        #expect(entries == expected)
        #expect(statistics.metricSamples == expected.count)
        #expect(statistics.rows == 0, "steps were not asked for, so steps_record_table is not read")
        #expect(statistics.absentTables.isEmpty)
    }

    @Test func onlyTheMetricsAskedForAreRead() throws {
        let folder = ScratchFolder()
        let database = try Self.database(Self.rows, in: folder)
        let (entries, statistics) = try Self.read(database, MetricSet([.steps, .vo2Max]))
        #expect(entries.map(\.metric) == [.vo2Max])
        #expect(statistics.metricRows == [.init(table: "vo2_max_record_table", rows: 1)])
        // And steps alone read no metric table at all.
        let (stepsOnly, stepStatistics) = try Self.read(database, .steps)
        #expect(stepsOnly.isEmpty)
        #expect(stepStatistics.metricRows.isEmpty)
    }

    @Test func anAbsentTableIsReportedNotAnError() throws {
        let folder = ScratchFolder()
        let database = try Self.database("", schema: "", in: folder)
        let (entries, statistics) = try Self.read(database, MetricSet([.vo2Max, .sleep]))
        #expect(entries.isEmpty)
        #expect(statistics.absentTables == ["vo2_max_record_table", "sleep_session_record_table"])
    }

    @Test(arguments: [
        ("INSERT INTO distance_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, distance) VALUES (x'01', 4, 2000, 0, 1000, 0, 5)",
         "distance_record_table row_id 1: end_time 1000 is before start_time 2000"),
        ("INSERT INTO distance_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, distance) VALUES (x'01', 4, 1000, 0, 2000, 0, -5)",
         "distance_record_table row_id 1: distance -5.0 is not a non-negative number"),
        ("INSERT INTO resting_heart_rate_record_table (uuid, app_info_id, time, zone_offset, beats_per_minute) VALUES (x'01', 4, 1000, 90000, 52)",
         "resting_heart_rate_record_table row_id 1: zone_offset 90000 is not a UTC offset in seconds (-64800 to 64800)"),
        ("INSERT INTO sleep_session_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset) VALUES (5, x'01', 4, 1000, 0, 2000, 0); INSERT INTO sleep_stages_table VALUES (5, 1000, 2000, 9)",
         "sleep_stages_table row_id 5: stage_type 9 is not a sleep stage Health Connect defines (0 to 7)"),
        ("INSERT INTO vo2_max_record_table (uuid, app_info_id, time, zone_offset, vo2_milliliters_per_minute_kilogram) VALUES (x'01', 4, 1000, 0, NULL)",
         "vo2_max_record_table row_id 1: vo2_milliliters_per_minute_kilogram is NULL"),
    ])
    func anInvalidRowNamesItsTableAndRow(_ sql: String, _ problem: String) throws {
        let folder = ScratchFolder()
        let database = try Self.database(sql, in: folder)
        #expect(throws: ExportError.invalidRecord(database.location, at: .none, problem: problem)) {
            try Self.read(database, ExportFamily.android.metrics)
        }
        // Skipped and counted instead, and the read goes on.
        let (_, statistics) = try Self.read(database, ExportFamily.android.metrics, policy: .skip)
        #expect(statistics.skipped.count == 1)
    }

    @Test func theDayRulesOnTopGiveTheDaysByHand() throws {
        let folder = ScratchFolder()
        let database = try Self.database(Self.rows, in: folder)
        let aggregator = MetricAggregator(metrics: ExportFamily.android.metrics, rule: .recordedOffset)
        _ = try database.read(into: aggregator, metrics: ExportFamily.android.metrics)
        try aggregator.finish()
        let days = aggregator.days()
        // 06:13Z at +0200 is 2024-06-10 08:13; the Fit heart rate at -0500 is 01:13 the same day.
        let june10 = try #require(days.first { $0.date == LocalDate("2024-06-10") })
        #expect(june10[.distanceMetres] == 5001, "Samsung's 5,000.5 m rounds half away; Fit's 4,000 m is lower")
        #expect(june10[.activeKilocalories] == 350)
        #expect(june10[.flights] == 2)
        #expect(june10[.heartRateAverage] == 65, "Samsung has two readings, Fit one: Samsung's mean")
        #expect(june10[.heartRateMinimum] == 60)
        #expect(june10[.heartRateMaximum] == 70)
        #expect(june10[.restingHeartRate] == 52)
        #expect(june10[.heartRateVariabilityRMSSD] == 41.3, "41.25 rounds half away from zero")
        #expect(june10[.vo2Max] == 44.5)
        // Samsung: light 6 h + REM 30 min = 390 min; Fit's stage-less session 7 h = 420 min wins.
        #expect(june10[.sleepMinutes] == 420)
        #expect(june10[.inBedMinutes] == 480)
        #expect(june10[.workouts] == 1)
        #expect(june10[.workoutMinutes] == 45)
        #expect(days.count == 1)
    }
}
