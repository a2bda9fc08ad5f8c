import ExportParsers
import Foundation
import HealthDays
import Outputs
import Platform

/// `stepimport apple --metric`: the same read as for steps, into a `MetricAggregator`, printed
/// a column per metric (docs/metrics.md). Steps alone never come here.
extension ReadCommand {
    func runMetrics() throws(CommandError) {
        let aggregator = MetricAggregator(metrics: options.metrics, rule: options.zone)
        let started = Date()
        let (result, exclusion) = try importExport(excludingSourcesBefore: aggregator) { () throws(ExportError) in
            try aggregator.finish()
        }
        let range = DayRange(since: options.since, until: options.until).closedRange
        let allDays = aggregator.days()
        let days = inRange(allDays, \.date)
        var statistics = aggregator.steps.statistics
        statistics.offsets = aggregator.offsets
        let layout = DayLayout(bySource: options.bySource, zoneDescription: zoneDescription(statistics))
        let sources = options.bySource ? aggregator.sourceValues(in: range) : []
        // Everything is computed before the first byte goes to stdout: an error never leaves partial totals.
        try CommandError.writeResults { (sink) throws(OutputError) in
            try options.format.writer.writeMetricDays(days, sources: sources, columns: options.metrics.columns, layout, to: sink)
        }
        reportMetrics(result, aggregator, statistics, allDays: allDays, days: days,
                      seconds: Date().timeIntervalSince(started))
        reportExcluded(exclusion)
        reportFiltered(all: allDays.map(\.date), kept: days.map(\.date), with: "values")
        if options.metrics.contains(.steps) {
            reportRefusals(aggregator.steps.dayTotals(in: range))
        }
    }

    /// The summary on stderr: what was read, then a line per metric (records, duplicates, values
    /// left out as implausible, days with a value), then the zone notes.
    private func reportMetrics(_ result: ImportResult, _ aggregator: MetricAggregator, _ statistics: AggregationStats,
                               allDays: [MetricDay], days: [MetricDay], seconds: Double) {
        diagnostics.warnSkipped(result.summary, noun: "invalid record", consequence: "; the values of their days may be low")
        guard !options.quiet else { return }
        reportRead(result.summary, seconds: seconds)
        var absent: [Metric] = []
        for metric in options.metrics.metrics {
            let seen = aggregator.statistics(of: metric)
            guard seen.records > 0 else {
                absent.append(metric)
                continue
            }
            let dayCount = allDays.count { $0[metric.columns[0]] != nil }
            diagnostics.note(MetricWords.line(metric, seen, days: dayCount,
                                              crossingMidnight: metric == .steps ? statistics.crossingMidnight : nil))
        }
        if !absent.isEmpty {
            diagnostics.note(MetricWords.absent(absent))
        }
        if case .recordedOffset = options.zone,
           let offset = result.exportTimeOffset(statistics, from: days.first?.date, to: days.last?.date) {
            diagnostics.note(ExportTimeOffsetWords.hint(offset))
        }
    }
}
