import BackendUpload
import DisplayText
import Foundation
import HealthDays
import StreamingText

/// Renders day totals as a table, the API's JSON body or CSV.
public struct DayTotalsRenderer: Sendable {
    public let format: OutputFormat
    /// Show every source's total per day and mark the winner.
    public let bySource: Bool
    /// Words for the table footer: which zone rule placed the samples.
    public let zoneDescription: String
    /// Under `--rule hc-priority`, the priority list used (sources, highest first): each day is then
    /// Health Connect's total, its sources what each app gave, with its place in the list.
    public let priority: [String]?

    public init(format: OutputFormat, bySource: Bool, zoneDescription: String, priority: [String]? = nil) {
        self.format = format
        self.bySource = bySource
        self.zoneDescription = zoneDescription
        self.priority = priority
    }

    /// The whole output, ending with a newline.
    public func render(_ days: [DayTotal]) -> String {
        switch format {
        case .table: return bySource ? tableBySource(days) : table(days)
        case .json: return bySource ? jsonBySource(days) : json(days)
        case .csv: return bySource ? csvBySource(days) : csv(days)
        }
    }

    // MARK: - JSON

    private func json(_ days: [DayTotal]) -> String {
        DaysRequestBody.json(days) + "\n"
    }

    /// `{"days":[{"date","steps","source","sources":[{"source","steps","winner"}]}]}`; under
    /// hc-priority `"rule":"hc-priority"` first, and each source's `"priority"` for `"winner"`.
    private func jsonBySource(_ days: [DayTotal]) -> String {
        var out = priority == nil ? "{\"days\":[" : "{\"rule\":\"hc-priority\",\"days\":["
        for (index, day) in days.enumerated() {
            if index > 0 { out += "," }
            out += "{\"date\":\"\(day.date)\",\"steps\":\(day.steps),\"source\":\(JSONString.literal(day.source)),\"sources\":["
            for (rank, source) in day.sources.enumerated() {
                if rank > 0 { out += "," }
                let mark = priority.map { "\"priority\":\(DayTotalsRenderer.place(of: source.source, in: $0))" } ?? "\"winner\":\(rank == 0)"
                out += "{\"source\":\(JSONString.literal(source.source)),\"steps\":\(source.steps),\(mark)}"
            }
            out += "]}"
        }
        return out + "]}\n"
    }

    // MARK: - CSV

    private func csv(_ days: [DayTotal]) -> String {
        var out = "date,steps,source\n"
        for day in days {
            out += "\(day.date),\(day.steps),\(csvField(day.source))\n"
        }
        return out
    }

    /// One row per source and day: `date,steps,source,winner`, `steps` being that source's steps.
    /// The first three columns are those of the plain CSV, so that one reader reads both; the
    /// rows with `winner` `yes` are exactly the plain CSV's rows.
    private func csvBySource(_ days: [DayTotal]) -> String {
        if let priority { return csvByPriority(days, priority) }
        var out = "date,steps,source,winner\n"
        for day in days {
            for (rank, source) in day.sources.enumerated() {
                out += "\(day.date),\(source.steps),\(csvField(source.source)),\(rank == 0 ? "yes" : "no")\n"
            }
        }
        return out
    }

    // MARK: - Table

    private func table(_ days: [DayTotal]) -> String {
        guard !days.isEmpty else { return footer(days) }
        var table = TextTable(["Date", "Steps", "Source"], rightAligned: [1])
        for day in days {
            table.add([day.date.description, String(day.steps), printable(day.source)])
        }
        let rule = priority == nil ? ""
            : "Rule: hc-priority, Health Connect's own total; Source: the app that gave the day the most.\n"
        return table.rendered + footer(days) + rule
    }

