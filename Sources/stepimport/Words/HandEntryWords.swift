import ExportParsers
import HealthDays
import Outputs

/// Records typed in by hand (`HandEntries`), in the summary's words.
enum HandEntryWords {
    /// Without `--exclude-manual`: the hand-entered steps that count, per source.
    static func counted(_ sources: [HandEntries.Source]) -> String {
        let records = sources.reduce(0) { $0 + $1.stepRecords }
        let parts = sources.map { "\($0.name.escapingControlCharacters()) \(steps($0.steps))" }.joined(separator: ", ")
        return "\(Plural.count(records, "step record")) typed in by hand (\(parts)) \(records == 1 ? "counts" : "count"), "
            + "as the trainee app counts them; --exclude-manual leaves them out"
    }

    /// With `--exclude-manual`: what it left out of one source.
    static func leftOut(_ source: HandEntries.Source) -> String {
        var text = "--exclude-manual left out \(Plural.count(source.records, "record")) typed in by hand of "
            + source.name.escapingControlCharacters()
        if source.stepRecords > 0 { text += " (\(steps(source.steps)))" }
        return text
    }

    /// With `--exclude-manual` and nothing left out: whether the formats read could have said.
    static func noneLeftOut(formats: [ExportFormat]) -> String {
        let unmarked = formats.filter { !$0.marksHandEntries }
        guard !unmarked.isEmpty else { return "--exclude-manual: no record was typed in by hand" }
        let names = unmarked.map(\.name).joined(separator: " and ")
        return "--exclude-manual: \(names) \(unmarked.count == 1 ? "does" : "do") not say which records were typed in by hand, "
            + "so nothing was left out"
    }

    private static func steps(_ value: Double) -> String {
        let whole = Int(exactly: value.rounded()) ?? 0
        return "\(GroupedNumber.format(whole)) step\(whole == 1 ? "" : "s")"
    }
}

extension HandEntries {
    /// The source-days among `dates` whose steps came partly from hand entries, for `--by-source`.
    func stepDays(within dates: [LocalDate]) -> Set<SourceDay> {
        let shown = Set(dates)
        return Set(stepDays.filter { shown.contains($0.date) }.map { SourceDay(date: $0.date, source: $0.source) })
    }
}
