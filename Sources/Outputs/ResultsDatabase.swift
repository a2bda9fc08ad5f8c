import Foundation
import HealthDays
import Platform
import StreamingText

/// The days as an SQLite database anyone opens with `sqlite3` or Datasette (docs/sqlite.md): what
/// was imported (`imports`), each day's value and winning source per metric (`days`), with
/// `--by-source` every source's value with its marks (`source_days`), and the view `daily_steps`.
///
/// The path is checked when the value is made, before any export is read: a database of
/// stepimport's is written where it stands, each import in one transaction that first removes the
/// rows of an earlier import of the same account and file (others are kept); a path with no file,
/// or an empty one, gets a new database built under a temporary name beside it and renamed into
/// place by `finish()`; any other file is refused and left byte for byte as it was.
///
/// Not thread-safe: one thread at a time (batch holds a lock around it).
public final class ResultsDatabase {
    /// What one import was, for its row of `imports`.
    public struct Import: Sendable {
        /// The account's label in a batch; empty for a single run.
        public var account: String
        /// The export, as an absolute path.
        public var file: String
        /// The export's format, as the summary names it.
        public var format: String
        /// The zone rule: an IANA zone, or `recordedOffset` (each sample's own offset).
        public var zone: String
        /// `highest-source` or `hc-priority`.
        public var rule: String
        /// The command line's arguments after the program's name.
        public var options: [String]
        public var version: String
        public var importedAt: Date

        public init(account: String, file: String, format: String, zone: String, rule: String, options: [String],
                    version: String, importedAt: Date = Date()) {
            self.account = account
            self.file = file
            self.format = format
            self.zone = zone
            self.rule = rule
            self.options = options
            self.version = version
            self.importedAt = importedAt
        }
    }

    /// The path as given, for messages.
    public let path: String
    /// Where SQLite opens it: the path with its links followed, or the temporary file of a new one.
    private let openedPath: String
    /// A new database's temporary file, renamed into place by `finish()`; nil for one in place.
    private var replacement: FileReplacement?
    private var connection: Connection?

    /// Checks `path` (see the type's comment) without writing anything there yet. With `inPlace`,
    /// a new database is made at once (empty, built under a temporary name and renamed in), so
    /// that every `write` commits where it stands: for a batch, whose journal records each
    /// account once its rows are committed.
    public init(path: String, inPlace: Bool = false) throws(OutputError) {
        self.path = path
        if FileOutputSink.descriptor(named: path) != nil {
            throw .database(path: path, problem: "an SQLite database is a file of its own, not a stream: name a file (days.sqlite)")
        }
        let status: FileStatus?
        do {
            status = try FileStatus.of(path: path)
        } catch {
            guard error.isNotFound else { throw .database(path: path, problem: "cannot be reached: \(error)") }
            status = nil
        }
        if let status, status.kind != .regular {
            throw .database(path: path, problem: status.kind == .directory ? "is a folder: name a file (days.sqlite) for the database"
                            : "is not a regular file: an SQLite database needs one")
        }
        let kind: FileKind
        do {
            kind = status == nil ? .empty : try Self.kind(of: path)
        } catch {
            throw .database(path: path, problem: "cannot be read: \(error)")
        }
        switch kind {
        case .ours:
            openedPath = FileReplacement.resolvingLinks(path)
            return
        case .empty:
            break
        case .notSQLite:
            throw .database(path: path, problem: "is not an SQLite database; stepimport writes only into databases it made "
                            + "(it is left as it is): name a new file")
        case .otherApplication(let id):
            throw .database(path: path, problem: "is an SQLite database that stepimport did not make (application_id \(id)); "
                            + "it is left as it is: name a new file")
        case .otherVersion(let version):
            throw .database(path: path, problem: "was made by another version of stepimport (schema \(version); this one "
                            + "writes schema \(Self.schemaVersion)); it is left as it is: name a new file")
        }
        let replacement: FileReplacement
        do {
            replacement = try FileReplacement(replacing: path)
        } catch {
            throw OutputError.file(path: path, error.step, error.error)
        }
        guard inPlace else {
            self.replacement = replacement
            openedPath = replacement.temporaryPath
            return
        }
        do throws(SQLiteFailure) {
            let connection = try Connection(path: replacement.temporaryPath, creates: true)
            try connection.execute("PRAGMA journal_mode = OFF; BEGIN;" + Self.tables + Self.indexes + "COMMIT;")
        } catch {
            throw .database(path: path, problem: "cannot be made: \(error.words)")
        }
        do {
            try replacement.commit()
        } catch {
            throw OutputError.file(path: path, error.step, error.error)
        }
        openedPath = replacement.target
    }

    deinit {
        discard()
    }

    /// Writes one import's days in one transaction, after removing the rows of an earlier import of
    /// the same account and file. With `layout.bySource`, every source's values too.
    public func write(_ record: Import, _ results: DayResults, _ layout: DayLayout) throws(OutputError) {
        do throws(SQLiteFailure) {
            let connection = try open()
            try connection.execute(replacement == nil ? "BEGIN IMMEDIATE" : "BEGIN")
            do {
                try insert(record, results, layout, on: connection)
                if replacement != nil { try connection.execute(Self.indexes) }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            throw .database(path: path, problem: "cannot be written: \(error.words)")
        }
    }

    /// Closes the database; a new one is flushed to the disk and renamed into place.
    public func finish() throws(OutputError) {
        connection = nil
        guard let replacement else { return }
        self.replacement = nil
        do {
            try replacement.commit()
        } catch {
            throw .file(path: path, error.step, error.error)
        }
    }

    /// Closes the database; a new one is removed (the path keeps what it had).
    public func discard() {
        connection = nil
        replacement?.discard()
        replacement = nil
    }

    /// The connection, opened on first use: a new database gets its tables, one in place is
    /// checked again (it could have changed since `init`).
    private func open() throws(SQLiteFailure) -> Connection {
        if let connection { return connection }
        let connection = try Connection(path: openedPath, creates: false)
        if replacement != nil {
            // A temporary file no one else sees: no journal, no syncs until `finish()` flushes it once.
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + Self.tables)
        } else {
            try connection.execute("PRAGMA busy_timeout = 10000; PRAGMA synchronous = FULL;")
            let application = UInt32(truncatingIfNeeded: try connection.integer("PRAGMA application_id"))
            let version = UInt32(truncatingIfNeeded: try connection.integer("PRAGMA user_version"))
            guard application == Self.applicationID, version == Self.schemaVersion else {
                throw SQLiteFailure(message: "it is no longer a database of this version of stepimport "
                                    + "(application_id \(application), schema \(version))")
            }
        }
        self.connection = connection
        return connection
    }
}
