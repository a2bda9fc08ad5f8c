import BackendUpload
import ExportParsers
import Foundation
import HealthDays

/// The `--plan` and `--dry-run` views of an upload, for stdout.
enum PlanTable {
    /// Per day: the server's value, the new one and what a post would do. Writes nothing.
    static func render(_ prepared: PreparedUpload, zone: TimeZone) -> String {
        let checked = prepared.checked
        let serverDays = prepared.serverDays
        let today = prepared.today
        let sending = Set(prepared.plan.daysToSend.map(\.date))
        var rows: [(date: String, server: String, new: String, action: String)] = []
        var counts = PlanCounts()
        for day in checked.daysToSend {
            let server = serverDays[day.date]
            let action = PlanAction(day, sending: sending, server: server)
            counts.add(action)
            rows.append((day.date.description, server.map(String.init) ?? "-", String(day.steps), action.words))
        }
        for held in checked.held {
            if case .invalid(let problem) = held.reason {
                rows.append((held.day.date.description, serverDays[held.day.date].map(String.init) ?? "?", String(held.day.steps),
                             "not sent: \(problem)"))
            }
        }
        rows.sort { $0.date < $1.date }
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
