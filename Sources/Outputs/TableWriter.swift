import BackendUpload
import DisplayText
import Foundation
import HealthDays

/// The format for people: aligned tables (`TextTable`) with a footer of counts and the rule that
/// made them. A table's widths are known only once its rows are in, so each table is written
/// whole, line by line, after its rows are gathered. On a terminal (`display`) a table too wide
/// for it is split into blocks of columns, and the winning source's rows are coloured.
public struct TableWriter: ResultsWriter {
    public let display: TableDisplay

    public init(display: TableDisplay = .plain) {
        self.display = display
    }

    // MARK: - Day totals

    public func writeDayTotals(_ days: [DayTotal], _ layout: DayLayout, to sink: any OutputSink) throws(OutputError) {
        guard !days.isEmpty else { return try sink.write(display.fitted(footer(days, layout))) }
        if layout.bySource, let priority = layout.priority {
            var table = TextTable(["Date", "Source", "Steps", "Priority"], rightAligned: [2, 3])
            for day in days {
                table.add([day.date.description, "= the day's total", String(day.steps), ""])
                for source in day.sources {
                    table.add(["", "  " + source.source.escapingControlCharacters() + handMark(day.date, source.source, layout),
                               String(source.steps), String(priorityPlace(of: source.source, in: priority))])
                }
            }
            try table.write(to: sink)
            try sink.write(display.fitted(footer(days, layout) + handNote(layout)
                + "Rule: hc-priority, Health Connect's own total: in each slice of time only the record of the highest-priority\n"
                + "app counts, pro rata; an app's steps are what its slices gave (rounded), the day's total is their sum cut\n"
                + "to whole steps. Priority 1 is the highest.\n"))
        } else if layout.bySource {
            var table = TextTable(["Date", "Source", "Steps"], rightAligned: [2])
            for day in days {
                for (rank, source) in day.sources.enumerated() {
                    table.add([rank == 0 ? day.date.description : "",
                               (rank == 0 ? "* " : "  ") + source.source.escapingControlCharacters() + handMark(day.date, source.source, layout),
                               String(source.steps)], style: rank == 0 ? .chosen : nil)
                }
            }
            try table.write(to: sink, styling: display.styling)
            try sink.write(display.fitted(footer(days, layout) + "* the highest source: the day's total. Sources are never added together.\n"
                + handNote(layout)))
        } else {
            var table = TextTable(["Date", "Steps", "Source"], rightAligned: [1])
            for day in days {
                table.add([day.date.description, String(day.steps), day.source.escapingControlCharacters()])
            }
            try table.write(to: sink)
            let rule = layout.priority == nil ? ""
                : "Rule: hc-priority, Health Connect's own total; Source: the app that gave the day the most.\n"
            try sink.write(display.fitted(footer(days, layout) + rule))
        }
    }

    /// The mark of a source's day whose steps came partly from hand entries.
    private func handMark(_ date: LocalDate, _ source: String, _ layout: DayLayout) -> String {
        layout.byHand(date, source) ? " (by hand)" : ""
    }

    private func handNote(_ layout: DayLayout) -> String {
        layout.enteredByHand.isEmpty ? ""
            : "(by hand): partly from records typed in by hand, which count by default; --exclude-manual leaves them out.\n"
    }

    /// The table's last lines: how many days, from when to when, the steps in all and a day on
    /// average (over the days with steps), and the zone rule.
    func footer(_ days: [DayTotal], _ layout: DayLayout) -> String {
        let zone = layout.zoneDescription
        guard let first = days.first, let last = days.last else {
            return "No days with steps. Zone: \(zone).\n"
        }
        // Checked: each day is far inside Int, but saturating costs nothing and cannot trap.
        var total = 0
        for day in days {
            let (sum, overflow) = total.addingReportingOverflow(day.steps)
            total = overflow ? (day.steps < 0 ? Int.min : Int.max) : sum
        }
        let steps = "\(GroupedNumber.format(total)) step\(total == 1 ? "" : "s")"
        if days.count == 1 {
            return "\n1 day with steps, \(first.date): \(steps). Zone: \(zone).\n"
        }
        let mean = (Double(total) / Double(days.count)).rounded(.toNearestOrAwayFromZero)
        return "\n\(days.count) days with steps, \(first.date) to \(last.date): \(steps) in all, "
            + "\(GroupedNumber.format(Int(exactly: mean) ?? Int.max)) a day on average. Zone: \(zone).\n"
    }

