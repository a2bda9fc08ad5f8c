import Foundation
import HealthDays
import StreamingText

/// One import's rows: its line of `imports`, then its days and, by source, its sources' values,
/// the values as `--format json` writes them.
extension ResultsDatabase {
    func insert(_ record: Import, _ results: DayResults, _ layout: DayLayout, on connection: Connection) throws(SQLiteFailure) {
        for table in ["days", "source_days"] {
            let remove = try connection.prepare("DELETE FROM \(table) WHERE import_id IN "
                                                + "(SELECT id FROM imports WHERE account = ?1 AND file = ?2)")
            remove.bind(1, record.account)
            remove.bind(2, record.file)
            try remove.run()
        }
        let removeImport = try connection.prepare("DELETE FROM imports WHERE account = ?1 AND file = ?2")
        removeImport.bind(1, record.account)
        removeImport.bind(2, record.file)
        try removeImport.run()

        let addImport = try connection.prepare("INSERT INTO imports (account, file, format, zone, rule, options, "
                                               + "stepimport_version, imported_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        addImport.bind(1, record.account)
        addImport.bind(2, record.file)
        addImport.bind(3, record.format)
        addImport.bind(4, record.zone)
        addImport.bind(5, record.rule)
        addImport.bind(6, "[" + record.options.map(JSONString.literal).joined(separator: ",") + "]")
        addImport.bind(7, record.version)
        addImport.bind(8, record.importedAt.formatted(.iso8601))
        try addImport.run()
        let rows = Rows(importID: connection.lastInsertedRow, account: record.account,
                        day: try connection.prepare("INSERT INTO days (import_id, account, date, metric, value, source) "
                                                    + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"),
                        source: layout.bySource ? try connection.prepare(
                            "INSERT INTO source_days (import_id, account, date, metric, source, value, winner, implausible, "
                                + "priority, entered_by_hand) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)") : nil)
        switch results {
        case .dayTotals(let days):
            try rows.add(days, layout)
        case .metricDays(let days, let sources, let columns):
            try rows.add(days, sources: sources, columns: columns, layout)
        }
    }

    /// The two insert statements of one import, its id and account bound to every row.
    private struct Rows {
        let importID: Int64
        let account: String
        let day: Statement
        /// nil without `--by-source`: no source rows.
        let source: Statement?

        func add(_ days: [DayTotal], _ layout: DayLayout) throws(SQLiteFailure) {
            for day in days {
                let date = day.date.description
                bindDay(date, "steps")
                self.day.bind(5, Int64(day.steps))
                self.day.bind(6, day.source)
                try self.day.run()
                guard let source else { continue }
                for (rank, total) in day.sources.enumerated() {
                    bindSource(date, "steps", total.source, priority: layout.priority)
                    source.bind(6, Int64(total.steps))
                    source.bind(7, Int64(rank == 0 ? 1 : 0))
                    source.bind(8, Int64(0))
                    source.bind(10, Int64(layout.byHand(day.date, total.source) ? 1 : 0))
                    try source.run()
                }
            }
        }

        func add(_ days: [MetricDay], sources: [MetricSourceValue], columns: [MetricColumn],
                 _ layout: DayLayout) throws(SQLiteFailure) {
            // The day's source of each column is the one its sources' ranking took.
            var winners: [SourceKey: String] = [:]
            for value in sources where value.standing == .winner {
                winners[SourceKey(date: value.date, column: value.column)] = value.source
            }
            for day in days {
                let date = day.date.description
                for column in columns {
                    guard let value = day[column] else { continue }
                    bindDay(date, column.name)
                    bind(value, column, to: self.day, at: 5)
                    if let winner = winners[SourceKey(date: day.date, column: column)] {
                        self.day.bind(6, winner)
                    } else {
                        self.day.bindNull(6)
                    }
                    try self.day.run()
                }
            }
            guard let source else { return }
            for value in sources {
                bindSource(value.date.description, value.column.name, value.source, priority: layout.priority)
                bind(value.value, value.column, to: source, at: 6)
                source.bind(7, Int64(value.standing == .winner ? 1 : 0))
                source.bind(8, Int64(value.standing == .implausible ? 1 : 0))
                source.bind(10, Int64(0))
                try source.run()
            }
        }

        private struct SourceKey: Hashable {
            let date: LocalDate
            let column: MetricColumn
        }

        private func bindDay(_ date: String, _ metric: String) {
            day.bind(1, importID)
            day.bind(2, account)
            day.bind(3, date)
            day.bind(4, metric)
        }

        /// Binds the columns every source row has; under hc-priority, the app's place in the list.
        private func bindSource(_ date: String, _ metric: String, _ name: String, priority: [String]?) {
            guard let source else { return }
            source.bind(1, importID)
            source.bind(2, account)
            source.bind(3, date)
            source.bind(4, metric)
            source.bind(5, name)
            if let priority {
                source.bind(9, Int64(priorityPlace(of: name, in: priority)))
            } else {
                source.bindNull(9)
            }
        }

        /// A value as `--format json` writes it: the number its text stands for, an integer for a
        /// column without decimals (`metricValueText`).
        private func bind(_ value: Double, _ column: MetricColumn, to statement: Statement, at index: Int32) {
            if column.decimals == 0, let whole = Int64(exactly: value) { return statement.bind(index, whole) }
            let text = metricValueText(value, column)
            if let whole = Int64(text) {
                statement.bind(index, whole)
            } else {
                statement.bind(index, Double(text) ?? value)
            }
        }
    }
}
