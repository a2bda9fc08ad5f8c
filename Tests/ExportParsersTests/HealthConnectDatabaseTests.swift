import CSQLite
import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// A folder of its own for one test, removed at the end.
final class ScratchFolder {
    let path: String

    init() {
        var template = Array("\(NSTemporaryDirectory())/hcdb-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: made!)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted.
    var listing: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// Writes small databases with the schema of Health Connect's export (docs/formats.md), through SQLite itself.
struct DatabaseBuilder {
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

    static let apps: [(Int, String)] = [
        (1, "android"), (2, "com.android.healthconnect.phone.steps"),
        (3, "com.google.android.apps.fitness"), (4, "com.sec.android.app.shealth"),
    ]

    /// One step row; nil writes NULL. A value given as a string is written as SQL text as it is.
    struct Row {
        var start: Int64?
        var end: Int64?
        var startOffset: Int64?
        var endOffset: Int64?
        var count: String?
        var app: Int64?
        /// `last_modified_time`; the end time when not given.
        var modified: Int64?

        init(_ start: Int64?, _ end: Int64?, offset: Int64?, count: String?, app: Int64?, endOffset: Int64?? = nil,
             modified: Int64? = nil) {
            self.modified = modified
            self.start = start
            self.end = end
            self.startOffset = offset
            self.endOffset = endOffset ?? offset
            self.count = count
            self.app = app
        }
    }

    var userVersion = 20
    var apps = DatabaseBuilder.apps
    var priority: String? = "4,1,3"
    var schema = DatabaseBuilder.schema
    var journalMode = "DELETE"

    /// The numbers of a table's leaf pages (SQLite's `dbstat`), ascending.
    static func leafPages(of table: String, at path: String) throws -> [Int] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw TestFailure("cannot open \(path)")
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        let sql = "SELECT pageno FROM dbstat WHERE name = '\(table)' AND pagetype = 'leaf' ORDER BY pageno"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestFailure("dbstat: \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var pages: [Int] = []
        while sqlite3_step(statement) == SQLITE_ROW { pages.append(Int(sqlite3_column_int64(statement, 0))) }
        return pages
    }

    /// Runs SQL on a new database at `path`.
    static func execute(_ sql: String, at path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw TestFailure("cannot create \(path)")
        }
        defer { sqlite3_close(handle) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw TestFailure("SQL failed: \(text)")
        }
    }

    func write(_ rows: [Row], to path: String) throws {
        func value(_ number: Int64?) -> String { number.map(String.init) ?? "NULL" }
        var sql = "PRAGMA journal_mode = \(journalMode);\n" + schema + "\nPRAGMA user_version = \(userVersion);\nBEGIN;\n"
        for (id, name) in apps {
            sql += "INSERT INTO application_info_table (row_id, package_name, app_name) VALUES (\(id), '\(name)', 'App \(id)');\n"
        }
        sql += "INSERT INTO device_info_table VALUES (1, 'Google', 'Pixel 8', 2);\n"
        if let priority {
            sql += "INSERT INTO health_data_category_priority_table VALUES (1, 1, '\(priority)');\n"
        }
        for (index, row) in rows.enumerated() {
            // Days since 1970 of the start on its own clock (all test times are after 1970).
            let localDate = row.start.map { String(($0 / 1000 + (row.startOffset ?? 0)) / 86_400) } ?? "NULL"
            sql += """
                INSERT INTO steps_record_table (uuid, last_modified_time, device_info_id, app_info_id, recording_method,
                 start_time, start_zone_offset, end_time, end_zone_offset, local_date, count)
                VALUES (randomblob(16), \(value(row.modified ?? row.end)), 1, \(value(row.app)), 2, \(value(row.start)),
                 \(value(row.startOffset)), \(value(row.end)), \(value(row.endOffset)), \(localDate), \(row.count ?? "NULL"));
                """
            sql += index % 1000 == 999 ? "\n" : ""
        }
        sql += "COMMIT;\n"
        try DatabaseBuilder.execute(sql, at: path)
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite struct HealthConnectDatabaseTests {
    private let hour: Int64 = 3_600_000
    private let minute: Int64 = 60_000

    private func open(_ path: String) throws(ExportError) -> HealthConnectDatabase {
        try HealthConnectDatabase(path: path, location: InputLocation(path: path))
    }

    /// Opens and reads `path`; returns the error, or nil when it read.
    private func readError(_ path: String, policy: InvalidRecordPolicy = .fail) -> ExportError? {
        do {
            _ = try open(path).read(into: SampleCollector(), invalidRecords: policy)
            return nil
        } catch {
            return error
        }
    }

    /// A count stored as REAL (third-party apps write fractions) is read as that number, and a
    /// row's app is the one of its own `app_info_id` when apps alternate row by row.
    @Test func fractionalCountsAndAlternatingAppsAreReadRowByRow() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        let start = utcMs(2026, 3, 1, 8)
        try DatabaseBuilder().write([
            .init(start, start + minute, offset: 0, count: "12.5", app: 1),
            .init(start, start + minute, offset: 0, count: "7", app: 3),
            .init(start + hour, start + hour + minute, offset: 0, count: "0.25", app: 1),
            .init(start + hour, start + hour + minute, offset: 0, count: "3", app: 3),
        ], to: path)
        let collector = SampleCollector()
        _ = try open(path).read(into: collector)
        #expect(collector.entries.map(\.sample.value) == [12.5, 7, 0.25, 3])
        #expect(collector.entries.map(\.source) == ["android", "com.google.android.apps.fitness",
                                                    "android", "com.google.android.apps.fitness"])
    }

    @Test func readsRowsWithTheirOffsetsAndMergesThePhonesTwoNames() throws {
        let folder = ScratchFolder()
        let path = folder.file("health_connect_export.db")
        let start = utcMs(2026, 3, 1, 8)
        try DatabaseBuilder().write([
            .init(start, start + 5 * minute, offset: 3600, count: "420", app: 1),
            .init(start + hour, start + hour + 5 * minute, offset: 3600, count: "380", app: 2),
            .init(start, start + 10 * minute, offset: -18000, count: "1000", app: 3, endOffset: -14400),
            .init(start, start + minute, offset: nil, count: "50", app: 4),
            .init(start, start, offset: 19800, count: "7", app: 99),
            .init(start, start + minute, offset: 0, count: "9", app: nil),
        ], to: path)

        let collector = SampleCollector()
        let database = try open(path)
        #expect(database.schemaVersion == 20)
        let statistics = try database.read(into: collector)
        #expect(collector.entries == [
            .init(source: "android", sample: HealthSample(startMs: start, endMs: start + 5 * minute, offsetSeconds: 3600, value: 420)),
            .init(source: "android", sample: HealthSample(startMs: start + hour, endMs: start + hour + 5 * minute, offsetSeconds: 3600, value: 380)),
            .init(source: "com.google.android.apps.fitness",
                  sample: HealthSample(startMs: start, endMs: start + 10 * minute, offsetSeconds: -18000, value: 1000)),
            .init(source: "com.sec.android.app.shealth", sample: HealthSample(startMs: start, endMs: start + minute, offsetSeconds: nil, value: 50)),
            .init(source: "(unknown)", sample: HealthSample(startMs: start, endMs: start, offsetSeconds: 19800, value: 7)),
            .init(source: "(unknown)", sample: HealthSample(startMs: start, endMs: start + minute, offsetSeconds: 0, value: 9)),
        ])
        #expect(statistics.rows == 6)
        #expect(statistics.samples == 6)
        #expect(statistics.rowsWithoutOffset == 1)
        #expect(statistics.schemaVersion == 20)
        #expect(statistics.skipped.count == 0)
        #expect(statistics.activityPriority == ["com.sec.android.app.shealth", "android", "com.google.android.apps.fitness"])
        #expect(statistics.origins == [
            .init(packageName: "(unknown)", source: "(unknown)", rows: 2),
            .init(packageName: "android", source: "android", rows: 1),
            .init(packageName: "com.android.healthconnect.phone.steps", source: "android", rows: 1),
            .init(packageName: "com.google.android.apps.fitness", source: "com.google.android.apps.fitness", rows: 1),
            .init(packageName: "com.sec.android.app.shealth", source: "com.sec.android.app.shealth", rows: 1),
        ])

        // Both names of the phone's counter make one day total.
        let aggregator = DayAggregator(rule: .recordedOffset)
        _ = try open(path).read(into: aggregator)
        let days = aggregator.dayTotals()
        #expect(days.pairs == ["2026-03-01=1000"])
        #expect(days[0].sources.first { $0.source == "android" }?.steps == 800)
    }

    @Test func theReportNamesOriginsPriorityAndMissingOffsets() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        let start = utcMs(2026, 3, 1, 8)
        try DatabaseBuilder().write([
            .init(start, start + minute, offset: nil, count: "5", app: 2),
            .init(start, start + minute, offset: 3600, count: "5", app: 3),
        ], to: path)
        let database = try open(path)
        let statistics = try database.read(into: SampleCollector())
        var summary = ImportSummary()
        database.summarize(statistics, into: &summary, at: database.location)
        #expect(database.formatName(statistics) == "Health Connect database (schema 20)")
        #expect(summary.stepRecords == 2)
        // Only the origin counted under another name: the summary of every format lists the sources.
        #expect(summary.notes.contains { $0.factText?.hasSuffix("two names: com.android.healthconnect.phone.steps (1 row) as android") == true })
        #expect(!summary.notes.contains { $0.factText?.contains("com.sec.android.app.shealth (") == true })
        #expect(summary.notes.contains(.activityPriority(["com.sec.android.app.shealth", "android", "com.google.android.apps.fitness"])))
        #expect(summary.notes.contains(.recordsWithoutOffset(count: 1)))
    }

    @Test func aDatabaseWithoutAPriorityRowHasNone() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        var builder = DatabaseBuilder()
        builder.priority = nil
        try builder.write([.init(0, 1000, offset: 0, count: "1", app: 1)], to: path)
        #expect(try open(path).read(into: SampleCollector()).activityPriority == nil)
    }

    fileprivate static let invalidRows: [(DatabaseBuilder.Row, String)] = [
        (.init(nil, 1000, offset: 0, count: "5", app: 1), "start_time is NULL"),
        (.init(1000, nil, offset: 0, count: "5", app: 1), "end_time is NULL"),
        (.init(1000, 2000, offset: 0, count: nil, app: 1), "count is NULL"),
        (.init(5000, 2000, offset: 0, count: "5", app: 1), "end_time 2000 is before start_time 5000"),
        (.init(1000, 2000, offset: 0, count: "-3", app: 1), "count -3 is negative"),
        (.init(1000, 2000, offset: 0, count: "'many'", app: 1), "count is \"many\", not a number"),
        (.init(1000, 2000, offset: 90_000, count: "5", app: 1), "start_zone_offset 90000 is not a UTC offset"),
        // Beyond SampleLimits (issue 11): these trapped in the aggregator, or ran away.
        (.init(1000, 2000, offset: 0, count: "1000000000000000000", app: 1),
         "count 1000000000000000000 is more steps than one record can hold (at most 1,000,000)"),
        (.init(1000, 2000, offset: 0, count: "9223372036854775807", app: 1),
         "count 9223372036854775807 is more steps than one record can hold (at most 1,000,000)"),
        (.init(1000, 2000, offset: 0, count: "1e300", app: 1), "count 1e+300 is more steps than one record can hold (at most 1,000,000)"),
        (.init(1000, 2000, offset: 0, count: "1000001.5", app: 1), "count 1000001.5 is more steps than one record can hold"),
        (.init(.min, .max, offset: 0, count: "5", app: 1), "start_time -9223372036854775808 is outside the years 1970 to 2200"),
        (.init(.min, .min, offset: 0, count: "5", app: 1), "start_time -9223372036854775808 is outside the years 1970 to 2200"),
        (.init(0, .max, offset: 0, count: "5", app: 1), "end_time 9223372036854775807 is outside the years 1970 to 2200"),
        (.init(-1, 0, offset: 0, count: "5", app: 1), "start_time -1 is outside the years 1970 to 2200"),
        (.init(0, 7_289_654_400_000, offset: 0, count: "5", app: 1), "end_time 7289654400000 is outside the years 1970 to 2200"),
        (.init(0, 7_289_654_399_999, offset: 0, count: "5", app: 1),
         "start_time 0 to end_time 7289654399999 is longer than 31 days, the longest one record may span"),
        (.init(0, 2_678_400_001, offset: 0, count: "5", app: 1),
         "start_time 0 to end_time 2678400001 is longer than 31 days, the longest one record may span"),
        (.init(0, 1000, offset: .max, count: "5", app: 1), "start_zone_offset 9223372036854775807 is not a UTC offset"),
        (.init(0, 1000, offset: .min, count: "5", app: 1), "start_zone_offset -9223372036854775808 is not a UTC offset"),
        (.init(0, 1000, offset: 0, count: "5", app: 1, endOffset: .some(.max)), "end_zone_offset 9223372036854775807 is not a UTC offset"),
    ]

    @Test(arguments: 0..<invalidRows.count)
    func anInvalidRowFailsTheReadAndNamesItsRowID(index: Int) throws {
        let (bad, problem) = Self.invalidRows[index]
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try DatabaseBuilder().write([.init(0, 1000, offset: 0, count: "10", app: 1), bad], to: path)
        guard case .invalidRecord(_, .none, let message, _)? = readError(path) else {
            Issue.record("expected an invalid record error, got \(String(describing: readError(path)))")
            return
        }
        #expect(message.contains("row_id 2: \(problem)"))
        #expect(readError(path)?.remedy == .skipInvalid)
    }

    /// The bound is `UTCOffset.maximumSeconds`, ±18 hours, the same as a counted offset in CSV or JSON.
    @Test func zoneOffsetsUpToEighteenHoursEitherWay() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try DatabaseBuilder().write([.init(0, 1000, offset: 64_800, count: "10", app: 1),
                                     .init(0, 1000, offset: -64_800, count: "11", app: 1),
                                     .init(0, 1000, offset: -64_801, count: "12", app: 1)], to: path)
        let collector = SampleCollector()
        let statistics = try open(path).read(into: collector, invalidRecords: .skip)
        #expect(collector.entries.map(\.sample.offsetSeconds) == [64_800, -64_800])
        #expect(statistics.skipped.examples.first?.problem
                    == "steps_record_table row_id 3: start_zone_offset -64801 is not a UTC offset in seconds (-64800 to 64800)")
    }

    @Test func invalidRowsAreSkippedAndCountedWhenAsked() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        var rows: [DatabaseBuilder.Row] = [.init(0, 1000, offset: 0, count: "10", app: 1)]
        rows += Self.invalidRows.map(\.0)
        rows.append(.init(2000, 3000, offset: 0, count: "11", app: 3))
        try DatabaseBuilder().write(rows, to: path)
        let collector = SampleCollector()
        let statistics = try open(path).read(into: collector, invalidRecords: .skip)
        #expect(collector.entries.map(\.sample.value) == [10, 11])
        #expect(statistics.rows == 2 + Self.invalidRows.count)
        #expect(statistics.samples == 2)
        #expect(statistics.skipped.count == Self.invalidRows.count)
        #expect(statistics.skipped.examples.count == 5)
        #expect(statistics.skipped.examples.first?.problem == "steps_record_table row_id 2: start_time is NULL")
        #expect(statistics.origins.first?.rows == 1 + Self.invalidRows.count)
    }

    @Test(arguments: [8, 24, 0])
    func anUnknownSchemaVersionIsRefused(version: Int) throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        var builder = DatabaseBuilder()
        builder.userVersion = version
        try builder.write([.init(0, 1000, offset: 0, count: "10", app: 1)], to: path)
        guard case .notAnExport(_, .android, let found, _)? = readError(path) else {
            Issue.record("expected notAnExport, got \(String(describing: readError(path)))")
            return
        }
        #expect(found == "schema version \(version) is not one this version of stepimport knows (9 to 23)")
    }

    @Test(arguments: [9, 23])
    func theEdgesOfTheKnownVersionsAreRead(version: Int) throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        var builder = DatabaseBuilder()
        builder.userVersion = version
        try builder.write([.init(0, 1000, offset: 0, count: "10", app: 1)], to: path)
        #expect(try open(path).read(into: SampleCollector()).samples == 1)
    }

    @Test func anotherSQLiteDatabaseIsNotAnExport() throws {
        let folder = ScratchFolder()
        let path = folder.file("notes.db")
        try DatabaseBuilder.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); PRAGMA user_version = 20;", at: path)
        let error = readError(path)
        guard case .notAnExport(_, .android, let found, _)? = error else {
            Issue.record("expected notAnExport, got \(String(describing: error))")
            return
        }
        #expect(found.contains("no steps_record_table"))
        #expect(found.contains("notes"))
        #expect(error?.description.contains("not an Android health export: an SQLite database with no steps_record_table") == true)
    }

    @Test func aStepsTableWithoutTheColumnsReadIsNotAnExport() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        var builder = DatabaseBuilder()
        builder.schema = """
            CREATE TABLE steps_record_table (row_id INTEGER PRIMARY KEY, start_time INTEGER, end_time INTEGER,
             app_info_id INTEGER, count INTEGER);
            CREATE TABLE application_info_table (row_id INTEGER PRIMARY KEY, package_name TEXT, app_name TEXT);
            CREATE TABLE device_info_table (row_id INTEGER PRIMARY KEY, manufacturer TEXT, model TEXT, device_type INTEGER);
            """
        builder.priority = nil
        try builder.write([], to: path)
        guard case .notAnExport(_, _, let found, _)? = readError(path) else {
            Issue.record("expected notAnExport, got \(String(describing: readError(path)))")
            return
        }
        #expect(found.contains("steps_record_table has no column start_zone_offset, end_zone_offset"))
    }

    @Test func aFileThatIsNotSQLiteIsNotAnExport() throws {
        let folder = ScratchFolder()
        let json = folder.file("steps.json")
        try Data("{\"records\":[]}".utf8).write(to: URL(fileURLWithPath: json))
        guard case .notAnExport(_, .android, let found, _)? = readError(json) else {
            Issue.record("expected notAnExport, got \(String(describing: readError(json)))")
            return
        }
        #expect(found.contains("not an SQLite database"))

        let empty = folder.file("empty.db")
        try Data().write(to: URL(fileURLWithPath: empty))
        guard case .notAnExport(_, _, let emptyFound, _)? = readError(empty) else {
            Issue.record("expected notAnExport, got \(String(describing: readError(empty)))")
            return
        }
        #expect(emptyFound == "the file is empty")

        #expect(readError(folder.file("missing.db")) == .notFound(path: folder.file("missing.db")))
        guard case .unreadable? = readError(folder.path) else {
            Issue.record("a folder should be unreadable as a database")
            return
        }
    }

    /// Writes `count` rows so that the steps table spans many pages.
    private func writeLarge(_ path: String, count: Int = 4000) throws {
        let start = utcMs(2025, 1, 1, 6)
        var rows: [DatabaseBuilder.Row] = []
        for index in 0..<Int64(count) {
            let rowStart: Int64 = start + index * 5 * minute
            rows.append(DatabaseBuilder.Row(rowStart, rowStart + minute, offset: 3600, count: String(10 + index % 90), app: 1 + index % 4))
        }
        try DatabaseBuilder().write(rows, to: path)
    }

    @Test(arguments: [0.5, 0.9, 0.02])
    func aTruncatedDatabaseIsAnErrorBeforeAnySampleIsHandedOn(keptFraction: Double) throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(Int(Double(whole.count) * keptFraction)).write(to: URL(fileURLWithPath: path))
        let collector = SampleCollector()
        do {
            _ = try open(path).read(into: collector)
            Issue.record("a truncated database was read")
        } catch {
            guard case .malformed(_, .none, let problem) = error else {
                Issue.record("expected malformed, got \(error)")
                return
            }
            #expect(problem.contains("truncated"))
        }
        #expect(collector.entries.isEmpty)
    }

    @Test func aTruncatedHeaderIsMalformed() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path, count: 10)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(60).write(to: URL(fileURLWithPath: path))
        guard case .malformed(_, _, let problem)? = readError(path) else {
            Issue.record("expected malformed, got \(String(describing: readError(path)))")
            return
        }
        #expect(problem.contains("ends inside its 100-byte header"))
    }

    @Test func aDamagedPageEndsTheReadWithAnError() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Overwrite three of the steps table's leaf pages (found with dbstat: the random uuids'
        // index moves the table's pages around from one database to the next) with garbage; the
        // length stays right, so only SQLite's own checks can catch it.
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let leaves = try DatabaseBuilder.leafPages(of: "steps_record_table", at: path)
        try #require(leaves.count >= 6, "\(leaves)")
        var state: UInt64 = 42
        for page in leaves[(leaves.count / 3)..<(leaves.count / 3 + 3)] {
            // dbstat counts pages from 1.
            for index in ((page - 1) * pageSize)..<(page * pageSize) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = readError(path)
        guard case .malformed(_, _, let problem)? = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
        #expect(problem.contains("damaged"))
    }

    @Test(arguments: ["DELETE", "WAL"])
    func openingAndReadingWritesNothingBesideTheInput(journalMode: String) throws {
        let folder = ScratchFolder()
        let path = folder.file("health_connect_export.db")
        var builder = DatabaseBuilder()
        builder.journalMode = journalMode
        try builder.write([.init(0, 1000, offset: 0, count: "10", app: 1)], to: path)
        let before = folder.listing
        #expect(before == ["health_connect_export.db"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let database = try open(path)
            #expect(folder.listing == before)
            #expect(try database.read(into: SampleCollector()).samples == 1)
            #expect(folder.listing == before)
        }
        #expect(folder.listing == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func namesWithURICharactersAreOpenedAsTheyAre() throws {
        let folder = ScratchFolder()
        let path = folder.file("Health Connect (2) ?#%20ü.db")
        try DatabaseBuilder().write([.init(0, 1000, offset: 0, count: "10", app: 1)], to: path)
        #expect(try open(path).read(into: SampleCollector()).samples == 1)
        #expect(folder.listing == ["Health Connect (2) ?#%20ü.db"])
        #expect(HealthConnectDatabase.uri(forPath: "//server/a b.db") == "file:////server/a%20b.db?mode=ro&immutable=1")
        #expect(HealthConnectDatabase.uri(forPath: "rel/x?.db") == "file:rel/x%3F.db?mode=ro&immutable=1")
    }

    /// The way a zip entry or standard input reaches the reader: a stream, copied to a file
    /// whose name is gone as soon as SQLite holds it open.
    @Test func aStreamIsReadThroughATemporaryCopyThatLeavesNoName() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path, count: 50)
        let copies = ScratchFolder()
        let stream = try FileStream(path: path)
        var head = [UInt8](repeating: 0, count: 16)
        let headCount = try head.withUnsafeMutableBytes { try stream.read(into: $0) }
        let location = InputLocation(path: "Health Connect.zip", entries: ["health_connect_export.db"])
        var progress: Int64 = 0
        let database = try HealthConnectDatabase(copying: stream, prefix: Array(head[0..<headCount]), location: location,
                                                 progress: { done, _ in progress = done }, in: copies.path)
        #expect(copies.listing.isEmpty)
        #expect(progress == Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count))
        #expect(database.location == location)
        #expect(try database.read(into: SampleCollector()).samples == 50)
        #expect(folder.listing == ["hc.db"])
    }

    @Test func aTruncatedStreamIsMalformedAndItsCopyIsRemoved() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        let copies = ScratchFolder()
        do {
            _ = try HealthConnectDatabase(copying: try FileStream(path: path), prefix: [], location: nil, progress: nil, in: copies.path)
            Issue.record("a truncated stream was opened")
        } catch {
            guard case .malformed(let location, _, let problem) = error else {
                Issue.record("expected malformed, got \(error)")
                return
            }
            #expect(location == InputLocation(path: path))
            #expect(problem.contains("truncated"))
        }
        #expect(copies.listing.isEmpty)
    }

    #if os(Linux)
    /// An unlinked temporary file handed over by its descriptor's path, which SQLite alone
    /// cannot open (it resolves the link to "... (deleted)").
    @Test func anUnlinkedFileIsReadThroughItsDescriptorPath() throws {
        let folder = ScratchFolder()
        let path = folder.file("hc.db")
        try writeLarge(path, count: 20)
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        unlink(path)
        let location = InputLocation(path: "-")
        let database = try HealthConnectDatabase(path: "/proc/self/fd/\(descriptor)", location: location)
        #expect(try database.read(into: SampleCollector()).samples == 20)
        #expect(folder.listing.isEmpty)
        #expect(HealthConnectDatabase.isDescriptorPath("/dev/fd/12"))
        #expect(!HealthConnectDatabase.isDescriptorPath("/proc/self/fd/"))
        #expect(!HealthConnectDatabase.isDescriptorPath("/proc/self/fd/3/x"))
    }
    #endif

    // MARK: - A generated database against totals computed here

    /// A few hundred rows in the shapes Health Connect holds: three apps (the phone under both
    /// names), a traveller's offsets, walks across midnight, zero-length rows, exact duplicates.
    @Test func aGeneratedDatabaseGivesTheTotalsComputedByHand() throws {
        struct Model {
            let app: Int64
            let start: Int64
            let end: Int64
            let offset: Int64
            let count: Int64
        }
        var state: UInt64 = 0x5EED
        func random(_ range: ClosedRange<Int64>) -> Int64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int64((state >> 33) % UInt64(range.upperBound - range.lowerBound + 1))
        }
        let offsets: [Int64] = [3600, 7200, -14400, 19800, 0, -18000]
        var models: [Model] = []
        let firstDay = Int64(LocalDate("2026-03-20")!.daysSinceEpoch)
        for day in 0..<12 {
            let offset = offsets[day / 2]
            let localMidnight = (firstDay + Int64(day)) * 86_400_000 - offset * 1000
            for _ in 0..<20 {
                let start = localMidnight + random(6 * hour...(24 * hour - 1))
                let length = random(0...3) == 0 ? 0 : random(minute...(40 * minute))
                // The phone's counter is `android` for the first half, then renamed.
                let phone: Int64 = day < 6 ? 1 : 2
                let app = [phone, 3, 4][Int(random(0...2))]
                let model = Model(app: app, start: start, end: start + length, offset: offset, count: random(1...3000))
                models.append(model)
                if random(0...9) == 0 { models.append(model) }
            }
        }
        let folder = ScratchFolder()
        let path = folder.file("generated.db")
        try DatabaseBuilder().write(models.map {
            .init($0.start, $0.end, offset: $0.offset, count: String($0.count), app: $0.app)
        }, to: path)

        // Expected: duplicates once, each row on its own offset's clock, split at midnight by time.
        struct Key: Hashable { let app: Int64, start: Int64, end: Int64, count: Int64 }
        var seen = Set<Key>()
        var sums: [String: [Int64: Double]] = [:]
        for model in models {
            let source = model.app == 1 || model.app == 2 ? "android" : DatabaseBuilder.apps[Int(model.app) - 1].1
            guard seen.insert(Key(app: model.app == 2 ? 1 : model.app, start: model.start, end: model.end, count: model.count)).inserted
            else { continue }
            let start = model.start + model.offset * 1000
            let end = model.end + model.offset * 1000
            var day = start / 86_400_000
            if end == start {
                sums[source, default: [:]][day, default: 0] += Double(model.count)
                continue
            }
            var from = start
            while from < end {
                let to = min(end, (day + 1) * 86_400_000)
                sums[source, default: [:]][day, default: 0] += Double(model.count) * Double(to - from) / Double(end - start)
                from = to
                day += 1
            }
        }
        var expected: [Int64: (steps: Int, source: String)] = [:]
        for (source, days) in sums {
            for (day, sum) in days {
                let steps = Int(sum.rounded(.toNearestOrAwayFromZero))
                guard steps > 0 else { continue }
                if let best = expected[day], best.steps > steps || (best.steps == steps && best.source < source) { continue }
                expected[day] = (steps, source)
            }
        }
        let expectedPairs = expected.keys.sorted().map { "\(LocalDate(daysSinceEpoch: Int32($0)))=\(expected[$0]!.steps)" }

        let aggregator = DayAggregator(rule: .recordedOffset)
        let statistics = try open(path).read(into: aggregator)
        #expect(statistics.rows == models.count)
        #expect(aggregator.statistics.duplicates == models.count - seen.count)
        #expect(aggregator.statistics.crossingMidnight > 0)
        let days = aggregator.dayTotals()
        #expect(days.pairs == expectedPairs)
        #expect(days.map(\.source) == expected.keys.sorted().map { expected[$0]!.source })
    }
}

