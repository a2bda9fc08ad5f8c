import DisplayText
import ExportParsers
import Foundation
import HealthDays
import Platform

/// `stepimport hc --rule hc-priority`: the same read as for steps, into a `PriorityDayAggregator`
/// (Health Connect's own total, docs/rules.md). `--post`, `--metric` and `--exclude-source` with it
/// were refused with the options.
extension ReadCommand {
    func runPriority() throws(CommandError) {
        let aggregator = PriorityDayAggregator(rule: options.zone, priority: options.priority)
        let started = Date()
        let result = try importExport(into: aggregator) { () throws(ExportError) in try aggregator.finish() }
        let range = DayRange(since: options.since, until: options.until)
        let allDays = aggregator.dayTotals(in: nil)
        let days = range.closedRange.map { range in allDays.filter { range.contains($0.date) } } ?? allDays
        let statistics = aggregator.statistics
        let renderer = DayTotalsRenderer(format: options.format, bySource: options.bySource,
                                         zoneDescription: zoneDescription(statistics), priority: aggregator.priority ?? [])
        // Everything is computed before the first byte goes to stdout: an error never leaves partial totals.
        do {
            try StandardStreams.writeOutput(renderer.render(days))
        } catch {
            throw .output("cannot write the results to standard output: \(error)")
        }
        reportPriority(result, aggregator, statistics, days: days, seconds: Date().timeIntervalSince(started))
        reportFiltered(all: allDays.map(\.date), kept: days.map(\.date))
        reportRefusals(days)
    }

    /// The summary: what was read, the rule and the list it followed, the apps that counted
    /// nothing, and the zone notes.
    private func reportPriority(_ result: ImportResult, _ aggregator: PriorityDayAggregator, _ statistics: AggregationStats,
                                days: [DayTotal], seconds: Double) {
        let summary = result.summary
        diagnostics.warnSkipped(summary, consequence: "; the totals of their days are low")
        guard !options.quiet else { return }
        reportRead(summary, seconds: seconds)
        let list = (aggregator.priority ?? []).map { $0.escapingControlCharacters() }.joined(separator: " > ")
        var origin = "stored in the export"
        if aggregator.givenPriority != nil {
            origin = "given by --priority"
            if let stored = aggregator.storedPriority {
                let words = stored.isEmpty ? "an empty list" : stored.map { $0.escapingControlCharacters() }.joined(separator: " > ")
                origin += ", replacing the export's own (\(words))"
            }
        }
        diagnostics.note("rule: hc-priority (Health Connect's own total, not the highest single source); "
                         + "priority \(list.isEmpty ? "(empty)" : list), \(origin)")
        var parts = [Plural.count(statistics.samples - statistics.dayTotals, "step record")]
        if statistics.zeroLength > 0 { parts.append("\(statistics.zeroLength) of zero length") }
        diagnostics.note(parts.joined(separator: ", "))
        let unlisted = aggregator.unlistedSources
        if !unlisted.isEmpty {
            let named = unlisted.map { "\($0.source.escapingControlCharacters()) (\(Plural.count($0.records, "record")))" }
            diagnostics.note("absent from the priority list, so counted nothing (as in Health Connect): "
                             + named.joined(separator: ", "))
        }
        if statistics.dayTotals > 0 {
            diagnostics.note("\(Plural.count(statistics.dayTotals, "day total")) left out: a day total has no times "
                             + "to compete on under --rule hc-priority")
        }
        switch options.zone {
        case .recordedOffset:
            if statistics.withoutOffset > 0 {
                diagnostics.note("\(Plural.count(statistics.withoutOffset, "record")) with no UTC offset taken as UTC; "
                                 + "--tz Area/City places them in the trainee's zone")
            }
        case .zone(let zone):
            if statistics.wallClockInZone > 0 {
                diagnostics.note("\(Plural.count(statistics.wallClockInZone, "record")) with a wall-clock time and no offset read as \(zone.identifier) local time")
            }
        }
    }
}
