import CSQLite
import Foundation

/// Writes a database with exactly the schema of Health Connect's export (docs/formats.md):
/// the four tables, the generated columns, `PRAGMA user_version`.
///
/// Built for millions of rows: one transaction, one prepared insert, no journal, no fsync,
/// and a page cache big enough to hold the random-keyed `uuid` index.
final class HealthConnectDatabaseWriter {
    /// The CREATE TABLE statements, word for word as documented.
    static let schema = """
        CREATE TABLE steps_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT,
         uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT,
         client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER,
         recording_method INTEGER, dedupe_hash BLOB UNIQUE, start_time INTEGER,
         start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER,
         local_date INTEGER, count INTEGER,
         local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
         local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset));
        CREATE TABLE application_info_table (row_id INTEGER PRIMARY KEY,
         package_name TEXT NOT NULL UNIQUE, app_name TEXT, app_icon BLOB, record_types_used TEXT);
        CREATE TABLE device_info_table (row_id INTEGER PRIMARY KEY, manufacturer TEXT,
         model TEXT, device_type INTEGER);
        CREATE TABLE health_data_category_priority_table (row_id INTEGER PRIMARY KEY,
         health_data_category INTEGER UNIQUE, app_id_priority_order TEXT NOT NULL);
        """

    let path: String
    /// The open database, for `HealthConnectMetricTableWriter`, which writes into the same transaction.
    private(set) var connection: OpaquePointer?
    private var insert: OpaquePointer?
    /// Scratch for the BLOB and TEXT values of one row, bound without copying.
    private let scratch = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 8)
    private(set) var rows = 0

    /// Creates a new database at `path` (any file there is replaced) and its tables.
    init(path: String, userVersion: Int) throws(SynthError) {
        self.path = path
        unlink(path)
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
              let handle
        else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SynthError.cannotCreate(path: path, reason: reason)
        }
        connection = handle
        try execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = -524288; PRAGMA temp_store = MEMORY;
            """)
        try execute(HealthConnectDatabaseWriter.schema)
        try execute("PRAGMA user_version = \(userVersion); BEGIN;")
        insert = try prepare("""
            INSERT INTO steps_record_table (uuid, last_modified_time, client_record_id, client_record_version,
             device_info_id, app_info_id, recording_method, dedupe_hash, start_time, start_zone_offset,
             end_time, end_zone_offset, local_date, count)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            """)
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close_v2(connection)
        scratch.deallocate()
    }

    /// Writes the apps, devices and priorities.
    func writeReferenceTables() throws(SynthError) {
        var sql = ""
        for app in HealthConnectApp.allCases {
            sql += "INSERT INTO application_info_table (row_id, package_name, app_name, app_icon, record_types_used) VALUES "
                + "(\(app.rowID), \(quoted(app.packageName)), \(quoted(app.appName)), NULL, \(quoted(app.recordTypesUsed)));\n"
        }
        for (id, manufacturer, model, type) in HealthConnectApp.devices {
            sql += "INSERT INTO device_info_table VALUES (\(id), \(quoted(manufacturer)), \(quoted(model)), \(type));\n"
        }
        for (index, (category, order)) in HealthConnectApp.priorities.enumerated() {
            sql += "INSERT INTO health_data_category_priority_table VALUES (\(index + 1), \(category), \(quoted(order)));\n"
        }
        try execute(sql)
    }

    /// Writes one step record.
    func write(_ record: HealthConnectRecord) throws(SynthError) {
        guard let insert else { return }
        // uuid: 16 bytes; dedupe_hash: 32 bytes; client_record_id: up to 32 ASCII bytes.
        scratch.storeBytes(of: record.uuidHigh.bigEndian, toByteOffset: 0, as: UInt64.self)
        scratch.storeBytes(of: record.uuidLow.bigEndian, toByteOffset: 8, as: UInt64.self)
        sqlite3_bind_blob(insert, 1, scratch, 16, nil)
        sqlite3_bind_int64(insert, 2, record.lastModifiedMs)
        if record.clientID != 0 {
            let text = scratch + 64
            let prefix: StaticString = record.app == .samsung ? "shealth-" : "fit-"
            var length = prefix.utf8CodeUnitCount
            text.copyMemory(from: prefix.utf8Start, byteCount: length)
            let digits = Array("0123456789abcdef".utf8)
            for shift in stride(from: 60, through: 0, by: -4) {
                text.storeBytes(of: digits[Int(record.clientID >> UInt64(shift) & 0xF)], toByteOffset: length, as: UInt8.self)
                length += 1
            }
            sqlite3_bind_text(insert, 3, text.assumingMemoryBound(to: CChar.self), Int32(length), nil)
            let version = scratch + 120
            version.storeBytes(of: UInt8(ascii: "1"), as: UInt8.self)
            sqlite3_bind_text(insert, 4, version.assumingMemoryBound(to: CChar.self), 1, nil)
            sqlite3_bind_null(insert, 8)
        } else {
            sqlite3_bind_null(insert, 3)
            sqlite3_bind_null(insert, 4)
            // Health Connect's own hash of (app, times, data) for records without a client id.
            let hash = scratch + 16
            var mixer = SplitMix64(seed: record.uuidHigh ^ record.uuidLow.rotateLeft(17))
            for word in 0..<4 {
                hash.storeBytes(of: mixer.next(), toByteOffset: word * 8, as: UInt64.self)
            }
            sqlite3_bind_blob(insert, 8, hash, 32, nil)
        }
        sqlite3_bind_int64(insert, 5, Int64(record.app.deviceID))
        sqlite3_bind_int64(insert, 6, Int64(record.app.rowID))
        sqlite3_bind_int64(insert, 7, Int64(record.recordingMethod.rawValue))
        sqlite3_bind_int64(insert, 9, record.startMs)
        sqlite3_bind_int64(insert, 10, Int64(record.startOffset))
        sqlite3_bind_int64(insert, 11, record.endMs)
        sqlite3_bind_int64(insert, 12, Int64(record.endOffset))
        // Days since 1970 of the start on its own clock.
        sqlite3_bind_int64(insert, 13, floorDivide(record.startMs + Int64(record.startOffset) * 1000, 86_400_000))
        sqlite3_bind_int64(insert, 14, Int64(record.count))
        let status = sqlite3_step(insert)
        sqlite3_reset(insert)
        guard status == SQLITE_DONE else { throw failure() }
        rows += 1
    }

    /// Commits and closes the database.
    func finish() throws(SynthError) {
        sqlite3_finalize(insert)
        insert = nil
        try execute("COMMIT;")
        guard sqlite3_close_v2(connection) == SQLITE_OK else { throw failure() }
        connection = nil
    }

    // MARK: - SQLite

    private func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
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
        let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "database closed"
        return SynthError.writeFailed(path: path, reason: "SQLite: \(reason)")
    }
}

private extension UInt64 {
    func rotateLeft(_ count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