// MARK: - A write-ahead log beside the database (issue 11)

/// What a folder holds: each name with its size and modification time, to prove nothing changed.
private func snapshot(_ folder: String) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
        var info = stat()
        guard stat(folder + "/" + name, &info) == 0 else { continue }
        result[name] = "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
    return result
}

/// Day totals (`date=steps`, each row on its own offset's day) as SQLite itself sees `path`,
/// read from a throwaway copy of the database and its log, so that the input stays as it is.
private func daysAsSQLiteSees(_ path: String, scratch: ScratchFolder) throws -> [String] {
    let copy = scratch.file("sqlite-view.db")
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
    }
    var handle: OpaquePointer?
    guard sqlite3_open_v2(copy, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw TestFailure("cannot open the copy") }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    let sql = "SELECT date(start_time / 1000 + start_zone_offset, 'unixepoch') AS day, sum(count) FROM steps_record_table GROUP BY day ORDER BY day"
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw TestFailure("cannot query the copy") }
    defer { sqlite3_finalize(statement) }
    var days: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        days.append("\(String(cString: sqlite3_column_text(statement, 0)))=\(sqlite3_column_int64(statement, 1))")
    }
    return days
}

/// Reads `path` with the Health Connect reader into day totals (each sample on its own offset).
private func daysAsRead(_ path: String, temporary: String) throws -> (days: [String], summary: ImportSummary) {
    let aggregator = DayAggregator(rule: .recordedOffset)
    let summary = try ExportImporter.open(path: path, as: .family(.android), limits: TemporaryCopyLimits(folder: temporary))
        .read(into: aggregator).summary
    try aggregator.finish()
    return (aggregator.dayTotals().pairs, summary)
}

