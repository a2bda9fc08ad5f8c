import CSQLite
import HealthDays

/// The checks that tell Health Connect's export from any other SQLite file.
extension HealthConnectDatabase {
    /// The columns read from each table.
    static let stepColumns = ["row_id", "start_time", "end_time", "start_zone_offset", "end_zone_offset", "count", "app_info_id"]
    static let applicationColumns = ["row_id", "package_name"]
    static let priorityColumns = ["health_data_category", "app_id_priority_order"]

    /// Checks the tables, their columns and the schema version; returns the version and whether
    /// the (optional) priority table can be read.
    static func checkSchema(_ connection: OpaquePointer, location: InputLocation) throws(ExportError)
        -> (version: Int, hasPriorityTable: Bool, hasLastModified: Bool, hasRecordingMethod: Bool) {
        // The file is untrusted: never let functions named in its schema (views, triggers,
        // generated columns) run with side effects, and refuse every write.
        try execute("PRAGMA trusted_schema = OFF", connection, location)
        try execute("PRAGMA query_only = ON", connection, location)

        // The first statement that reads the file: a damaged header or schema fails here.
        var tables: [String] = []
        let listing = try prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                                  on: connection, location: location)
        try forEachRow(listing, on: connection, location: location, while: "reading the list of tables") {
            tables.append(listing.text(0))
        }
        guard tables.contains("steps_record_table") else {
            let shown = tables.filter { !$0.hasPrefix("sqlite_") }
            let holds = shown.isEmpty ? "no tables at all"
                : (shown.count == 1 ? "table " : "tables ") + shown.prefix(8).joined(separator: ", ") + (shown.count > 8 ? ", ..." : "")
            throw ExportError.notAnExport(location, expected: .android,
                                          found: "an SQLite database with no steps_record_table (it holds \(holds))",
                                          remedy: .useHealthConnectDatabase)
        }
        guard tables.contains("application_info_table") else {
            throw ExportError.notAnExport(location, expected: .android,
                                          found: "an SQLite database with steps_record_table but no application_info_table",
                                          remedy: nil)
        }
        var hasLastModified = false
        var hasRecordingMethod = false
        for (table, wanted) in [("steps_record_table", stepColumns), ("application_info_table", applicationColumns)] {
            let columns = try columnNames(of: table, connection, location)
            if table == "steps_record_table" {
                hasLastModified = columns.contains("last_modified_time")
                hasRecordingMethod = columns.contains("recording_method")
            }
            let absent = wanted.filter { !columns.contains($0) }
            guard absent.isEmpty else {
                throw ExportError.notAnExport(location, expected: .android,
                                              found: "an SQLite database whose \(table) has no column \(absent.joined(separator: ", "))",
                                              remedy: nil)
            }
        }

        let versionQuery = try prepare("PRAGMA user_version", on: connection, location: location)
        var version = 0
        try forEachRow(versionQuery, on: connection, location: location, while: "reading the schema version") {
            version = Int(versionQuery.int64(0))
        }
        guard knownSchemaVersions.contains(version) else {
            throw ExportError.notAnExport(
                location, expected: .android,
                found: "schema version \(version) is not one this version of stepimport knows "
                    + "(\(knownSchemaVersions.lowerBound) to \(knownSchemaVersions.upperBound))",
                remedy: version > knownSchemaVersions.upperBound
                    ? .useNewerVersion
                    : nil)
        }

        var hasPriorityTable = false
        if tables.contains("health_data_category_priority_table") {
            let columns = try columnNames(of: "health_data_category_priority_table", connection, location)
            hasPriorityTable = priorityColumns.allSatisfy(columns.contains)
        }
        return (version, hasPriorityTable, hasLastModified, hasRecordingMethod)
    }

    /// The declared columns of `table` (a constant name, never user input).
    static func columnNames(of table: String, _ connection: OpaquePointer,
                                    _ location: InputLocation) throws(ExportError) -> Set<String> {
        let statement = try prepare("SELECT name FROM pragma_table_info('\(table)')", on: connection, location: location)
        var names = Set<String>()
        try forEachRow(statement, on: connection, location: location, while: "reading the columns of \(table)") {
            names.insert(statement.text(0))
        }
        return names
    }

    private static func execute(_ sql: String, _ connection: OpaquePointer, _ location: InputLocation) throws(ExportError) {
        let statement = try prepare(sql, on: connection, location: location)
        try forEachRow(statement, on: connection, location: location, while: "setting up the connection") {}
    }
}
