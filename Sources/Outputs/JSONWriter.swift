import BackendUpload
import Foundation
import HealthDays
import StreamingText

/// The format for programs: one JSON object per result, ending with a newline; the plain day
/// totals are exactly the body `--post` sends. Each day is written as it is made.
public struct JSONWriter: ResultsWriter {
    public init() {}

    // MARK: - Day totals

    /// The plain days are `DaysRequestBody`'s body. By source:
    /// `{"days":[{"date","steps","source","sources":[{"source","steps","winner"}]}]}`; under
    /// hc-priority `"rule":"hc-priority"` first, and each source's `"priority"` for `"winner"`; a
    /// source whose steps came partly from hand entries has `"enteredByHand":true`.
    public func writeDayTotals(_ days: [DayTotal], _ layout: DayLayout, to sink: any OutputSink) throws(OutputError) {
        guard layout.bySource else {
            return try sink.write(DaysRequestBody.json(days) + "\n")
        }
        let priority = layout.priority
        try sink.write(priority == nil ? "{\"days\":[" : "{\"rule\":\"hc-priority\",\"days\":[")
        for (index, day) in days.enumerated() {
            var out = index > 0 ? "," : ""
            out += "{\"date\":\"\(day.date)\",\"steps\":\(day.steps),\"source\":\(JSONString.literal(day.source)),\"sources\":["
            for (rank, source) in day.sources.enumerated() {
                if rank > 0 { out += "," }
                let mark = priority.map { "\"priority\":\(priorityPlace(of: source.source, in: $0))" } ?? "\"winner\":\(rank == 0)"
                let byHand = layout.byHand(day.date, source.source) ? ",\"enteredByHand\":true" : ""
                out += "{\"source\":\(JSONString.literal(source.source)),\"steps\":\(source.steps),\(mark)\(byHand)}"
            }
            out += "]}"
            try sink.write(out)
        }
        try sink.write("]}\n")
    }

    // MARK: - Metric days

    /// `{"days":[{"date":"2024-03-15","steps":8123,"hr_avg":72.4,"sleep_min":null,...}]}`; by source
    /// each day with its sources: `"sources":[{"metric":..,"source":..,"value":..,"winner":"yes"|"no"|"implausible"}]`
    /// (`"priority"` for `"winner"` under hc-priority, with `"rule":"hc-priority"` first).
    public func writeMetricDays(_ days: [MetricDay], sources: [MetricSourceValue], columns: [MetricColumn], _ layout: DayLayout,
                                to sink: any OutputSink) throws(OutputError) {
        guard layout.bySource else {
            try sink.write("{\"days\":[")
            for (index, day) in days.enumerated() {
                try sink.write((index > 0 ? "," : "") + dayObject(day, columns))
            }
            return try sink.write("]}\n")
        }
        let priority = layout.priority
        var byDate: [LocalDate: [MetricSourceValue]] = [:]
        for value in sources { byDate[value.date, default: []].append(value) }
        // A day whose every source was left out has no row in `days` but its sources are shown.
        var rows = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
        for date in byDate.keys where rows[date] == nil { rows[date] = MetricDay(date: date) }
        try sink.write(priority == nil ? "{\"days\":[" : "{\"rule\":\"hc-priority\",\"days\":[")
        for (index, date) in rows.keys.sorted().enumerated() {
            let day = dayObject(rows[date]!, columns)
            let values = (byDate[date] ?? []).map { value in
                "{\"metric\":\"\(value.column.name)\",\"source\":\(JSONString.literal(value.source)),"
                    + "\"value\":\(metricValueText(value.value, value.column)),"
                    + (priority.map { "\"priority\":\(priorityPlace(of: value.source, in: $0))}" }
                        ?? "\"winner\":\"\(value.standing.word)\"}")
            }
            try sink.write((index > 0 ? "," : "") + day.dropLast() + ",\"sources\":[" + values.joined(separator: ",") + "]}")
        }
        try sink.write("]}\n")
    }

    private func dayObject(_ day: MetricDay, _ columns: [MetricColumn]) -> String {
        var fields = ["\"date\":\"\(day.date)\""]
        for column in columns {
            fields.append("\"\(column.name)\":" + (day[column].map { metricValueText($0, column) } ?? "null"))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    // MARK: - The plan

    /// `{"window":{"from","to","today","zone"},"days":[{"date","local","server","action","reason"}],`
    /// `"counts":{"write","overwrite","same","keep","skip","outsideWindow"}}`; `server` is null where
    /// the server has no value, `action` one of `write`, `overwrite`, `same`, `keep`, `skip` (sent
    /// with `--send-all`, older than the server's window), `not-sent` (with `reason`).
    public func writePlan(_ prepared: PreparedUpload, zone: TimeZone, to sink: any OutputSink) throws(OutputError) {
        let (rows, counts) = PlanRow.rows(prepared)
        let window = prepared.checked.serverWindow
        var out = "{\"window\":{\"from\":\"\(window.lowerBound)\",\"to\":\"\(window.upperBound)\",\"today\":\"\(prepared.today)\","
            + "\"zone\":\(JSONString.literal(zone.identifier))}"
        out += ",\"days\":["
        try sink.write(out)
        for (index, row) in rows.enumerated() {
            var out = index > 0 ? "," : ""
            out += "{\"date\":\"\(row.date)\",\"local\":\(row.local),\"server\":\(row.server.map(String.init) ?? "null"),"
                + "\"action\":\"\(row.action?.code ?? "not-sent")\""
            if let reason = row.reason { out += ",\"reason\":\(JSONString.literal(reason))" }
            out += "}"
            try sink.write(out)
        }
        try sink.write("],\"counts\":{\"write\":\(counts.write),\"overwrite\":\(counts.overwrite),\"same\":\(counts.same),"
            + "\"keep\":\(counts.keep),\"skip\":\(counts.skip),\"outsideWindow\":\(PlanRow.outsideWindow(prepared))}}\n")
    }

    /// Each request's exact body, on a line of its own.
    public func writeBatches(_ plan: UploadPlan, to sink: any OutputSink) throws(OutputError) {
        for batch in plan.batches {
            try sink.write(DaysRequestBody.json(batch) + "\n")
        }
    }
}