@Suite struct HealthConnectWriteAheadLogTests {
    /// A WAL-mode database whose first day is in the database and the five after it only in the
    /// log: written through SQLite, and copied with its log while the writer still holds it open
    /// (closing it would fold the log into the database).
    private func writeDatabaseWithLog(in folder: ScratchFolder) throws -> String {
        let writing = ScratchFolder()
        let source = writing.file("health_connect_export.db")
        var builder = DatabaseBuilder()
        builder.journalMode = "WAL"
        try builder.write([.init(utcMs(2024, 3, 1, 9), utcMs(2024, 3, 1, 10), offset: 3600, count: "500", app: 1)], to: source)
        var handle: OpaquePointer?
        guard sqlite3_open_v2(source, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { throw TestFailure("cannot reopen") }
        defer { sqlite3_close(handle) }
        var sql = "PRAGMA wal_autocheckpoint = 0; BEGIN;"
        for day in 1...5 {
            for (hour, count) in [(8, 4000 + day), (12, 3000 + day)] {
                let app = 1
                let start = utcMs(2024, 3, 1 + day, hour)
                sql += """
                    INSERT INTO steps_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, count)
                    VALUES (randomblob(16), \(app), \(start), 3600, \(start + 1_800_000), 3600, \(count));
                    """
            }
        }
        sql += "COMMIT;"
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw TestFailure("cannot write the log") }
        let path = folder.file("health_connect_export.db")
        try FileManager.default.copyItem(atPath: source, toPath: path)
        try FileManager.default.copyItem(atPath: source + "-wal", toPath: path + "-wal")
        return path
    }

