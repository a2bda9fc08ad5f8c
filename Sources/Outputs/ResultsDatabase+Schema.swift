import Platform

/// The database's tables (docs/sqlite.md shows them with example queries), and how a file is
/// known to be one of them before SQLite opens it.
extension ResultsDatabase {
    /// `PRAGMA application_id`: "STPI", so that `file` and SQLite tools can tell the database's kind.
    public static let applicationID: UInt32 = 0x5354_5049
    /// `PRAGMA user_version`: the schema's version; a database of another version is refused, never altered.
    public static let schemaVersion: UInt32 = 1

    /// The tables and the view, without the indexes (made after a new database's first rows).
    static let tables = """
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY,
            account TEXT NOT NULL,
            file TEXT NOT NULL,
            format TEXT NOT NULL,
            zone TEXT NOT NULL,
            rule TEXT NOT NULL,
            options TEXT NOT NULL,
            stepimport_version TEXT NOT NULL,
            imported_at TEXT NOT NULL,
            UNIQUE (account, file)
        );
        CREATE TABLE days (
            import_id INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
            account TEXT NOT NULL,
            date TEXT NOT NULL,
            metric TEXT NOT NULL,
            value NUMERIC NOT NULL,
            source TEXT,
            PRIMARY KEY (import_id, date, metric)
        ) WITHOUT ROWID;
        CREATE TABLE source_days (
            import_id INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
            account TEXT NOT NULL,
            date TEXT NOT NULL,
            metric TEXT NOT NULL,
            source TEXT NOT NULL,
            value NUMERIC NOT NULL,
            winner INTEGER NOT NULL,
            implausible INTEGER NOT NULL,
            priority INTEGER,
            entered_by_hand INTEGER NOT NULL
        );
        CREATE VIEW daily_steps AS
            SELECT imports.account, imports.file, days.date, days.value AS steps, days.source
            FROM days JOIN imports ON imports.id = days.import_id
            WHERE days.metric = 'steps';
        """

    /// The indexes: by date for both day tables, by import for the source rows.
    static let indexes = """
        CREATE INDEX IF NOT EXISTS days_by_date ON days (date, metric);
        CREATE INDEX IF NOT EXISTS source_days_by_date ON source_days (date, metric);
        CREATE INDEX IF NOT EXISTS source_days_by_import ON source_days (import_id);
        """

    /// What a file is, from its first 100 bytes (SQLite's header), read without SQLite so that a
    /// file that is not ours is never touched (SQLite could roll back a journal beside it).
    enum FileKind: Equatable {
        /// No bytes: a new database is made in its place.
        case empty
        /// A database of this schema.
        case ours
        case notSQLite
        /// An SQLite database of another program.
        case otherApplication(UInt32)
        /// A database of stepimport's with another schema version.
        case otherVersion(UInt32)
    }

    static func kind(of path: String) throws(SystemError) -> FileKind {
        let file = try SystemFile.open(path)
        var header = [UInt8](repeating: 0, count: 100)
        let count = try header.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try file.readFully(into: buffer) }
        }.get()
        if count == 0 { return .empty }
        guard count == 100, header[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else { return .notSQLite }
        func number(at offset: Int) -> UInt32 {
            header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let application = number(at: 68)
        guard application == applicationID else { return .otherApplication(application) }
        let version = number(at: 60)
        return version == schemaVersion ? .ours : .otherVersion(version)
    }
}
