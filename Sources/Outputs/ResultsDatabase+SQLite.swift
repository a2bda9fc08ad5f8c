import CSQLite

/// The few calls of SQLite's C API the database output makes, kept inside this module.
extension ResultsDatabase {
    /// A connection, closed when released.
    final class Connection {
        let handle: OpaquePointer

        /// Opens `path` read-write, creating it when `creates` (an empty temporary file is a new
        /// database either way). One thread at a time uses it: the callers hold their own lock.
        init(path: String, creates: Bool) throws(SQLiteFailure) {
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | (creates ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
            let status = sqlite3_open_v2(path, &handle, flags, nil)
            guard status == SQLITE_OK, let handle else {
                let failure = SQLiteFailure(status, handle)
                sqlite3_close_v2(handle)
                throw failure
            }
            self.handle = handle
        }

        deinit {
            sqlite3_close_v2(handle)
        }

        /// Runs statements that return no rows.
        func execute(_ sql: String) throws(SQLiteFailure) {
            let status = sqlite3_exec(handle, sql, nil, nil, nil)
            guard status == SQLITE_OK else { throw SQLiteFailure(status, handle) }
        }

        /// The first column of the first row of `sql`, as an integer (a pragma's value).
        func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
            let statement = try prepare(sql)
            let status = sqlite3_step(statement.handle)
            guard status == SQLITE_ROW || status == SQLITE_DONE else { throw SQLiteFailure(status, handle) }
            return status == SQLITE_ROW ? sqlite3_column_int64(statement.handle, 0) : 0
        }

        func prepare(_ sql: String) throws(SQLiteFailure) -> Statement {
            var statement: OpaquePointer?
            let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            guard status == SQLITE_OK, let statement else {
                sqlite3_finalize(statement)
                throw SQLiteFailure(status, handle)
            }
            return Statement(statement, connection: handle)
        }

        /// The rowid of the last row inserted.
        var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }
    }

    /// A prepared statement, finalized when released. Values are bound by position (1 first),
    /// then `run()` steps it once and resets it for the next row.
    final class Statement {
        let handle: OpaquePointer
        private let connection: OpaquePointer

        init(_ handle: OpaquePointer, connection: OpaquePointer) {
            self.handle = handle
            self.connection = connection
        }

        deinit {
            sqlite3_finalize(handle)
        }

        func bind(_ index: Int32, _ text: String) {
            // SQLITE_TRANSIENT: SQLite copies the bytes, which live only during this call.
            _ = sqlite3_bind_text(handle, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }

        func bind(_ index: Int32, _ value: Int64) {
            _ = sqlite3_bind_int64(handle, index, value)
        }

        func bind(_ index: Int32, _ value: Double) {
            _ = sqlite3_bind_double(handle, index, value)
        }

        func bindNull(_ index: Int32) {
            _ = sqlite3_bind_null(handle, index)
        }

        /// Steps once (an insert, a delete) and resets for the next values.
        func run() throws(SQLiteFailure) {
            let status = sqlite3_step(handle)
            sqlite3_reset(handle)
            guard status == SQLITE_DONE || status == SQLITE_ROW else { throw SQLiteFailure(status, connection) }
        }
    }

    /// An SQLite result code other than success, with SQLite's words.
    struct SQLiteFailure: Error {
        let status: Int32
        let message: String

        init(_ status: Int32, _ connection: OpaquePointer?) {
            self.status = status
            message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(status))
        }

        /// A failure found by stepimport rather than SQLite, in words.
        init(message: String) {
            status = -1
            self.message = message
        }

        /// The failure in words: SQLite's message, and what it means for the user's file.
        var words: String {
            guard status >= 0 else { return message }
            return switch status & 0xFF {
            case SQLITE_FULL: "the disk is full (SQLite: \(message))"
            case SQLITE_BUSY, SQLITE_LOCKED: "another program holds the database (SQLite: \(message)); try again when it is done"
            case SQLITE_CORRUPT, SQLITE_NOTADB: "the database is damaged (SQLite: \(message))"
            case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN: "cannot write to it (SQLite: \(message))"
            default: "SQLite error \(status): \(message)"
            }
        }
    }
}
