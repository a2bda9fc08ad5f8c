import ExportParsers
import Foundation
import HealthDays
import Outputs
import Platform

/// The days of `--metric`: a value per metric column, with the sources' values for `--by-source`.
struct MetricReadDays {
    let days: ReadDays<MetricDay>
    /// Each source's value per day and column within `--since`/`--until`; empty unless the rule
    /// was asked for them (`--by-source`, and the database, which names each day's source).
    let sources: [MetricSourceValue]
}

/// `stepimport apple --metric`: the same read as for steps, into a `MetricAggregator`, written
/// a column per metric (docs/metrics.md). Steps alone are `HighestSourceSteps`.
struct HighestSourceMetrics: MetricReadRule {
    let aggregator: MetricAggregator
    let metrics: MetricSet
    /// Whether each source's values are gathered: `--by-source`, `--explain`, and the database,
    /// which names each day's source.
    let withSources: Bool

    init(metrics: MetricSet, zone: ZoneRule, withSources: Bool) {
        aggregator = MetricAggregator(metrics: metrics, rule: zone)
        self.metrics = metrics
        self.withSources = withSources
    }

    var sink: RecordSink { aggregator }
    func finish() throws(ExportError) { try aggregator.finish() }

    func days(in range: ClosedRange<LocalDate>?) -> MetricReadDays {
        MetricReadDays(days: ReadDays(aggregator.days(), within: range, date: \.date),
                       sources: withSources ? aggregator.sourceValues(in: range) : [])
    }

    var statistics: AggregationStats {
        var statistics = aggregator.steps.statistics
        statistics.offsets = aggregator.offsets
        return statistics
    }

    var priority: [String]? { nil }

    func steps(_ days: MetricReadDays) -> [DayTotal]? {
        metrics.contains(.steps) ? aggregator.steps.dayTotals(in: days.days.range) : nil
    }

    func report(_ result: ImportResult, _ days: MetricReadDays, seconds: Double, timeOffset: ExportTimeOffset?,
                by command: ReadCommand) {
        command.reportMetrics(result, aggregator, statistics, allDays: days.days.all, days: days.days.shown, seconds: seconds,
                              timeOffset: timeOffset)
    }
}

extension ReadCommand {
    /// The summary on stderr: what was read, then a line per metric (records, duplicates, values
    /// left out as implausible, days with a value), then the zone notes.
    func reportMetrics(_ result: ImportResult, _ aggregator: MetricAggregator, _ statistics: AggregationStats,
                               allDays: [MetricDay], days: [MetricDay], seconds: Double, timeOffset: ExportTimeOffset?) {
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
        if let timeOffset {
            diagnostics.note(ExportTimeOffsetWords.hint(timeOffset))
        }
    }
}
