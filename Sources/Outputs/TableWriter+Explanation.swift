import DisplayText
import HealthDays

extension TableWriter {
    /// Per metric, each source's samples of the day with what became of them, its total (or its
    /// values), and the rule's choice.
    public func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError) {
        let date = explanation.days.first?.date.description ?? ""
        var out = "\(date)  (zone: \(explanation.zoneWords))\n"
        for day in explanation.days {
            if explanation.byMetric { out += "\n== \(day.metric.name) ==\n" }
            out += section(day, explanation)
        }
        try sink.write(out)
    }

    private func section(_ day: DayExplanation, _ explanation: Explanation) -> String {
        var out = ""
        if day.sources.isEmpty {
            out += "\nNo \(day.metric == .steps ? "step samples" : "samples of \(day.metric.name)") fall on this day"
                + (explanation.exportSpan.map { span in
                    " (the export's days with \(explanation.byMetric ? "values" : "steps") run from \(span.lowerBound) to \(span.upperBound))"
                } ?? "")
                + ".\n"
        }
        for source in day.sources {
            let counted = source.samples.filter { $0.status == .counted }.count
            var what: String
            if day.isStepTotals {
                what = source.total.map { "\(GroupedNumber.format($0)) steps" } ?? "nothing"
            } else {
                what = source.values.isEmpty ? "nothing"
                    : source.values.map { "\($0.column.name) \(metricValueText($0.value, $0.column))" }.joined(separator: ", ")
            }
            // Under hc-priority each app adds its slices; the day is the sum.
            if day.priority != nil {
                what = "added \(what) (\(counted) of \(source.samples.count) samples in the sweep)"
            } else {
                what = (what == "nothing" ? "nothing counted" : what) + " (\(counted) of \(source.samples.count) samples counted)"
                    + (day.chosen == source.name ? "  <- the day's value" : "")
            }
            let line = "\(source.name.escapingControlCharacters()): \(what)"
            out += "\n" + (day.priority == nil && day.chosen == source.name ? display.styling.apply(.chosen, to: line) : line) + "\n"
            guard !source.samples.isEmpty else { continue }
            var table = TextTable(["Start", "End", "Value", "This day", "Note"], rightAligned: [2, 3], indent: "  ")
            for sample in source.samples {
                let entry = sample.entry
                let times = entry.isDayTotal ? ["(the day)", entry.column?.name ?? ""]
                    : [Explanation.clock(entry.clockStart), Explanation.clock(entry.clockEnd)]
                let share = sample.status == .counted ? Explanation.amount(entry.share) : "-"
                table.add(times + [Explanation.amount(entry.value), share, Explanation.note(sample)])
            }
            out += table.rendered
        }
        if day.notKept > 0 { out += "\n(\(day.notKept) more samples of the day were read but not listed)\n" }
        out += "\n" + Self.verdict(day) + "\n"
        return out
    }

    /// The rule's choice and why, in one paragraph.
    static func verdict(_ day: DayExplanation) -> String {
        let sweep = day.priority.map { priority in
            "Health Connect's own total (--rule hc-priority): in each slice of time only the record of the highest-priority "
                + "app counts (\(priority.map { $0.escapingControlCharacters() }.joined(separator: " > ")))"
        }
        guard day.isStepTotals else {
            let values = day.values.compactMap { column, value in value.map { "\(column.name) \(metricValueText($0, column))" } }
            guard !values.isEmpty else { return "The day has no value of \(day.metric.name)." }
            if let sweep {
                let added = day.sources.flatMap { source in
                    source.values.map { "\(source.name.escapingControlCharacters()) \(metricValueText($0.value, $0.column))" }
                }
                return "The day: \(values.joined(separator: ", ")), \(sweep); what each app added: \(added.joined(separator: ", "))."
            }
            let from = day.chosen.map { " from \($0.escapingControlCharacters())" } ?? ""
            let rule: String
            switch day.metric.kind {
            case .cumulative: rule = "the highest single source; sources are never added together"
            case .sampled: rule = "the source with the most samples that day, its samples averaged (its lowest and highest beside)"
            case .sleep: rule = "per source its intervals united into periods, each counted on the day it ends; the source with the most minutes"
            case .workouts: rule = "each session's minutes on the day it starts; the source with the most minutes"
            }
            return "The day: \(values.joined(separator: ", "))\(from): \(rule)."
        }
        guard let result = day.day else {
            return "The day has no steps: nothing of it counted, so it is not in the output."
        }
        if let sweep {
            return "The day: \(GroupedNumber.format(result.steps)) steps, \(sweep); what each app added: "
                + result.sources.map { "\($0.source.escapingControlCharacters()) \(GroupedNumber.format($0.steps))" }.joined(separator: ", ")
                + "."
        }
        let others = result.sources.filter { $0.source != result.source }
            .map { "\($0.source.escapingControlCharacters()) \(GroupedNumber.format($0.steps))" }
        return "The day: \(GroupedNumber.format(result.steps)) steps from \(result.source.escapingControlCharacters()), the highest "
            + "single source" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
            + "; sources are never added together, a tie goes to the name first in order."
    }
}
