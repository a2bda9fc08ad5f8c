import BackendUpload
import ExportParsers
import Foundation
import HealthDays
import StreamingText

/// The `--plan` and `--dry-run` views of an upload, for stdout.
enum PlanTable {
    /// One day of the plan: the new value, the server's, and what a post would do.
    struct Row {
        let date: LocalDate
        let local: Int
        /// The server's value; nil when it has none.
        let server: Int?
        /// nil for a day the checks hold (`reason` says why).
        let action: PlanAction?
        let reason: String?
    }

    /// The plan's rows in date order, with the counts of the days the checks let through.
    static func rows(_ prepared: PreparedUpload) -> (rows: [Row], counts: PlanCounts) {
        let checked = prepared.checked
        let serverDays = prepared.serverDays
        let sending = Set(prepared.plan.daysToSend.map(\.date))
        var rows: [Row] = []
        var counts = PlanCounts()
        for day in checked.daysToSend {
            let action = PlanAction(day, sending: sending, server: serverDays[day.date])
            counts.add(action)
            rows.append(Row(date: day.date, local: day.steps, server: serverDays[day.date], action: action, reason: nil))
        }
        for held in checked.held {
            if case .invalid(let problem) = held.reason {
                rows.append(Row(date: held.day.date, local: held.day.steps, server: serverDays[held.day.date], action: nil,
                                reason: problem))
            }
        }
        rows.sort { $0.date < $1.date }
        return (rows, counts)
    }

    /// The plan as `--format` asks: a table for people, JSON or CSV rows for programs.
    static func render(_ prepared: PreparedUpload, zone: TimeZone, format: OutputFormat) -> String {
        switch format {
        case .table: return render(prepared, zone: zone)
        case .json: return json(prepared, zone: zone)
        case .csv: return csv(prepared)
        }
    }

    /// Per day: the server's value, the new one and what a post would do. Writes nothing.
    static func render(_ prepared: PreparedUpload, zone: TimeZone) -> String {
        let checked = prepared.checked
        let today = prepared.today
        let (planRows, counts) = rows(prepared)
        let rows: [(date: String, server: String, new: String, action: String)] = planRows.map { row in
            (row.date.description, row.server.map(String.init) ?? (row.action == nil ? "?" : "-"), String(row.local),
             row.action?.words ?? "not sent: \(row.reason ?? "")")
        }
        let serverWidth = max(6, rows.map(\.server.count).max() ?? 0)
        let newWidth = max(5, rows.map(\.new.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        var out = "Date        " + pad("Server", serverWidth) + "  " + pad("New", newWidth) + "  Action\n"
        for row in rows {
            out += row.date + "  " + pad(row.server, serverWidth) + "  " + pad(row.new, newWidth) + "  " + row.action + "\n"
        }
        out += "\n\(counts.write) to write, \(counts.overwrite) to overwrite, \(counts.same) the same"
        if counts.keep > 0 { out += ", \(counts.keep) kept as the server has them" }
        let outside = checked.held { $0 == .tooOld || $0 == .inFuture }.count
        if outside > 0 { out += "; \(outside) outside the server's window not shown" }
        if let window = checked.window {
            out += ".\nWindow: \(window.lowerBound) to \(window.upperBound), today being \(today) in \(zone.identifier). Nothing was written.\n"
        } else {
            out += ". Nothing was written.\n"
        }
        return out
    }

    /// The plan for programs: the window, one object per day, the counts.
    ///
    /// `{"window":{"from","to","today","zone"}|null,"days":[{"date","local","server","action","reason"}],`
    /// `"counts":{"write","overwrite","same","keep","outsideWindow"}}`; `server` is null where the
    /// server has no value, `action` one of `write`, `overwrite`, `same`, `keep`, `not-sent`
    /// (with `reason`).
    static func json(_ prepared: PreparedUpload, zone: TimeZone) -> String {
        let checked = prepared.checked
        let (rows, counts) = rows(prepared)
        var out = "{\"window\":"
        if let window = checked.window {
            out += "{\"from\":\"\(window.lowerBound)\",\"to\":\"\(window.upperBound)\",\"today\":\"\(prepared.today)\","
                + "\"zone\":\(JSONString.literal(zone.identifier))}"
        } else {
            out += "null"
        }
        out += ",\"days\":["
        for (index, row) in rows.enumerated() {
            if index > 0 { out += "," }
            out += "{\"date\":\"\(row.date)\",\"local\":\(row.local),\"server\":\(row.server.map(String.init) ?? "null"),"
                + "\"action\":\"\(row.action?.code ?? "not-sent")\""
            if let reason = row.reason { out += ",\"reason\":\(JSONString.literal(reason))" }
            out += "}"
        }
        let outside = checked.held { $0 == .tooOld || $0 == .inFuture }.count
        out += "],\"counts\":{\"write\":\(counts.write),\"overwrite\":\(counts.overwrite),\"same\":\(counts.same),"
            + "\"keep\":\(counts.keep),\"outsideWindow\":\(outside)}}\n"
        return out
    }

    /// The plan as CSV rows: `date,local_steps,server_steps,action,reason` (`server_steps` empty
    /// where the server has no value).
    static func csv(_ prepared: PreparedUpload) -> String {
        var out = "date,local_steps,server_steps,action,reason\n"
        for row in rows(prepared).rows {
            out += "\(row.date),\(row.local),\(row.server.map(String.init) ?? ""),\(row.action?.code ?? "not-sent"),"
                + "\(row.reason.map(csvField) ?? "")\n"
        }
        return out
    }

    /// The requests a post would make, as `--format` asks: for `json`, each request's exact body
    /// on a line of its own; for `csv`, `request,date,steps` rows.
    static func renderBatches(_ plan: UploadPlan, format: OutputFormat) -> String {
        switch format {
        case .table:
            return renderBatches(plan)
        case .json:
            return plan.batches.map { DaysRequestBody.json($0) + "\n" }.joined()
        case .csv:
            var out = "request,date,steps\n"
            for (index, batch) in plan.batches.enumerated() {
                for day in batch { out += "\(index + 1),\(day.date),\(day.steps)\n" }
            }
            return out
        }
    }

    /// The requests a post would make, without making them.
    static func renderBatches(_ plan: UploadPlan) -> String {
        var out = ""
        for (index, batch) in plan.batches.enumerated() {
            out += "request \(index + 1): \(batch.count) day\(batch.count == 1 ? "" : "s"), \(batch.first!.date) to \(batch.last!.date)\n"
        }
        let total = plan.daysToSend.count
        out += "\(plan.batches.count) request\(plan.batches.count == 1 ? "" : "s"), \(total) day\(total == 1 ? "" : "s") (--dry-run: nothing was sent)\n"
        return out
    }
}
