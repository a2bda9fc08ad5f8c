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
        // The sources themselves, with their records, are in the summary of every format; here
        // only the origins that count as another source under another name.
        let renamed = statistics.origins.filter { $0.source != $0.packageName }
        if !renamed.isEmpty {
            let listed = renamed.map { "\($0.packageName) (\(Plural.count($0.rows, "row"))) as \($0.source)" }
            summary.notes.append(.fact("counted as one source, the phone's own counter under two names: "
                + listed.joined(separator: ", ")))
        }
        if let priority = statistics.activityPriority, !priority.isEmpty {
            summary.notes.append(.activityPriority(priority))
        }
        if let journal {
            let what = journal.kind == .writeAheadLog ? "the write-ahead log" : "the rollback journal"
            summary.notes.append(.fact("\(what) beside it (\(journal.name), \(journal.byteSize) bytes) was applied, "
                + "to a private copy of both: nothing was written beside the input"))
        }
        if !statistics.absentTables.isEmpty {
            summary.notes.append(.fact("not in this database (schema \(statistics.schemaVersion)), so no values from them: "
                + statistics.absentTables.joined(separator: ", ")))
        }
        if statistics.rowsWithoutOffset > 0 {
            summary.notes.append(.recordsWithoutOffset(count: statistics.rowsWithoutOffset))
        }
    }
}