    // MARK: - Metric days

    public func writeMetricDays(_ days: [MetricDay], sources: [MetricSourceValue], columns: [MetricColumn], _ layout: DayLayout,
                                to sink: any OutputSink) throws(OutputError) {
        let footer = display.fitted(metricFooter(days, columns: columns, layout))
        guard layout.bySource else {
            guard !days.isEmpty else { return try sink.write(footer) }
            // Only the columns with a value; the footer names the metrics without any.
            let shown = columns.filter { column in days.contains { $0[column] != nil } }
            var table = TextTable(["Date"] + shown.map(\.header), rightAligned: Set(shown.indices.map { $0 + 1 }))
            for day in days {
                table.add([day.date.description] + shown.map(day.cell))
            }
            try writeBlocks(table, to: sink)
            return try sink.write(footer + display.fitted(noValues(columns.filter { !shown.contains($0) })))
        }
        guard !sources.isEmpty else { return try sink.write(footer) }
        var lastDate: LocalDate?
        var lastColumn: MetricColumn?
        if let priority = layout.priority {
            // Per day and column the day's value first, then each app's share and its place in the list.
            let dayValues = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
            var table = TextTable(["Date", "Metric", "Source", "Value", "Priority"], rightAligned: [3, 4])
            for value in sources {
                let newDate = value.date != lastDate
                if newDate || value.column != lastColumn {
                    let total = dayValues[value.date]?.cell(value.column) ?? ""
                    table.add([newDate ? value.date.description : "", value.column.name, "= the day's value", total, ""])
                }
                table.add(["", "", "  " + value.source.escapingControlCharacters(), metricValueText(value.value, value.column),
                           String(priorityPlace(of: value.source, in: priority))])
                lastDate = value.date
                lastColumn = value.column
            }
            try table.write(to: sink)
            return try sink.write(footer + display.fitted(
                "Rule: hc-priority, Health Connect's own total; each app's share of the day's slices "
                + "(the shares need not add up to the day's value, which is cut or rounded once).\n"))
        }
        var table = TextTable(["Date", "Metric", "Source", "Value"], rightAligned: [3])
        for value in sources {
            let newDate = value.date != lastDate
            let newColumn = newDate || value.column != lastColumn
            let mark = switch value.standing {
            case .winner: "* "
            case .other: "  "
            case .implausible: "x "
            }
            table.add([newDate ? value.date.description : "", newColumn ? value.column.name : "",
                       mark + value.source.escapingControlCharacters(), metricValueText(value.value, value.column)],
                      style: value.standing == .winner ? .chosen : nil)
            lastDate = value.date
            lastColumn = value.column
        }
        try table.write(to: sink, styling: display.styling)
        try sink.write(footer + display.fitted(
            "* the source the day took (one source per metric, never a sum). "
            + "x left out: outside the plausible range.\n"))
    }

    /// The table whole, or on a terminal narrower than it in blocks of columns that fit, each
    /// beginning with the date, a blank line between them.
    private func writeBlocks(_ table: TextTable, to sink: any OutputSink) throws(OutputError) {
        let blocks = display.width.map { table.blocks(fitting: $0) } ?? [table]
        for (index, block) in blocks.enumerated() {
            if index > 0 { try sink.write("\n") }
            try block.write(to: sink, styling: display.styling)
        }
    }

