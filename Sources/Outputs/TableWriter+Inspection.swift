import DisplayText
import ExportParsers
import HealthDays

/// `inspect`'s sections for people.
extension TableWriter {
    public func writeInspection(_ inspection: Inspection, to sink: any OutputSink) throws(OutputError) {
        let summary = inspection.result.summary
        let inventory = inspection.inventory
        var out = ""
        func line(_ label: String, _ value: String) {
            out += inspectionPad(label, 16) + value + "\n"
        }
        line("Format", summary.format.escapingControlCharacters())
        for (location, place) in zip(summary.locations, inspection.places) {
            line(location == summary.locations.first ? "Found in" : "", "\(location) (\(place))")
        }
        if let apple = inventory.apple {
            line("Locale", apple.locale.map { $0.escapingControlCharacters() } ?? "(none)")
            line("Export date", apple.exportDate.map { $0.escapingControlCharacters() } ?? "(none)")
            line("HealthKit", apple.healthKitExportVersion.map { "export version \($0.escapingControlCharacters())" }
                 ?? "export version not stated")
        }
        if let database = inventory.database {
            line("user_version", "\(database.userVersion)")
            line("Tables", "\(database.tables.count): " + database.tables.joined(separator: ", ").escapingControlCharacters())
        }
        if let takeout = inventory.takeout {
            line("Takeout", "read the \(takeout.read)")
            line("", "daily summaries: " + inspectionNames(takeout.dailySummaries))
            line("", "per-day CSVs: \(takeout.perDayCSVs.count)")
            line("", "estimated_steps streams: " + inspectionNames(takeout.estimatedStepsStreams))
            if !takeout.otherStreams.isEmpty {
                line("", "other step streams (never read): " + inspectionNames(takeout.otherStreams))
            }
        }

        out += "\nRecord types\n"
        if inventory.recordTypes.isEmpty {
            out += "  (none)\n"
        } else {
            let rows = inventory.recordTypes.map { type in
                [type.kind == type.name ? type.name : "\(type.kind): \(type.name)", String(type.count)]
            }
            out += inspectionGrid(["Type", "Records"], rows, rightAligned: [1])
        }

        out += "\nStep sources\n"
        if inspection.sources.isEmpty {
            out += "  (none)\n"
        } else {
            // The day totals' column only where an export gives day totals (Takeout, day-total CSV and JSON).
            let dayTotals = inspection.sources.contains { $0.dayTotals > 0 }
            // And that of records typed in by hand only where there are some.
            let byHand = inspection.sources.contains { $0.enteredByHand > 0 }
            let rows = inspection.sources.map { source -> [String] in
                var row = [source.name, String(source.samples)]
                if dayTotals { row.append(String(source.dayTotals)) }
                if byHand { row.append(Self.byHand(source)) }
                row.append(source.firstDay.map(String.init(describing:)) ?? "-")
                row.append(source.lastDay.map(String.init(describing:)) ?? "-")
                return row
            }
            var heads = ["Source", "Records"]
            if dayTotals { heads.append("Day totals") }
            if byHand { heads.append("By hand") }
            out += inspectionGrid(heads + ["First day", "Last day"], rows, rightAligned: Set(1..<(heads.count)))
        }
        out += chart(inspection)

        out += "\nUTC offsets\n"
        if inspection.offsets.isEmpty && inspection.withoutOffset == 0 {
            out += "  (none)\n"
        } else {
            var rows = inspection.offsets.map { [OffsetText.format($0.seconds), String($0.samples)] }
            if inspection.withoutOffset > 0 { rows.append(["none (taken as UTC)", String(inspection.withoutOffset)]) }
            out += inspectionGrid(["Offset", "Samples"], rows, rightAligned: [1])
        }
        if let hint = inspection.exportTimeOffsetHint {
            out += "  Hint: " + hint + ".\n"
        }

        let statistics = inspection.statistics
        out += "\n"
        line("Duplicates", "\(Plural.count(statistics.duplicates, "exact duplicate")) counted once, of \(statistics.samples) handed to the day rules")
        if let first = inspection.days.first, let last = inspection.days.last {
            line("Days", "\(Plural.count(inspection.days.count, "day")) with steps, \(first.date) to \(last.date) (\(inspection.zoneWords))")
        } else {
            line("Days", "no days with steps")
        }
        if inspection.refused.isEmpty {
            line("Refused days", "none")
        } else {
            line("Refused days", "\(inspection.refused.count) the server would refuse or that cannot be true:")
            out += inspectionGrid(["Date", "Steps", "Why"], inspection.refused.map { [String(describing: $0.day.date), String($0.day.steps), $0.refusal.words(for: $0.day)] },
                                  rightAligned: [1], rowStyle: .warning)
        }
        try sink.write(out)
    }

    /// The chart of each step source's days, as a section; empty without days.
    private func chart(_ inspection: Inspection) -> String {
        let refusals = Dictionary(inspection.refused.map { ($0.day.date, $0.refusal) }, uniquingKeysWith: { first, _ in first })
        let chart = SourceChart(days: inspection.days, sources: inspection.sources.map(\.name), refusals: refusals)
        let lines = chart.lines(inspection.chartStyle, styling: display.styling)
        return lines.isEmpty ? "" : "\n" + lines.map { $0 + "\n" }.joined()
    }

    private func inspectionNames(_ list: [String]) -> String {
        list.isEmpty ? "none" : list.joined(separator: ", ").escapingControlCharacters()
    }

    /// An indented table with a header (the one table layout, `TextTable`); cells from files have
    /// their control characters escaped. `rowStyle` styles every row, as the display says.
    private func inspectionGrid(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>, rowStyle: TextStyle? = nil) -> String {
        var table = TextTable(header, rightAligned: rightAligned, indent: "  ")
        for row in rows { table.add(row.map { $0.escapingControlCharacters() }, style: rowStyle) }
        return table.rendered(styling: display.styling)
    }

    private func inspectionPad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// A source's records typed in by hand, with their steps; `-` for none.
    private static func byHand(_ source: SourceCensus.Source) -> String {
        guard source.enteredByHand > 0 else { return "-" }
        return "\(source.enteredByHand) (\(GroupedNumber.format(Int(source.stepsEnteredByHand.rounded()))) steps)"
    }
}
