import CSQLite
import HealthDays

/// The few pieces of SQLite's C API the database reader uses, kept inside the module.
extension HealthConnectDatabase {
    /// `SQLITE_IOERR_SHORT_READ`, a macro Swift does not import.
    static let sqliteShortRead: Int32 = SQLITE_IOERR | (2 << 8)

    /// A prepared statement, finalized when released.
    final class Statement {
        let handle: OpaquePointer

        init(_ handle: OpaquePointer) {
            self.handle = handle
        }

        deinit {
            sqlite3_finalize(handle)
        }

        /// Whether the column of the current row is SQL NULL.
        @inline(__always)
        func isNull(_ column: Int32) -> Bool {
            sqlite3_column_type(handle, column) == SQLITE_NULL
        }

        /// The column's storage class (`SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`).
        @inline(__always)
        func type(_ column: Int32) -> Int32 {
            sqlite3_column_type(handle, column)
        }

        /// The column of the current row as a value to ask its type and number from: one call
        /// into SQLite per column where `type` and `int64` take two, each entering the
        /// statement's API again (a fifth of a database read's calls into SQLite).
        ///
        /// The value is "unprotected" (no mutex held), which SQLite allows to be read like a
        /// protected one on a connection in multi-thread mode: `SQLITE_OPEN_NOMUTEX`, as every
        /// connection of this reader is opened, and one thread reads it.
        @inline(__always)
        func value(_ column: Int32) -> Value {
            Value(handle: sqlite3_column_value(handle, column))
        }

        /// One column of the current row, valid until the next step.
        struct Value {
            let handle: OpaquePointer?

            /// The storage class; NULL when SQLite gave no value.
            @inline(__always)
            var type: Int32 { handle.map { sqlite3_value_type($0) } ?? SQLITE_NULL }

            @inline(__always)
            var int64: Int64 { handle.map { sqlite3_value_int64($0) } ?? 0 }

            @inline(__always)
            var double: Double { handle.map { sqlite3_value_double($0) } ?? 0 }
        }

        @inline(__always)
        func int64(_ column: Int32) -> Int64 {
            sqlite3_column_int64(handle, column)
        }

        @inline(__always)
        func double(_ column: Int32) -> Double {
            sqlite3_column_double(handle, column)
        }

        /// The column as UTF-8 bytes (SQLite converts numbers); empty for NULL.
        func bytes(_ column: Int32) -> [UInt8] {
            guard let text = sqlite3_column_text(handle, column) else { return [] }
            let count = Int(sqlite3_column_bytes(handle, column))
            return Array(UnsafeBufferPointer(start: text, count: count))
        }

        /// The column as a string, for messages.
        func text(_ column: Int32) -> String {
            String(decoding: bytes(column), as: UTF8.self)
        }
    }

    /// Prepares `sql` once; fails with the database's own error.
    func prepare(_ sql: String) throws(ExportError) -> Statement {
        try HealthConnectDatabase.prepare(sql, on: connection, location: location)
    }

    static func prepare(_ sql: String, on connection: OpaquePointer, location: InputLocation) throws(ExportError) -> Statement {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v2(connection, sql, -1, &handle, nil)
        guard status == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw failure(status, on: connection, location: location, while: "preparing a query")
        }
        return Statement(handle)
    }

    /// Runs `body` on every row of `statement`; a failure while stepping ends the read with an error.
    static func forEachRow(_ statement: Statement, on connection: OpaquePointer, location: InputLocation,
                           while activity: String, _ body: () throws(ExportError) -> Void) throws(ExportError) {
        while true {
            let status = sqlite3_step(statement.handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw failure(status, on: connection, location: location, while: activity)
            }
            try body()
        }
    }

    /// Turns an SQLite result code into an error a user can act on.
    ///
    /// A damaged or cut-off database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, a short read) is
    /// malformed data; a failing disk or missing permission makes it unreadable.
    static func failure(_ status: Int32, on connection: OpaquePointer?, location: InputLocation,
                        while activity: String) -> ExportError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(status))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? status
        let again = "copy it again from the phone or make a new export (Settings > Health Connect > Backup and restore)"
        switch status & 0xFF {
        case SQLITE_CORRUPT:
            return .malformed(location, at: .none,
                              problem: "the database is damaged or truncated (SQLite: \(message), while \(activity)); \(again)")
        case SQLITE_NOTADB:
            return .malformed(location, at: .none,
                              problem: "SQLite cannot read it as a database (\(message), while \(activity)): it is damaged or encrypted; \(again)")
        case SQLITE_IOERR where extended == HealthConnectDatabase.sqliteShortRead:
            return .malformed(location, at: .none,
                              problem: "the database ends early (SQLite: \(message), while \(activity)): it is truncated; \(again)")
        case SQLITE_NOMEM:
            return .unreadable(location, reason: "out of memory while \(activity)")
        default:
            return .unreadable(location, reason: "SQLite error \(extended) while \(activity): \(message)")
        }
    }

    /// A read-only, immutable `file:` URI for `path` (read-write, for a private copy whose
    /// journal SQLite must apply, when `immutable` is false).
    ///
    /// `immutable=1` tells SQLite the file cannot change: it takes no locks and never creates
    /// `-journal`, `-wal` or `-shm` files beside the input (which may be on a read-only medium,
    /// or a user's only copy); it also ignores a `-wal` beside it, which is why a database with
    /// one is read through a private copy. Every byte outside the unreserved set is
    /// percent-encoded, so `?`, `#` and `%` in a name stay part of the path.
    static func uri(forPath path: String, immutable: Bool = true) -> String {
        // An absolute path gets an empty authority, so a path that starts with `//` stays a path.
        var uri = Array((path.hasPrefix("/") ? "file://" : "file:").utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.append(byte)
            default:
                uri.append(UInt8(ascii: "%"))
                uri.append(hex[Int(byte >> 4)])
                uri.append(hex[Int(byte & 0xF)])
            }
        }
        uri.append(contentsOf: Array((immutable ? "?mode=ro&immutable=1" : "?mode=rw").utf8))
        return String(decoding: uri, as: UTF8.self)
    }
}
