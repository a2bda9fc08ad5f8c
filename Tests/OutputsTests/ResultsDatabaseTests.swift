import CSQLite
import Foundation
import HealthDays
import Outputs
import Platform
import Testing

/// The SQLite output: a new database appears whole or not at all, an import replaces its own rows
/// and keeps the others, and a file that is not stepimport's is refused and left as it was.
@Suite struct ResultsDatabaseTests {
    typealias Folder = FileOutputSinkTests.Folder

    static let days = [
        DayTotal(date: LocalDate("2024-03-15")!, steps: 8123, source: "iPhone",
                 sources: [SourceTotal(source: "iPhone", steps: 8123), SourceTotal(source: "Watch", steps: 7000)]),
        DayTotal(date: LocalDate("2024-03-16")!, steps: 500, source: "Mi, Fit", sources: [SourceTotal(source: "Mi, Fit", steps: 500)]),
    ]

    static func record(_ account: String, _ file: String) -> ResultsDatabase.Import {
        ResultsDatabase.Import(account: account, file: file, format: "test", zone: "UTC", rule: "highest-source",
                               options: ["apple", "x \"quoted\""], version: "0.0.1",
                               importedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    static func layout(bySource: Bool = false) -> DayLayout {
        DayLayout(bySource: bySource, zoneDescription: "UTC",
                  enteredByHand: [SourceDay(date: LocalDate("2024-03-15")!, source: "Watch")])
    }

    /// Every row of `sql`, each column as text ("NULL" for none), columns joined by `|`.
    static func rows(_ path: String, _ sql: String) throws -> [String] {
        var connection: OpaquePointer?
        try #require(sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(connection) }
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK,
                     "\(String(cString: sqlite3_errmsg(connection)))")
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
            }.joined(separator: "|"))
        }
        return rows
    }

    @Test func aNewDatabaseAppearsOnlyWhenComplete() throws {
        let folder = try Folder()
        let path = folder.path + "/days.sqlite"
        let database = try ResultsDatabase(path: path)
        #expect(folder.listing.count == 1 && folder.listing[0].hasPrefix(".days.sqlite."))
        try database.write(Self.record("", "/e/export.zip"), .dayTotals(Self.days), Self.layout(bySource: true))
        #expect(!FileManager.default.fileExists(atPath: path))
        try database.finish()
        #expect(folder.listing == ["days.sqlite"])
        #expect(try Self.rows(path, "PRAGMA application_id") == ["\(ResultsDatabase.applicationID)"])
        #expect(try Self.rows(path, "SELECT account, file, format, zone, rule, options, stepimport_version, imported_at FROM imports")
            == [#"|/e/export.zip|test|UTC|highest-source|["apple","x \"quoted\""]|0.0.1|2023-11-14T22:13:20Z"#])
        #expect(try Self.rows(path, "SELECT date, metric, value, typeof(value), source FROM days ORDER BY date")
            == ["2024-03-15|steps|8123|integer|iPhone", "2024-03-16|steps|500|integer|Mi, Fit"])
        #expect(try Self.rows(path, "SELECT date, source, value, winner, implausible, priority, entered_by_hand FROM source_days "
                              + "ORDER BY date, winner DESC")
            == ["2024-03-15|iPhone|8123|1|0|NULL|0", "2024-03-15|Watch|7000|0|0|NULL|1", "2024-03-16|Mi, Fit|500|1|0|NULL|0"])
        #expect(try Self.rows(path, "SELECT date, steps, source FROM daily_steps ORDER BY date")
            == ["2024-03-15|8123|iPhone", "2024-03-16|500|Mi, Fit"])
    }

    @Test func anImportReplacesItsOwnRowsAndKeepsTheOthers() throws {
        let folder = try Folder()
        let path = folder.path + "/days.db"
        for (account, file, days) in [("anna", "/e/a.zip", Self.days), ("ben", "/e/b.zip", Self.days), ("anna", "/e/a.zip", [Self.days[1]])] {
            let database = try ResultsDatabase(path: path)
            try database.write(Self.record(account, file), .dayTotals(days), Self.layout(bySource: true))
            try database.finish()
        }
        #expect(try Self.rows(path, "SELECT account, file FROM imports ORDER BY account") == ["anna|/e/a.zip", "ben|/e/b.zip"])
        #expect(try Self.rows(path, "SELECT account, count(*) FROM days GROUP BY account") == ["anna|1", "ben|2"])
        #expect(try Self.rows(path, "SELECT account, count(*) FROM source_days GROUP BY account") == ["anna|1", "ben|3"])
        // Every day row belongs to an import that is there.
        #expect(try Self.rows(path, "SELECT count(*) FROM days WHERE import_id NOT IN (SELECT id FROM imports)") == ["0"])
        #expect(folder.listing == ["days.db"])
    }

    @Test func metricValuesAreTheNumbersJSONWrites() throws {
        let folder = try Folder()
        let path = folder.path + "/m.sqlite"
        var day = MetricDay(date: LocalDate("2024-03-15")!)
        day[.steps] = 8123
        day[.distanceMetres] = 6012.4
        day[.heartRateAverage] = 72.4
        let sources = [
            MetricSourceValue(date: day.date, column: .steps, source: "iPhone", value: 8123, standing: .winner),
            MetricSourceValue(date: day.date, column: .distanceMetres, source: "Watch", value: 6012.4, standing: .winner),
            MetricSourceValue(date: day.date, column: .heartRateAverage, source: "Watch", value: 72.4, standing: .winner),
            MetricSourceValue(date: day.date, column: .heartRateAverage, source: "Band", value: 300, standing: .implausible),
        ]
        let database = try ResultsDatabase(path: path)
        try database.write(Self.record("", "/e/x"), .metricDays([day], sources: sources,
                                                                columns: [.steps, .distanceMetres, .heartRateAverage]),
                           Self.layout(bySource: false))
        try database.finish()
        let json = MemorySink()
        try JSONWriter().writeMetricDays([day], sources: [], columns: [.steps, .distanceMetres, .heartRateAverage],
                                         Self.layout(), to: json)
        #expect(json.text.contains(#""steps":8123,"distance_m":6012,"hr_avg":72.4"#))
        #expect(try Self.rows(path, "SELECT metric, value, typeof(value), source FROM days ORDER BY metric")
            == ["distance_m|6012|integer|Watch", "hr_avg|72.4|real|Watch", "steps|8123|integer|iPhone"])
        // Without --by-source no source rows, but each day's source all the same.
        #expect(try Self.rows(path, "SELECT count(*) FROM source_days") == ["0"])
    }

    /// Files stepimport did not make are refused before anything is written, byte for byte as they were.
    @Test func aFileThatIsNotStepimportsIsLeftAsItWas() throws {
        let folder = try Folder()
        let ours = folder.path + "/ours.sqlite"
        let database = try ResultsDatabase(path: ours)
        try database.write(Self.record("", "/e/x"), .dayTotals(Self.days), Self.layout())
        try database.finish()
        var newer = try Data(contentsOf: URL(fileURLWithPath: ours))
        newer[63] = 9  // user_version 9
        var other = try Data(contentsOf: URL(fileURLWithPath: ours))
        other.replaceSubrange(68..<72, with: [0, 0, 0, 7])  // application_id 7
        let files: [(String, Data)] = [("text.db", Data("hello\n".utf8)), ("newer.sqlite", newer), ("other.db", other),
                                       ("short.sqlite", Data("SQLite format 3\0".utf8))]
        for (name, bytes) in files {
            let path = folder.path + "/" + name
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: OutputError.self) { try ResultsDatabase(path: path) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(name) changed")
        }
        #expect(folder.listing == ["newer.sqlite", "other.db", "ours.sqlite", "short.sqlite", "text.db"])
        // An empty file is a new database.
        let empty = folder.path + "/empty.sqlite"
        FileManager.default.createFile(atPath: empty, contents: nil)
        let fresh = try ResultsDatabase(path: empty)
        try fresh.write(Self.record("", "/e/x"), .dayTotals(Self.days), Self.layout())
        try fresh.finish()
        #expect(try Self.rows(empty, "SELECT count(*) FROM days") == ["2"])
    }

    @Test func aDatabaseThatIsDiscardedLeavesNothing() throws {
        let folder = try Folder()
        let database = try ResultsDatabase(path: folder.path + "/days.sqlite")
        try database.write(Self.record("", "/e/x"), .dayTotals(Self.days), Self.layout())
        database.discard()
        #expect(folder.listing.isEmpty)
        #expect(throws: OutputError.self) { try ResultsDatabase(path: folder.path + "/no/such/days.sqlite") }
        #expect(throws: OutputError.self) { try ResultsDatabase(path: "/dev/stdout") }
    }

    /// A batch's database is made at once and commits import by import where it stands.
    @Test func inPlaceEveryImportIsCommittedWhereItStands() throws {
        let folder = try Folder()
        let path = folder.path + "/batch.sqlite"
        let database = try ResultsDatabase(path: path, inPlace: true)
        #expect(folder.listing == ["batch.sqlite"])
        try database.write(Self.record("anna", "/e/a.zip"), .dayTotals(Self.days), Self.layout())
        #expect(try Self.rows(path, "SELECT account, count(*) FROM days GROUP BY account") == ["anna|2"])
        try database.write(Self.record("ben", "/e/b.zip"), .dayTotals(Self.days), Self.layout())
        try database.finish()
        #expect(try Self.rows(path, "SELECT account, count(*) FROM days GROUP BY account") == ["anna|2", "ben|2"])
        #expect(folder.listing == ["batch.sqlite"])
    }
}
