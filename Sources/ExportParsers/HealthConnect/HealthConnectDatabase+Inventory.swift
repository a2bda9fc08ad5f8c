import CSQLite
import HealthDays

extension HealthConnectDatabase {
    /// Adds the database's `user_version`, its tables, and the rows of every `*_record_table`
    /// to `inventory` (`stepimport inspect`).
    func takeStock(into inventory: inout ExportInventory) throws(ExportError) {
        var tables: [String] = []
        let listing = try prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        try HealthConnectDatabase.forEachRow(listing, on: connection, location: location, while: "reading the list of tables") {
            tables.append(listing.text(0))
        }
        inventory.database = ExportInventory.DatabaseMetadata(userVersion: schemaVersion, tables: tables)
        for table in tables where table.hasSuffix("_record_table") {
            // The name comes from the file: quoted as an identifier, its quotes doubled.
            let quoted = "\"" + String(table.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
            let rows = try prepare("SELECT COUNT(*) FROM \(quoted)")
            var count: Int64 = 0
            try HealthConnectDatabase.forEachRow(rows, on: connection, location: location, while: "counting the rows of \(table)") {
                count = rows.int64(0)
            }
            // Listed even when empty: which record types a phone had is worth knowing.
            inventory.recordTypes.append(ExportInventory.RecordType(kind: "table", name: table, count: Int(count)))
        }
    }
}