    private func tableBySource(_ days: [DayTotal]) -> String {
        if let priority { return tableByPriority(days, priority) }
        guard !days.isEmpty else { return footer(days) }
        var table = TextTable(["Date", "Source", "Steps"], rightAligned: [2])
        for day in days {
            for (rank, source) in day.sources.enumerated() {
                table.add([rank == 0 ? day.date.description : "", (rank == 0 ? "* " : "  ") + printable(source.source),
                           String(source.steps)])
            }
        }
        return table.rendered + footer(days) + "* the highest source: the day's total. Sources are never added together.\n"
    }

    /// The table's last lines: how many days, from when to when, the steps in all and a day on
    /// average (over the days with steps), and the zone rule.
    func footer(_ days: [DayTotal]) -> String {
        guard let first = days.first, let last = days.last else {
            return "No days with steps. Zone: \(zoneDescription).\n"
        }
        // Checked: each day is far inside Int, but saturating costs nothing and cannot trap.
        var total = 0
        for day in days {
            let (sum, overflow) = total.addingReportingOverflow(day.steps)
            total = overflow ? (day.steps < 0 ? Int.min : Int.max) : sum
        }
        let steps = "\(GroupedNumber.format(total)) step\(total == 1 ? "" : "s")"
        if days.count == 1 {
            return "\n1 day with steps, \(first.date): \(steps). Zone: \(zoneDescription).\n"
        }
        let mean = (Double(total) / Double(days.count)).rounded(.toNearestOrAwayFromZero)
        return "\n\(days.count) days with steps, \(first.date) to \(last.date): \(steps) in all, "
            + "\(GroupedNumber.format(Int(exactly: mean) ?? Int.max)) a day on average. Zone: \(zoneDescription).\n"
    }

    /// Source names are opaque data from the file: control characters are shown escaped, never
    /// sent to a terminal.
    func printable(_ name: String) -> String {
        name.escapingControlCharacters()
    }
}

// MARK: - --rule hc-priority

extension DayTotalsRenderer {
    /// An app's place in the priority list, 1 the highest; 0 when absent (such an app gives nothing).
    static func place(of source: String, in priority: [String]) -> Int {
        (priority.firstIndex(of: source) ?? -1) + 1
    }

    /// One row per app and day: `date,steps,source,priority`, `steps` being what that app's slices
    /// gave the day (rounded), `priority` its place in the list (1 the highest).
    fileprivate func csvByPriority(_ days: [DayTotal], _ priority: [String]) -> String {
        var out = "date,steps,source,priority\n"
        for day in days {
            for source in day.sources {
                out += "\(day.date),\(source.steps),\(csvField(source.source)),\(DayTotalsRenderer.place(of: source.source, in: priority))\n"
            }
        }
        return out
    }

    fileprivate func tableByPriority(_ days: [DayTotal], _ priority: [String]) -> String {
        guard !days.isEmpty else { return footer(days) }
        var table = TextTable(["Date", "Source", "Steps", "Priority"], rightAligned: [2, 3])
        for day in days {
            table.add([day.date.description, "= the day's total", String(day.steps), ""])
            for source in day.sources {
                table.add(["", "  " + printable(source.source), String(source.steps), String(DayTotalsRenderer.place(of: source.source, in: priority))])
            }
        }
        return table.rendered + footer(days)
            + "Rule: hc-priority, Health Connect's own total: in each slice of time only the record of the highest-priority\n"
            + "app counts, pro rata; an app's steps are what its slices gave (rounded), the day's total is their sum cut\n"
            + "to whole steps. Priority 1 is the highest.\n"
    }
}

/// A CSV field, with control characters escaped as in the table (`\u{1b}`: CSV is text that ends up
/// on terminals and in spreadsheets; `--format json` keeps a name's exact characters), then quoted
/// per RFC 4180 when it holds a comma or a quote. A field therefore never holds a line break.
func csvField(_ text: String) -> String {
    let shown = text.escapingControlCharacters()
    guard shown.contains(where: { $0 == "," || $0 == "\"" }) else { return shown }
    return "\"" + shown.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
