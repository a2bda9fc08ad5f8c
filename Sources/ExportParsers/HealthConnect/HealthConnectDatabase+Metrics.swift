import CSQLite
import HealthDays

/// The tables of the metrics beyond steps (`stepimport hc --metric`, docs/metrics.md): each row
/// read with the checks of a step row, its value converted from Health Connect's stored unit to
/// the column's, and handed on under its app as `RecordSink.add(_:of:sourceUTF8:)`.
///
/// Units as Health Connect stores them (AOSP `packages/modules/HealthFitness`, the record
/// helpers under `service/.../storage/datatypehelpers` and the internal records of
/// `framework/.../internal/datatypes`): lengths in metres (`Length.getInMeters`), energy in
/// calories, a thousandth of a kilocalorie (`Energy.getInCalories`; a pre-release build stored
/// joules), heart-rate variability in milliseconds, VO2max in mL/(kg·min), floors and beats per
/// minute as counts. Times are UTC milliseconds with the record's own zone offset in seconds.
extension HealthConnectDatabase {
    /// A table of interval records with one value column.
    private struct IntervalTable {
        let metric: Metric
        let table: String
        let column: String
        /// From the stored unit to the column's.
        let factor: Double
    }

    /// A table of instant records (`time`, `zone_offset`) with one value column.
    private struct InstantTable {
        let metric: Metric
        let table: String
        let column: String
    }

    private static let intervalTables = [
        IntervalTable(metric: .distance, table: "distance_record_table", column: "distance", factor: 1),
        IntervalTable(metric: .activeEnergy, table: "active_calories_burned_record_table", column: "energy", factor: 0.001),
        IntervalTable(metric: .totalEnergy, table: "total_calories_burned_record_table", column: "energy", factor: 0.001),
        IntervalTable(metric: .flights, table: "floors_climbed_record_table", column: "floors", factor: 1),
    ]

    private static let instantTables = [
        InstantTable(metric: .restingHeartRate, table: "resting_heart_rate_record_table", column: "beats_per_minute"),
        InstantTable(metric: .heartRateVariabilityRMSSD, table: "heart_rate_variability_rmssd_record_table",
                     column: "heart_rate_variability_millis"),
        InstantTable(metric: .vo2Max, table: "vo2_max_record_table", column: "vo2_milliliters_per_minute_kilogram"),
    ]

    /// Sleep stage types that are sleep (`SleepSessionRecord.StageType`): SLEEPING 2, LIGHT 4,
    /// DEEP 5, REM 6. UNKNOWN 0, AWAKE 1, OUT_OF_BED 3 and AWAKE_IN_BED 7 are not.
    static let asleepStages: Set<Int64> = [2, 4, 5, 6]
    /// The stage types Health Connect defines; any other is an invalid row.
    static let knownStages: ClosedRange<Int64> = 0...7