    @Test func aLogBesideTheDatabaseIsAppliedToAPrivateCopyAndNothingBesideItChanges() throws {
        let input = ScratchFolder()
        let path = try writeDatabaseWithLog(in: input)
        let temporary = ScratchFolder()
        let before = try snapshot(input.path)
        #expect(before.keys.sorted() == ["health_connect_export.db", "health_connect_export.db-wal"])
        let expected = try daysAsSQLiteSees(path, scratch: ScratchFolder())
        #expect(expected.count == 6)

        let (days, summary) = try daysAsRead(path, temporary: temporary.path)
        #expect(days == expected)
        #expect(summary.notes.contains { $0.factText?.contains("write-ahead log beside it (health_connect_export.db-wal") == true })
        #expect(try snapshot(input.path) == before)
        #expect(temporary.listing.isEmpty)
    }

    @Test func whileOpenTheCopyLivesInAPrivateFolderThatGoesWithTheConnection() throws {
        let input = ScratchFolder()
        let path = try writeDatabaseWithLog(in: input)
        let temporary = ScratchFolder()
        var database: HealthConnectDatabase? = try HealthConnectDatabase(
            path: path, location: InputLocation(path: path), limits: TemporaryCopyLimits(folder: temporary.path))
        #expect(database?.journal?.kind == .writeAheadLog)
        let copies = temporary.listing
        #expect(copies.count == 1 && copies[0].hasPrefix("stepimport-hc-"))
        #expect((try FileManager.default.attributesOfItem(atPath: temporary.file(copies[0]))[.posixPermissions] as? Int) == 0o700)
        #expect(try database?.read(into: SampleCollector()).samples == 11)
        database = nil
        #expect(temporary.listing.isEmpty)
    }

