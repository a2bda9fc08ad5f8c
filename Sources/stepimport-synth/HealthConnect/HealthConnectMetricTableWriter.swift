import CSQLite

/// Writes the metric tables of Health Connect's export (docs/metrics.md) into the database a
/// `HealthConnectDatabaseWriter` has open, in the same transaction: distance, active and total
/// calories, floors, heart rate with its series, resting heart rate, HRV (RMSSD), VO2max, sleep
/// sessions with their stages, exercise sessions.
///
/// The tables are created word for word as Google's own test database of `user_version` 9 has
/// them (foreign keys and indexes included): the columns the reader needs are the same in every
/// version from 9 on.
final class HealthConnectMetricTableWriter {
    /// The CREATE statements, verbatim from the version-9 database (`.schema TABLE`).
    static let schema: [String] = [
        "CREATE TABLE distance_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, distance REAL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_distance_record_table_0 ON distance_record_table(device_info_id);",
        "CREATE INDEX idx_distance_record_table_1 ON distance_record_table(app_info_id);",
        "CREATE TABLE active_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_active_calories_burned_record_table_0 ON active_calories_burned_record_table(device_info_id);",
        "CREATE INDEX idx_active_calories_burned_record_table_1 ON active_calories_burned_record_table(app_info_id);",
        "CREATE TABLE total_calories_burned_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, energy REAL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_total_calories_burned_record_table_0 ON total_calories_burned_record_table(device_info_id);",
        "CREATE INDEX idx_total_calories_burned_record_table_1 ON total_calories_burned_record_table(app_info_id);",
        "CREATE TABLE floors_climbed_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, floors REAL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_floors_climbed_record_table_0 ON floors_climbed_record_table(device_info_id);",
        "CREATE INDEX idx_floors_climbed_record_table_1 ON floors_climbed_record_table(app_info_id);",
        "CREATE TABLE heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_heart_rate_record_table_0 ON heart_rate_record_table(device_info_id);",
        "CREATE INDEX idx_heart_rate_record_table_1 ON heart_rate_record_table(app_info_id);",
        "CREATE TABLE heart_rate_record_series_table (parent_key INTEGER, beats_per_minute INTEGER, epoch_millis INTEGER,  FOREIGN KEY (parent_key) REFERENCES heart_rate_record_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_heart_rate_record_series_table_0 ON heart_rate_record_series_table(parent_key);",
        "CREATE TABLE resting_heart_rate_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, beats_per_minute INTEGER,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_resting_heart_rate_record_table_0 ON resting_heart_rate_record_table(device_info_id);",
        "CREATE INDEX idx_resting_heart_rate_record_table_1 ON resting_heart_rate_record_table(app_info_id);",
        "CREATE TABLE heart_rate_variability_rmssd_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, heart_rate_variability_millis REAL NOT NULL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_heart_rate_variability_rmssd_record_table_0 ON heart_rate_variability_rmssd_record_table(device_info_id);",
        "CREATE INDEX idx_heart_rate_variability_rmssd_record_table_1 ON heart_rate_variability_rmssd_record_table(app_info_id);",
        "CREATE TABLE vo2_max_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER, zone_offset INTEGER, local_date INTEGER, measurement_method INTEGER, vo2_milliliters_per_minute_kilogram REAL,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_vo2_max_record_table_0 ON vo2_max_record_table(device_info_id);",
        "CREATE INDEX idx_vo2_max_record_table_1 ON vo2_max_record_table(app_info_id);",
        "CREATE TABLE sleep_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, title TEXT,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_sleep_session_record_table_0 ON sleep_session_record_table(device_info_id);",
        "CREATE INDEX idx_sleep_session_record_table_1 ON sleep_session_record_table(app_info_id);",
        "CREATE TABLE sleep_stages_table (parent_key INTEGER NOT NULL, stage_start_time INTEGER NOT NULL, stage_end_time INTEGER NOT NULL, stage_type INTEGER NOT NULL,  FOREIGN KEY (parent_key) REFERENCES sleep_session_record_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_sleep_stages_table_0 ON sleep_stages_table(parent_key);",
        "CREATE TABLE exercise_session_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER, notes TEXT, exercise_type INTEGER, title TEXT, has_route INTEGER,  FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,  FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);",
        "CREATE INDEX idx_exercise_session_record_table_0 ON exercise_session_record_table(device_info_id);",
        "CREATE INDEX idx_exercise_session_record_table_1 ON exercise_session_record_table(app_info_id);",
    ]