    /// Reads the tables of every metric in `metrics` other than steps; a table this database does
    /// not have is left out (and named in `statistics.absentTables`).
    func readMetrics(_ metrics: MetricSet, into sink: RecordSink, origins: Origins, policy: InvalidRecordPolicy,
                     statistics: inout HealthConnectDatabaseStatistics) throws(ExportError) {
        let tables = try tableNames()
        func has(_ table: String) -> Bool {
            if tables.contains(table) { return true }
            statistics.absentTables.append(table)
            return false
        }
        // Health Connect's own total (`--rule hc-priority`) needs each row's last_modified_time and
        // the rows in time order, as for steps; every other read takes the rows in row_id order,
        // without last_modified_time.
        let prioritySink = sink.prioritySink
        // The recording method, before the app in every statement (`readRowsHandingSeveral`).
        func method(_ table: String = "") -> String { hasRecordingMethod ? table + "recording_method" : "NULL" }
        for spec in HealthConnectDatabase.intervalTables where metrics.contains(spec.metric) && has(spec.table) {
            var modified: Int32?
            var order = "row_id"
            if let prioritySink {
                let columns = try HealthConnectDatabase.columnNames(of: spec.table, connection, location)
                modified = columns.contains("last_modified_time") ? 5 : nil
                order = "start_time, row_id"
                prioritySink.recordsComeInStartOrder()
            }
            try readRows(spec.table, """
                SELECT row_id, start_time, end_time, start_zone_offset, \(spec.column),\(modified == nil ? "" : " last_modified_time,")
                 \(method()), app_info_id FROM \(spec.table) ORDER BY \(order)
                """, into: sink, origins: origins, policy: policy, statistics: &statistics,
                lastModifiedColumn: modified) { (check, rowID) throws(ExportError) in
                guard var sample = try check.interval(rowID, start: 1, end: 2, offset: 3),
                      let value = try check.number(4, spec.column, rowID)
                else { return nil }
                sample.value = value * spec.factor
                return (spec.metric, sample)
            }
        }
        for spec in HealthConnectDatabase.instantTables where metrics.contains(spec.metric) && has(spec.table) {
            try readRows(spec.table, """
                SELECT row_id, time, time, zone_offset, \(spec.column), \(method()), app_info_id FROM \(spec.table) ORDER BY row_id
                """, into: sink, origins: origins, policy: policy, statistics: &statistics) { (check, rowID) throws(ExportError) in
                guard var sample = try check.interval(rowID, start: 1, end: 2, offset: 3, names: ("time", "time", "zone_offset")),
                      let value = try check.number(4, spec.column, rowID)
                else { return nil }
                sample.value = value
                return (spec.metric, sample)
            }
        }
        if metrics.contains(.heartRate), has("heart_rate_record_table"), has("heart_rate_record_series_table") {
            // Each beat-per-minute reading of a series is a sample at its own time, placed by its
            // record's zone offset and counted under its record's app.
            try readRows("heart_rate_record_series_table", """
                SELECT r.row_id, s.epoch_millis, s.epoch_millis, r.start_zone_offset, s.beats_per_minute, \(method("r.")), r.app_info_id
                FROM heart_rate_record_series_table s JOIN heart_rate_record_table r ON s.parent_key = r.row_id
                ORDER BY r.row_id, s.epoch_millis
                """, into: sink, origins: origins, policy: policy, statistics: &statistics) { (check, rowID) throws(ExportError) in
                guard var sample = try check.interval(rowID, start: 1, end: 2, offset: 3,
                                                      names: ("epoch_millis", "epoch_millis", "start_zone_offset")),
                      let value = try check.number(4, "beats_per_minute", rowID)
                else { return nil }
                sample.value = value
                return (.heartRate, sample)
            }
        }
        if (metrics.contains(.sleep) || metrics.contains(.inBed)), has("sleep_session_record_table") {
            try readSleep(metrics, into: sink, origins: origins, policy: policy, statistics: &statistics,
                          hasStages: has("sleep_stages_table"))
        }
        if metrics.contains(.workouts), has("exercise_session_record_table") {
            try readRows("exercise_session_record_table", """
                SELECT row_id, start_time, end_time, start_zone_offset, 0, \(method()), app_info_id
                FROM exercise_session_record_table ORDER BY row_id
                """, into: sink, origins: origins, policy: policy, statistics: &statistics) { (check, rowID) throws(ExportError) in
                guard var sample = try check.interval(rowID, start: 1, end: 2, offset: 3) else { return nil }
                // Health Connect keeps no moving time: a session's minutes are its span.
                sample.value = Double(sample.endMs - sample.startMs) / 60_000
                return (.workouts, sample)
            }
        }
    }

    /// Sleep sessions: the session's span is time in bed; its asleep stages are sleep, or the
    /// whole session when it has no stages (an app that writes only the night). Both are placed
    /// with the session's `end_zone_offset` (the day a night ends on).
    private func readSleep(_ metrics: MetricSet, into sink: RecordSink, origins: Origins, policy: InvalidRecordPolicy,
                           statistics: inout HealthConnectDatabaseStatistics, hasStages: Bool) throws(ExportError) {
        let staged = hasStages ? "EXISTS (SELECT 1 FROM sleep_stages_table t WHERE t.parent_key = s.row_id)" : "0"
        let method = hasRecordingMethod ? "s.recording_method" : "NULL"
        try readRowsHandingSeveral("sleep_session_record_table", """
            SELECT s.row_id, s.start_time, s.end_time, s.end_zone_offset, \(staged), \(method), s.app_info_id
            FROM sleep_session_record_table s ORDER BY s.row_id
            """, into: sink, origins: origins, policy: policy, statistics: &statistics) { (check, rowID, hand) throws(ExportError) in
            guard let sample = try check.interval(rowID, start: 1, end: 2, offset: 3,
                                                  names: ("start_time", "end_time", "end_zone_offset")) else { return }
            if metrics.contains(.inBed) { hand(.inBed, sample) }
            if metrics.contains(.sleep) && check.statement.int64(4) == 0 { hand(.sleep, sample) }
        }
        guard hasStages, metrics.contains(.sleep) else { return }
        try readRowsHandingSeveral("sleep_stages_table", """
            SELECT s.row_id, t.stage_start_time, t.stage_end_time, s.end_zone_offset, t.stage_type, \(method), s.app_info_id
            FROM sleep_stages_table t JOIN sleep_session_record_table s ON t.parent_key = s.row_id
            ORDER BY s.row_id, t.stage_start_time
            """, into: sink, origins: origins, policy: policy, statistics: &statistics) { (check, rowID, hand) throws(ExportError) in
            guard let sample = try check.interval(rowID, start: 1, end: 2, offset: 3,
                                                  names: ("stage_start_time", "stage_end_time", "end_zone_offset")),
                  let stage = try check.integer(4, "stage_type", rowID)
            else { return }
            guard HealthConnectDatabase.knownStages.contains(stage) else {
                return try check.invalid(rowID, "stage_type \(stage) is not a sleep stage Health Connect defines (0 to 7)")
            }
            if HealthConnectDatabase.asleepStages.contains(stage) { hand(.sleep, sample) }
        }
    }

