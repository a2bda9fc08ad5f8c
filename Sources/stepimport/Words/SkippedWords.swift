import ExportParsers
import HealthDays

extension Diagnostics {
    /// The records `--skip-invalid` skipped, with the first few and their place: always on stderr,
    /// even with --quiet. `consequence` follows the count (what the skipping means for the output).
    /// The examples are indented lines under the warning, as every list on stderr is.
    func warnSkipped(_ summary: ImportSummary, noun: String = "invalid step record", consequence: String = "") {
        guard summary.skippedRecords > 0 else { return }
        warn("skipped \(Plural.count(summary.skippedRecords, noun)) (--skip-invalid)\(consequence):")
        for example in summary.skippedExamples {
            let place = example.record.line > 0 ? ":\(example.record.line):\(example.record.column)" : ""
            write("  \(example.location)\(place): \(example.record.problem)\n")
        }
        if summary.skippedRecords > summary.skippedExamples.count {
            write("  ... and \(summary.skippedRecords - summary.skippedExamples.count) more\n")
        }
    }
}
