import DisplayText
import HealthDays

extension TableWriter {
    /// Each source's samples of the day with what became of them, its total, and the rule's choice.
    public func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError) {
        let day = explanation.day
        var out = "\(day.date)  (zone: \(explanation.zoneWords))\n"
        if day.sources.isEmpty {
            out += "\nNo step samples fall on this day"
                + (explanation.exportSpan.map { " (the export's days with steps run from \($0.lowerBound) to \($0.upperBound))" } ?? "")
                + ".\n"
        }
        for source in day.sources {
            let counted = source.samples.filter { $0.status == .counted }.count
            let total = source.total.map { "\(GroupedNumber.format($0)) steps" } ?? "nothing counted"
            out += "\n\(source.name.escapingControlCharacters()): \(total) (\(counted) of \(source.samples.count) samples counted)"
                + (day.day?.source == source.name ? "  <- the day's total\n" : "\n")
            var table = TextTable(["Start", "End", "Steps", "This day", "Note"], rightAligned: [2, 3], indent: "  ")
            for sample in source.samples {
                let entry = sample.entry
                let times = entry.isDayTotal ? ["(the day)", ""] : [Explanation.clock(entry.clockStart), Explanation.clock(entry.clockEnd)]
                let share = sample.status == .counted ? Explanation.amount(entry.share) : "-"
                table.add(times + [Explanation.amount(entry.sample.value), share, Explanation.note(sample)])
            }
            out += table.rendered
        }
        if day.notKept > 0 { out += "\n(\(day.notKept) more samples of the day were read but not listed)\n" }
        out += "\n" + Self.verdict(day) + "\n"
        try sink.write(out)
    }

    /// The rule's choice and why, in one paragraph.
    static func verdict(_ day: DayExplanation) -> String {
        guard let result = day.day else {
            return "The day has no steps: nothing of it counted, so it is not in the output."
        }
        let others = result.sources.filter { $0.source != result.source }
            .map { "\($0.source.escapingControlCharacters()) \(GroupedNumber.format($0.steps))" }
        if let priority = day.priority {
            let order = priority.map { $0.escapingControlCharacters() }.joined(separator: " > ")
            return "The day: \(GroupedNumber.format(result.steps)) steps, Health Connect's own total (--rule hc-priority): in each "
                + "slice of time only the record of the highest-priority app counts (\(order)); what each app added: "
                + result.sources.map { "\($0.source.escapingControlCharacters()) \(GroupedNumber.format($0.steps))" }.joined(separator: ", ")
                + "."
        }
        return "The day: \(GroupedNumber.format(result.steps)) steps from \(result.source.escapingControlCharacters()), the highest "
            + "single source" + (others.isEmpty ? "" : " (\(others.joined(separator: ", ")))")
            + "; sources are never added together, a tie goes to the name first in order."
    }
}