    private let connection: OpaquePointer
    private let path: String
    private var quantityInserts: [HealthConnectQuantityRecord.Kind: OpaquePointer] = [:]
    private var heartRateInsert: OpaquePointer?
    private var heartRateSampleInsert: OpaquePointer?
    private var instantInserts: [HealthConnectInstantRecord.Kind: OpaquePointer] = [:]
    private var sleepInsert: OpaquePointer?
    private var stageInsert: OpaquePointer?
    private var exerciseInsert: OpaquePointer?
    /// Rows written to every metric table (series samples and stages included).
    private(set) var rows = 0

    /// The columns every record table has after `row_id`, bound as ?1 to ?8.
    private static let metadataColumns = """
        uuid, last_modified_time, client_record_id, client_record_version, device_info_id, app_info_id,
        recording_method, dedupe_hash
        """
    private static let metadataParameters = "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8"

    /// Creates the tables in `writer`'s database and prepares the inserts.
    init(into writer: HealthConnectDatabaseWriter) throws(SynthError) {
        guard let connection = writer.connection else {
            throw SynthError.writeFailed(path: writer.path, reason: "SQLite: database closed")
        }
        self.connection = connection
        path = writer.path
        try execute(HealthConnectMetricTableWriter.schema.joined(separator: "\n"))
        let metadata = HealthConnectMetricTableWriter.metadataColumns
        let parameters = HealthConnectMetricTableWriter.metadataParameters
        for kind in HealthConnectQuantityRecord.Kind.allCases {
            quantityInserts[kind] = try prepare("""
                INSERT INTO \(kind.table) (\(metadata), start_time, start_zone_offset, end_time, end_zone_offset,
                 local_date, \(kind.valueColumn)) VALUES (\(parameters), ?9, ?10, ?11, ?12, ?13, ?14)
                """)
        }
        heartRateInsert = try prepare("""
            INSERT INTO heart_rate_record_table (\(metadata), start_time, start_zone_offset, end_time, end_zone_offset,
             local_date) VALUES (\(parameters), ?9, ?10, ?11, ?12, ?13)
            """)
        heartRateSampleInsert = try prepare("""
            INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (?1, ?2, ?3)
            """)
        instantInserts[.restingHeartRate] = try prepare("""
            INSERT INTO resting_heart_rate_record_table (\(metadata), time, zone_offset, local_date, beats_per_minute)
             VALUES (\(parameters), ?9, ?10, ?11, ?12)
            """)
        instantInserts[.heartRateVariability] = try prepare("""
            INSERT INTO heart_rate_variability_rmssd_record_table (\(metadata), time, zone_offset, local_date,
             heart_rate_variability_millis) VALUES (\(parameters), ?9, ?10, ?11, ?12)
            """)
        instantInserts[.vo2Max] = try prepare("""
            INSERT INTO vo2_max_record_table (\(metadata), time, zone_offset, local_date,
             vo2_milliliters_per_minute_kilogram, measurement_method) VALUES (\(parameters), ?9, ?10, ?11, ?12, ?13)
            """)
        sleepInsert = try prepare("""
            INSERT INTO sleep_session_record_table (\(metadata), start_time, start_zone_offset, end_time, end_zone_offset,
             local_date, notes, title) VALUES (\(parameters), ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
        stageInsert = try prepare("""
            INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES (?1, ?2, ?3, ?4)
            """)
        exerciseInsert = try prepare("""
            INSERT INTO exercise_session_record_table (\(metadata), start_time, start_zone_offset, end_time,
             end_zone_offset, local_date, notes, exercise_type, title, has_route)
             VALUES (\(parameters), ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
            """)
    }

    deinit {
        finalize()
    }

    /// Writes every record of one day.
    func write(_ day: HealthConnectMetricDay) throws(SynthError) {
        for record in day.quantities {
            let statement = quantityInserts[record.kind]!
            bind(record.metadata, to: statement)
            bindInterval(statement, record.startMs, record.startOffset, record.endMs, record.endOffset)
            sqlite3_bind_double(statement, 14, record.storedValue)
            try step(statement)
        }
        for record in day.heartRates {
            guard let parent = heartRateInsert, let child = heartRateSampleInsert else { break }
            bind(record.metadata, to: parent)
            bindInterval(parent, record.startMs, record.startOffset, record.endMs, record.endOffset)
            try step(parent)
            let key = sqlite3_last_insert_rowid(connection)
            for sample in record.samples {
                sqlite3_bind_int64(child, 1, key)
                sqlite3_bind_int64(child, 2, Int64(sample.beatsPerMinute))
                sqlite3_bind_int64(child, 3, sample.epochMs)
                try step(child)
            }
        }
        for record in day.instants {
            let statement = instantInserts[record.kind]!
            bind(record.metadata, to: statement)
            sqlite3_bind_int64(statement, 9, record.timeMs)
            sqlite3_bind_int64(statement, 10, Int64(record.offset))
            sqlite3_bind_int64(statement, 11, floorDivide(record.timeMs + Int64(record.offset) * 1000, 86_400_000))
            switch record.kind {
            case .restingHeartRate:
                sqlite3_bind_int64(statement, 12, record.hundredths / 100)
            case .heartRateVariability:
                sqlite3_bind_double(statement, 12, Double(record.hundredths) / 100)
            case .vo2Max:
                sqlite3_bind_double(statement, 12, Double(record.hundredths) / 100)
                sqlite3_bind_int64(statement, 13, Int64(record.measurementMethod))
            }
            try step(statement)
        }
        for record in day.sleepSessions {
            guard let parent = sleepInsert, let child = stageInsert else { break }
            bind(record.metadata, to: parent)
            bindInterval(parent, record.startMs, record.startOffset, record.endMs, record.endOffset)
            bindText(parent, 14, record.notes)
            bindText(parent, 15, record.title)
            try step(parent)
            let key = sqlite3_last_insert_rowid(connection)
            for stage in record.stages {
                sqlite3_bind_int64(child, 1, key)
                sqlite3_bind_int64(child, 2, stage.startMs)
                sqlite3_bind_int64(child, 3, stage.endMs)
                sqlite3_bind_int64(child, 4, Int64(stage.type.rawValue))
                try step(child)
            }
        }
        for record in day.exercises {
            guard let statement = exerciseInsert else { break }
            bind(record.metadata, to: statement)
            bindInterval(statement, record.startMs, record.startOffset, record.endMs, record.endOffset)
            bindText(statement, 14, record.notes)
            sqlite3_bind_int64(statement, 15, Int64(record.type.rawValue))
            bindText(statement, 16, record.title)
            sqlite3_bind_int64(statement, 17, record.hasRoute ? 1 : 0)
            try step(statement)
        }
    }

    /// Releases the statements; call before the writer commits and closes the database.
    func finalize() {
        for statement in Array(quantityInserts.values) + Array(instantInserts.values) {
            sqlite3_finalize(statement)
        }
        for statement in [heartRateInsert, heartRateSampleInsert, sleepInsert, stageInsert, exerciseInsert] {
            sqlite3_finalize(statement)
        }
        quantityInserts = [:]
        instantInserts = [:]
        heartRateInsert = nil
        heartRateSampleInsert = nil
        sleepInsert = nil
        stageInsert = nil
        exerciseInsert = nil
    }

    // MARK: - Binding

    /// ?1 to ?8: uuid, last_modified_time, client_record_id and version or dedupe_hash, device, app, method.
    private func bind(_ metadata: HealthConnectRecordMetadata, to statement: OpaquePointer) {
        var uuid = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            uuid[index] = UInt8(truncatingIfNeeded: metadata.uuidHigh >> UInt64(56 - 8 * index))
            uuid[8 + index] = UInt8(truncatingIfNeeded: metadata.uuidLow >> UInt64(56 - 8 * index))
        }
        sqlite3_bind_blob(statement, 1, uuid, 16, HealthConnectMetricTableWriter.transient)
        sqlite3_bind_int64(statement, 2, metadata.lastModifiedMs)
        if metadata.clientID != 0 {
            let digits = Array("0123456789abcdef".utf8)
            var text = Array(metadata.app.clientIDPrefix.utf8)
            for shift in stride(from: 60, through: 0, by: -4) {
                text.append(digits[Int(metadata.clientID >> UInt64(shift) & 0xF)])
            }
            sqlite3_bind_text(statement, 3, text.map { CChar(bitPattern: $0) }, Int32(text.count), HealthConnectMetricTableWriter.transient)
            sqlite3_bind_text(statement, 4, "1", 1, HealthConnectMetricTableWriter.transient)
            sqlite3_bind_null(statement, 8)
        } else {
            sqlite3_bind_null(statement, 3)
            sqlite3_bind_null(statement, 4)
            // Health Connect's own hash of (app, times, data) for records without a client id.
            var mixer = SplitMix64(seed: metadata.uuidHigh ^ (metadata.uuidLow << 17 | metadata.uuidLow >> 47))
            var hash = [UInt8]()
            for _ in 0..<4 {
                let word = mixer.next()
                for index in 0..<8 { hash.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * index))) }
            }
            sqlite3_bind_blob(statement, 8, hash, 32, HealthConnectMetricTableWriter.transient)
        }
        sqlite3_bind_int64(statement, 5, Int64(metadata.deviceID))
        sqlite3_bind_int64(statement, 6, Int64(metadata.app.rowID))
        sqlite3_bind_int64(statement, 7, Int64(metadata.recordingMethod.rawValue))
    }

    /// ?9 to ?13: start_time, start_zone_offset, end_time, end_zone_offset, local_date (of the start
    /// on its own clock).
    private func bindInterval(_ statement: OpaquePointer, _ start: Int64, _ startOffset: Int32, _ end: Int64, _ endOffset: Int32) {
        sqlite3_bind_int64(statement, 9, start)
        sqlite3_bind_int64(statement, 10, Int64(startOffset))
        sqlite3_bind_int64(statement, 11, end)
        sqlite3_bind_int64(statement, 12, Int64(endOffset))
        sqlite3_bind_int64(statement, 13, floorDivide(start + Int64(startOffset) * 1000, 86_400_000))
    }

    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
        if let text {
            sqlite3_bind_text(statement, index, text, -1, HealthConnectMetricTableWriter.transient)
        } else {
            sqlite3_bind_null(statement, index)
        }
    }

    /// SQLite copies the bound bytes at once.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // MARK: - SQLite

    private func step(_ statement: OpaquePointer) throws(SynthError) {
        let status = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard status == SQLITE_DONE else { throw failure() }
        rows += 1
    }

    private func execute(_ sql: String) throws(SynthError) {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
    }

    private func prepare(_ sql: String) throws(SynthError) -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure()
        }
        return statement
    }

    private func failure() -> SynthError {
        SynthError.writeFailed(path: path, reason: "SQLite: \(String(cString: sqlite3_errmsg(connection)))")
    }
}