    /// Reads `sql` row by row: column 0 the row id named in errors, the last column the app, the one
    /// before it the recording method (3: typed in by hand);
    /// `body` turns a row into a sample of a metric (nil: refused or nothing to hand on).
    /// Under `--rule hc-priority` (the sink's `prioritySink`), `lastModifiedColumn` is the
    /// statement's `last_modified_time`, handed on with each sample (nil: the table has none).
    private func readRows(_ table: String, _ sql: String, into sink: RecordSink, origins: Origins, policy: InvalidRecordPolicy,
                          statistics: inout HealthConnectDatabaseStatistics, lastModifiedColumn: Int32? = nil,
                          _ body: (RowCheck, Int64) throws(ExportError) -> (Metric, HealthSample)?) throws(ExportError) {
        try readRowsHandingSeveral(table, sql, into: sink, origins: origins, policy: policy,
                                   statistics: &statistics, lastModifiedColumn: lastModifiedColumn) { (check, rowID, hand) throws(ExportError) in
            if let (metric, sample) = try body(check, rowID) { hand(metric, sample) }
        }
    }

    /// As `readRows`, for rows that may hand on several samples (a sleep session: in bed and
    /// asleep): `body` calls `hand` for each, so no row costs a list.
    private func readRowsHandingSeveral(
        _ table: String, _ sql: String, into sink: RecordSink, origins: Origins, policy: InvalidRecordPolicy,
        statistics: inout HealthConnectDatabaseStatistics, lastModifiedColumn: Int32? = nil,
        _ body: (RowCheck, Int64, (Metric, HealthSample) -> Void) throws(ExportError) -> Void
    ) throws(ExportError) {
        let prioritySink = sink.prioritySink
        let statement = try prepare(sql)
        let check = RowCheck(table: table, statement: statement, policy: policy, location: location)
        let appColumn = Int32(sqlite3_column_count(statement.handle) - 1)
        let methodColumn = appColumn - 1
        var rows = 0
        var handed = 0
        let unknown = Array(HealthConnectDatabase.unknownSource.utf8)
        // Rows of one app come together: its source is looked up when the app changes.
        var lastAppID: Int64? = nil
        var source = unknown
        try HealthConnectDatabase.forEachRow(statement, on: connection, location: location,
                                             while: "reading \(table)") { () throws(ExportError) in
            rows += 1
            let appID = statement.type(appColumn) == SQLITE_INTEGER ? statement.int64(appColumn) : nil
            if appID != lastAppID {
                lastAppID = appID
                source = appID.flatMap { origins.ids[$0] }.map { origins.sources[$0] } ?? unknown
            }
            let byHand = HealthConnectDatabase.isManualEntry(statement.value(methodColumn))
            try body(check, statement.int64(0)) { metric, sample in
                handed += 1
                var sample = sample
                sample.enteredByHand = byHand
                if let prioritySink {
                    let modified = lastModifiedColumn.flatMap { statement.type($0) == SQLITE_INTEGER ? statement.int64($0) : nil }
                    source.withUnsafeBytes { prioritySink.add(sample, of: metric, lastModifiedMs: modified, sourceUTF8: $0) }
                } else {
                    source.withUnsafeBytes { sink.add(sample, of: metric, sourceUTF8: $0) }
                }
            }
        }
        statistics.metricSamples += handed
        statistics.skipped.add(check.skipped, lineShift: 0)
        statistics.metricRows.append(.init(table: table, rows: rows))
    }

    /// The tables this database holds.
    private func tableNames() throws(ExportError) -> Set<String> {
        let statement = try prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names = Set<String>()
        try HealthConnectDatabase.forEachRow(statement, on: connection, location: location,
                                             while: "reading the list of tables") { () throws(ExportError) in
            names.insert(statement.text(0))
        }
        return names
    }
}

extension HealthConnectDatabase.RowCheck {
    /// A record's interval from its start and end columns and the offset column it is placed by,
    /// checked as a step row's is; nil after refusing the row.
    func interval(_ rowID: Int64, start: Int32, end: Int32, offset: Int32,
                           names: (String, String, String) = ("start_time", "end_time", "start_zone_offset"))
        throws(ExportError) -> HealthSample? {
        guard let startMs = try integer(start, names.0, rowID), let endMs = try integer(end, names.1, rowID) else { return nil }
        guard endMs >= startMs else {
            try invalid(rowID, "\(names.1) \(endMs) is before \(names.0) \(startMs)")
            return nil
        }
        guard let zoneOffset = try self.offset(offset, names.2, rowID) else { return nil }
        let sample = HealthSample(startMs: startMs, endMs: endMs, offsetSeconds: zoneOffset, value: 0)
        if let problem = SampleLimits.timeProblem(in: sample) {
            try invalid(rowID, problem.message(steps: "value", start: "\(names.0) \(startMs)", end: "\(names.1) \(endMs)",
                                               offset: "\(names.2) \(zoneOffset ?? 0)"))
            return nil
        }
        return sample
    }
}
