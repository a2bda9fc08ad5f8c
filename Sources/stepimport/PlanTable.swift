import BackendUpload
import ExportParsers
import Foundation

/// The `--plan` and `--dry-run` views of an upload, for stdout.
enum PlanTable {
    /// Per day: the server's value, the new one and what a post would do. Writes nothing.
    static func render(_ checked: UploadPlan, kept: UploadPlan, serverDays: [LocalDate: Int], today: LocalDate,
                       zone: TimeZone) -> String {
        let sending = Set(kept.daysToSend.map(\.date))
        var rows: [(date: String, server: String, new: String, action: String)] = []
        var overwrites = 0
        var writes = 0
        var unchanged = 0
        for day in checked.daysToSend {
            let server = serverDays[day.date]
            let action: String
            if !sending.contains(day.date) {
                action = "keep: the server has a value (--keep-existing)"
            } else if let server, server == day.steps {
                action = "same"
                unchanged += 1
            } else if let server {
                action = server > day.steps ? "overwrite (lower)" : "overwrite"
                _ = server
                overwrites += 1
            } else {
                action = "write"
                writes += 1
            }
            rows.append((day.date.description, server.map(String.init) ?? "-", String(day.steps), action))
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
        out += "\n\(writes) to write, \(overwrites) to overwrite, \(unchanged) the same"
        let keptCount = checked.daysToSend.count - kept.daysToSend.count
        if keptCount > 0 { out += ", \(keptCount) kept as the server has them" }
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