    /// `No values: exercise, vo2max.`: the metrics asked for that no day has, whose columns the
    /// table leaves out (a column of a metric that has others with values by its name).
    private func noValues(_ empty: [MetricColumn]) -> String {
        guard !empty.isEmpty else { return "" }
        var names: [String] = []
        for column in empty {
            let metric = column.metric
            let whole = metric.columns.allSatisfy(empty.contains)
            let name = whole ? metric.name : column.name
            if !names.contains(name) { names.append(name) }
        }
        return "No values: \(names.joined(separator: ", ")).\n"
    }

    /// How many days, from when to when, and the zone rule.
    private func metricFooter(_ days: [MetricDay], columns: [MetricColumn], _ layout: DayLayout) -> String {
        let names = columns.map(\.name).joined(separator: ", ")
        guard let first = days.first, let last = days.last else {
            return "No days with \(names). Zone: \(layout.zoneDescription).\n"
        }
        let span = days.count == 1 ? "\(first.date)" : "\(first.date) to \(last.date)"
        return "\n\(Plural.count(days.count, "day")) with values, \(span). Zone: \(layout.zoneDescription).\n"
    }

    // MARK: - The plan

    /// Per day: the server's value, the new one and what a post would do. Writes nothing to the server.
    public func writePlan(_ prepared: PreparedUpload, zone: TimeZone, to sink: any OutputSink) throws(OutputError) {
        let (rows, counts) = PlanRow.rows(prepared)
        var table = TextTable(["Date", "Server", "New", "Action"], rightAligned: [1, 2])
        for row in rows {
            table.add([row.date.description, row.server.map(String.init) ?? (row.action == nil ? "?" : "-"), String(row.local),
                       row.action?.words ?? "not sent: \(row.reason ?? "")"])
        }
        try table.write(to: sink)
        var out = "\n\(counts.write) to write, \(counts.overwrite) to overwrite, \(counts.same) the same"
        if counts.keep > 0 { out += ", \(counts.keep) kept as the server has them" }
        if counts.skip > 0 { out += ", \(counts.skip) the server would skip (older than its window)" }
        let outside = PlanRow.outsideWindow(prepared)
        if outside > 0 { out += "; \(outside) outside the server's window not shown" }
        let window = prepared.checked.serverWindow
        out += ".\nWindow: \(window.lowerBound) to \(window.upperBound), today being \(prepared.today) in \(zone.identifier). Nothing was written.\n"
        try sink.write(display.fitted(out))
    }

    /// The requests a post would make, without making them.
    public func writeBatches(_ plan: UploadPlan, to sink: any OutputSink) throws(OutputError) {
        for (index, batch) in plan.batches.enumerated() {
            try sink.write("request \(index + 1): \(batch.count) day\(batch.count == 1 ? "" : "s"), \(batch.first!.date) to \(batch.last!.date)\n")
        }
        let total = plan.daysToSend.count
        try sink.write("\(plan.batches.count) request\(plan.batches.count == 1 ? "" : "s"), \(total) day\(total == 1 ? "" : "s") (--dry-run: nothing was sent)\n")
    }
}

extension MetricColumn {
    /// The column's heading in the table.
    var header: String {
        switch self {
        case .steps: "Steps"
        case .distanceMetres: "Distance m"
        case .activeKilocalories: "Active kcal"
        case .totalKilocalories: "Total kcal"
        case .flights: "Flights"
        case .exerciseMinutes: "Exercise min"
        case .moveMinutes: "Move min"
        case .heartPoints: "Heart pts"
        case .heartRateAverage: "HR avg"
        case .heartRateMinimum: "HR min"
        case .heartRateMaximum: "HR max"
        case .restingHeartRate: "Resting HR"
        case .heartRateVariability: "HRV ms"
        case .heartRateVariabilityRMSSD: "HRV RMSSD ms"
        case .vo2Max: "VO2max"
        case .sleepMinutes: "Sleep min"
        case .inBedMinutes: "In bed min"
        case .workouts: "Workouts"
        case .workoutMinutes: "Workout min"
        }
    }
}