    @Test func withoutALogTheDatabaseIsStillReadWhereItIs() throws {
        let input = ScratchFolder()
        let path = try writeDatabaseWithLog(in: input)
        try FileManager.default.removeItem(atPath: path + "-wal")
        FileManager.default.createFile(atPath: path + "-wal", contents: Data()) // an empty log is no log
        let temporary = ScratchFolder()
        let database = try HealthConnectDatabase(path: path, location: InputLocation(path: path),
                                                 limits: TemporaryCopyLimits(folder: temporary.path))
        #expect(database.journal == nil)
        #expect(temporary.listing.isEmpty)
        #expect(try database.read(into: SampleCollector()).samples == 1)
    }

    @Test func aLogBesideTheDatabaseInAZipIsAppliedToo() throws {
        let input = ScratchFolder()
        let path = try writeDatabaseWithLog(in: input)
        let expected = try daysAsSQLiteSees(path, scratch: ScratchFolder())
        let zip = input.file("Health Connect.zip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.write(sys.argv[2], "health_connect_export.db")
                z.write(sys.argv[2] + "-wal", "health_connect_export.db-wal")
            """, zip, path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let temporary = ScratchFolder()
        let (days, summary) = try daysAsRead(zip, temporary: temporary.path)
        #expect(days == expected)
        #expect(summary.notes.contains { $0.factText?.contains("write-ahead log") == true })
        #expect(temporary.listing.isEmpty)
    }

    /// The hand-made hostile pair: 1 day read today, 6 in `sqlite3`. The fixture folder is
    /// read-only, so reading it in place also proves nothing is written beside it.
    @Test(.needsSharedFixtures) func theHostileFixturePairReadsAsSQLiteSeesIt() throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("hostile/wal-mode.db").path
        let folder = (path as NSString).deletingLastPathComponent
        let before = try snapshot(folder)
        let expected = try daysAsSQLiteSees(path, scratch: ScratchFolder())
        #expect(expected.count == 6)
        let temporary = ScratchFolder()
        let (days, _) = try daysAsRead(path, temporary: temporary.path)
        #expect(days == expected)
        #expect(try snapshot(folder) == before)
        #expect(temporary.listing.isEmpty)
    }
}
