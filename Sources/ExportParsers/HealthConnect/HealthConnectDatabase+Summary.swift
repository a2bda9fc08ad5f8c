import HealthDays
/// How a database read reads in the import report.
extension HealthConnectDatabase {
    /// A few words on the format found, e.g. "Health Connect database (schema 20)".
    func formatName(_ statistics: HealthConnectDatabaseStatistics) -> String {
        "Health Connect database (schema \(statistics.schemaVersion))"
    }

    /// Adds the counts, skipped rows and notes of one read to `summary`.
    func summarize(_ statistics: HealthConnectDatabaseStatistics, into summary: inout ImportSummary,
                   at location: InputLocation) {
        summary.stepRecords += statistics.samples
        summary.addSkipped(statistics.skipped, at: location)
        if !statistics.origins.isEmpty {
            let listed = statistics.origins.map { origin in
                let rows = origin.rows == 1 ? "1 row" : "\(origin.rows) rows"
                return origin.source == origin.packageName ? "\(origin.packageName) (\(rows))"
                    : "\(origin.packageName) (\(rows), counted as \(origin.source))"
            }
            summary.notes.append(.fact("apps with step records: " + listed.joined(separator: ", ")))
        }
        if let priority = statistics.activityPriority, !priority.isEmpty {
            summary.notes.append(.fact("Health Connect's own priority for activity: " + priority.joined(separator: " > ")
                + "; its app shows the top app's steps in each moment, stepimport the highest single app per day"))
        }
        if let journal {
            let what = journal.kind == .writeAheadLog ? "the write-ahead log" : "the rollback journal"
            summary.notes.append(.fact("\(what) beside it (\(journal.name), \(journal.byteSize) bytes) was applied, "
                + "to a private copy of both: nothing was written beside the input"))
        }
        if statistics.rowsWithoutOffset > 0 {
            summary.notes.append(.recordsWithoutOffset(count: statistics.rowsWithoutOffset))
        }
    }
}
