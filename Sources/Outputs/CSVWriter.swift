import BackendUpload
import Foundation
import HealthDays

/// Comma-separated rows with a header, a row written as it is made; text fields through `csvField`.
public struct CSVWriter: ResultsWriter {
    public init() {}

    // MARK: - Day totals

    /// `date,steps,source`. By source one row per source and day, `steps` being that source's:
    /// `date,steps,source,winner`, whose first three columns are the plain CSV's, so that one reader
    /// reads both (the rows with `winner` `yes` are exactly the plain CSV's rows); under hc-priority
    /// `date,steps,source,priority`, `steps` what that app's slices gave the day (rounded),
    /// `priority` its place in the list (1 the highest).
    public func writeDayTotals(_ days: [DayTotal], _ layout: DayLayout, to sink: any OutputSink) throws(OutputError) {
        guard layout.bySource else {
            try sink.write("date,steps,source\n")
            for day in days {
                try sink.write("\(day.date),\(day.steps),\(csvField(day.source))\n")
            }
            return
        }
        if let priority = layout.priority {
            try sink.write("date,steps,source,priority\n")
            for day in days {
                for source in day.sources {
                    try sink.write("\(day.date),\(source.steps),\(csvField(source.source)),\(priorityPlace(of: source.source, in: priority))\n")
                }
            }
            return
        }
        try sink.write("date,steps,source,winner\n")
        for day in days {
            for (rank, source) in day.sources.enumerated() {
                try sink.write("\(day.date),\(source.steps),\(csvField(source.source)),\(rank == 0 ? "yes" : "no")\n")
            }
        }
    }

    // MARK: - Metric days

    /// `date,` then a column per metric column, empty where the day has no value. By source
    /// `date,metric,source,value,winner` (`winner` yes, no or implausible: left out of the day's
    /// choice); under hc-priority `date,metric,source,value,priority`, what each app's slices gave
    /// the day (rounded as the column is) and its place in the list.
    public func writeMetricDays(_ days: [MetricDay], sources: [MetricSourceValue], columns: [MetricColumn], _ layout: DayLayout,
                                to sink: any OutputSink) throws(OutputError) {
        guard layout.bySource else {
            try sink.write((["date"] + columns.map(\.name)).joined(separator: ",") + "\n")
            for day in days {
                var out = day.date.description
                for column in columns {
                    out += ","
                    out += day.cell(column)
                }
                out += "\n"
                try sink.write(out)
            }
            return
        }
        if let priority = layout.priority {
            try sink.write("date,metric,source,value,priority\n")
            for value in sources {
                try sink.write("\(value.date),\(value.column.name),\(csvField(value.source)),"
                    + "\(metricValueText(value.value, value.column)),\(priorityPlace(of: value.source, in: priority))\n")
            }
            return
        }
        try sink.write("date,metric,source,value,winner\n")
        for value in sources {
            try sink.write("\(value.date),\(value.column.name),\(csvField(value.source)),"
                + "\(metricValueText(value.value, value.column)),\(value.standing.word)\n")
        }
    }

    // MARK: - The plan

    /// `date,local_steps,server_steps,action,reason` (`server_steps` empty where the server has no value).
    public func writePlan(_ prepared: PreparedUpload, zone: TimeZone, to sink: any OutputSink) throws(OutputError) {
        try sink.write("date,local_steps,server_steps,action,reason\n")
        for row in PlanRow.rows(prepared).rows {
            try sink.write("\(row.date),\(row.local),\(row.server.map(String.init) ?? ""),\(row.action?.code ?? "not-sent"),"
                + "\(row.reason.map(csvField) ?? "")\n")
        }
    }

    /// `request,date,steps` rows, `request` counting from 1.
    public func writeBatches(_ plan: UploadPlan, to sink: any OutputSink) throws(OutputError) {
        try sink.write("request,date,steps\n")
        for (index, batch) in plan.batches.enumerated() {
            for day in batch { try sink.write("\(index + 1),\(day.date),\(day.steps)\n") }
        }
    }

    /// `inspect` has no CSV (its `--format` takes table or json): the table is written.
    public func writeInspection(_ inspection: Inspection, to sink: any OutputSink) throws(OutputError) {
        try TableWriter().writeInspection(inspection, to: sink)
    }
}
