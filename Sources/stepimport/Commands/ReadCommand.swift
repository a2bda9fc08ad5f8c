import ExportParsers
import Foundation
import HealthDays
import Platform

/// `stepimport apple` and `stepimport hc`: read an export and print its day totals.
///
/// The two differ only in the importer; the day rules, outputs and report are the same.
struct ReadCommand {
    /// `apple` or `hc` (with a forced `--input-format`).
    let choice: ExportChoice
    let path: String
    let options: ReadOptions
    let diagnostics: Diagnostics

    func run() throws(CommandError) {
        // A missing token or URL fails before any parsing work.
        let post = try options.post.map { (postOptions) throws(CommandError) in
            try PostCommand.prepare(postOptions, zone: options.zone, diagnostics: diagnostics, quiet: options.quiet)
        }
        let aggregator = DayAggregator(rule: options.zone)
        let meter = diagnostics.showsProgress && options.progress && !options.quiet ? ProgressMeter() : nil
        let progress = meter.map { meter in { (done: Int64, total: Int64?) in meter.update(done: done, total: total) } }
        let started = Date()
        let tuning = Tuning(environment: ProcessInfo.processInfo.environment)
        let importOptions = ImportOptions(invalidRecords: options.skipInvalid ? .skip : .fail,
                                          parseWorkers: tuning.parseWorkers, pieceSize: tuning.pieceSize, progress: progress)
        let result: ImportResult
        do throws(ExportError) {
            defer { meter?.clear() }
            result = try ExportImporter.open(path: path, as: choice).read(into: aggregator, options: importOptions)
            try aggregator.finish()
        } catch {
            throw .export(error)
        }
        let range = DayRange(since: options.since, until: options.until)
        let days = aggregator.dayTotals(in: range.closedRange)
        let statistics = aggregator.statistics
        if let post {
            report(result, statistics, days: days, seconds: Date().timeIntervalSince(started))
            try post.run(days)
            return
        }
        let renderer = DayTotalsRenderer(format: options.format, bySource: options.bySource,
                                         zoneDescription: zoneDescription(statistics))
        // Everything is computed before the first byte goes to stdout: an error never leaves partial totals.
        do {
            try StandardStreams.writeOutput(renderer.render(days))
        } catch {
            throw .output("cannot write the results to standard output: \(error)")
        }
        report(result, statistics, days: days, seconds: Date().timeIntervalSince(started))
    }

    private func zoneDescription(_ statistics: AggregationStats) -> String {
        switch options.zone {
        case .zone:
            return options.zone.words
        case .recordedOffset:
            var parts: [String] = statistics.offsets.prefix(4).map(OffsetText.format)
            if statistics.offsets.count > 4 { parts.append("...") }
            if statistics.withoutOffset > 0 { parts.append("UTC where none") }
            return parts.isEmpty ? options.zone.words : "\(options.zone.words) (\(parts.joined(separator: ", ")))"
        }
    }

    private func report(_ result: ImportResult, _ statistics: AggregationStats, days: [DayTotal], seconds: Double) {
        let summary = result.summary
        if summary.skippedRecords > 0 {
            // Skipped data is always reported, even with --quiet.
            diagnostics.warn("skipped \(Plural.count(summary.skippedRecords, "invalid step record")) (--skip-invalid); the totals of their days are low:")
            for example in summary.skippedExamples {
                let place = example.record.line > 0 ? ":\(example.record.line):\(example.record.column)" : ""
                diagnostics.warn("  \(example.location)\(place): \(example.record.problem)")
            }
            if summary.skippedRecords > summary.skippedExamples.count {
                diagnostics.warn("  ... and \(summary.skippedRecords - summary.skippedExamples.count) more")
            }
        }
        guard !options.quiet else { return }
        let rate = seconds > 0 ? ", \(ByteCount.format(Int64(Double(summary.bytesRead) / seconds)))/s" : ""
        let what = summary.locations.count == 1 ? "\(summary.locations[0])"
            : "\(summary.locations.count) files from \(InputLocation(path: summary.locations.first?.path ?? path))"
        diagnostics.note("read \(what) (\(summary.format), \(ByteCount.format(summary.bytesRead)) in \(String(format: "%.2f", seconds)) s\(rate))")
        for note in summary.notes {
            diagnostics.note(note.words)
        }
        if summary.stepRecords == 0 {
            diagnostics.note("no step records to total in this export (\(Plural.count(summary.otherRecords, "record")) of other types)")
            return
        }
        var line = Plural.count(summary.stepRecords, statistics.dayTotals == summary.stepRecords ? "day total" : "step record")
        line += ", \(Plural.count(statistics.duplicates, "exact duplicate")) counted once"
        if statistics.dayTotals < summary.stepRecords {
            line += ", \(statistics.crossingMidnight) split across midnight"
        }
        diagnostics.note(line)
        switch options.zone {
        case .recordedOffset:
            if statistics.withoutOffset > 0 {
                let count = statistics.withoutOffset
                diagnostics.note("\(Plural.count(count, "record")) \(count == 1 ? "carries" : "carry") no UTC offset and \(count == 1 ? "was" : "were") taken as UTC; --tz Area/City places \(count == 1 ? "it" : "them") in the trainee's zone")
            }
            if let offset = result.exportTimeOffset(statistics, days: days) {
                diagnostics.note(ExportTimeOffsetWords.hint(offset))
            }
        case .zone(let zone):
            if statistics.wallClockInZone > 0 {
                diagnostics.note("\(Plural.count(statistics.wallClockInZone, "record")) with a wall-clock time and no offset read as \(zone.identifier) local time")
            }
        }
    }

}

/// `--since` and `--until` as a range of days.
struct DayRange {
    let since: LocalDate?
    let until: LocalDate?

    var closedRange: ClosedRange<LocalDate>? {
        guard since != nil || until != nil else { return nil }
        return (since ?? LocalDate(daysSinceEpoch: Int32.min))...(until ?? LocalDate(daysSinceEpoch: Int32.max))
    }
}

/// UTC offsets as Apple writes them: +0100, -0430.
enum OffsetText {
    static func format(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(Int(seconds)) / 60
        return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}
