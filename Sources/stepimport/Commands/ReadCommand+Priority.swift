import DisplayText
import ExportParsers
import Foundation
import HealthDays
import Outputs
import Platform

/// `stepimport hc --rule hc-priority`: the same read as for steps, into a `PriorityDayAggregator`
/// (Health Connect's own total, docs/rules.md). `--post`, and metrics the rule does not total, were
/// refused with the options; `--exclude-source` takes an app's records away before the sweep.
struct PrioritySteps: ReadRule {
    let aggregator: PriorityDayAggregator

    init(zone: ZoneRule, priority: [String]?) {
        aggregator = PriorityDayAggregator(rule: zone, priority: priority)
    }

    var sink: RecordSink { aggregator }
    func finish() throws(ExportError) { try aggregator.finish() }
    func days(in range: ClosedRange<LocalDate>?) -> ReadDays<DayTotal> {
        ReadDays(aggregator.dayTotals(in: nil), within: range, date: \.date)
    }
    var statistics: AggregationStats { aggregator.statistics }
    var priority: [String]? { aggregator.priority ?? [] }

    func report(_ result: ImportResult, _ days: ReadDays<DayTotal>, seconds: Double, timeOffset: ExportTimeOffset?,
                by command: ReadCommand) {
        command.reportPriority(result, [aggregator], seconds: seconds)
        command.reportZone(statistics)
    }
}

/// `--rule hc-priority --metric LIST`: a column per metric, each its own sweep over the same list
/// (`PriorityMetricAggregator`).
struct PriorityMetrics: MetricReadRule {
    let aggregator: PriorityMetricAggregator
    let metrics: MetricSet
    /// Whether each source's values are gathered: `--by-source`, `--explain`, and the database,
    /// which names each day's source.
    let withSources: Bool

    init(metrics: MetricSet, zone: ZoneRule, priority: [String]?, withSources: Bool) {
        aggregator = PriorityMetricAggregator(metrics: metrics, rule: zone, priority: priority)
        self.metrics = metrics
        self.withSources = withSources
    }

    var sink: RecordSink { aggregator }
    func finish() throws(ExportError) { try aggregator.finish() }

    func days(in range: ClosedRange<LocalDate>?) -> MetricReadDays {
        MetricReadDays(days: ReadDays(aggregator.days(), within: range, date: \.date),
                       sources: withSources ? aggregator.sourceValues(in: range) : [])
    }

    /// The zone statistics of every metric's sweep together.
    var statistics: AggregationStats {
        var statistics = AggregationStats()
        for part in aggregator.aggregators {
            let seen = part.statistics
            statistics.withoutOffset += seen.withoutOffset
            statistics.wallClockInZone += seen.wallClockInZone
            statistics.offsets = Array(Set(statistics.offsets + seen.offsets)).sorted()
        }
        return statistics
    }

    var priority: [String]? { aggregator.priority ?? [] }

    func steps(_ days: MetricReadDays) -> [DayTotal]? { nil }

    func report(_ result: ImportResult, _ days: MetricReadDays, seconds: Double, timeOffset: ExportTimeOffset?,
                by command: ReadCommand) {
        command.reportPriority(result, aggregator.aggregators, seconds: seconds)
        command.reportZone(statistics)
    }
}

extension ReadCommand {
    /// The summary: what was read, the rule and the list it followed, and per metric its records
    /// and the apps that counted nothing.
    func reportPriority(_ result: ImportResult, _ aggregators: [PriorityDayAggregator], seconds: Double) {
        let summary = result.summary
        let stepsOnly = aggregators.count == 1 && aggregators[0].metric == .steps
        if stepsOnly {
            diagnostics.warnSkipped(summary, consequence: "; the totals of their days are low")
        } else {
            diagnostics.warnSkipped(summary, noun: "invalid record", consequence: "; the values of their days may be low")
        }
        guard !options.quiet, let first = aggregators.first else { return }
        reportRead(summary, seconds: seconds)
        let list = (first.priority ?? []).map { $0.escapingControlCharacters() }.joined(separator: " > ")
        var origin = "stored in the export"
        if first.givenPriority != nil {
            origin = "given by --priority"
            if let stored = first.storedPriority {
                let words = stored.isEmpty ? "an empty list" : stored.map { $0.escapingControlCharacters() }.joined(separator: " > ")
                origin += ", replacing the export's own (\(words))"
            }
        }
        diagnostics.note("rule: hc-priority (Health Connect's own total, not the highest single source); "
                         + "priority \(list.isEmpty ? "(empty)" : list), \(origin)")
        for aggregator in aggregators {
            let statistics = aggregator.statistics
            let noun = aggregator.metric == .steps ? "step record" : "\(aggregator.metric.name) record"
            var parts = [Plural.count(statistics.samples - statistics.dayTotals, noun)]
            if statistics.zeroLength > 0 { parts.append("\(statistics.zeroLength) of zero length") }
            if statistics.refused > 0 { parts.append(MetricWords.refused(statistics.refused)) }
            if aggregator.writtenRuns > 0 {
                parts.append("put in time order through a temporary file (\(Plural.count(aggregator.writtenRuns, "sorted run")))")
            }
            diagnostics.note(parts.joined(separator: ", "))
            let unlisted = aggregator.unlistedSources
            if !unlisted.isEmpty {
                let named = unlisted.map { "\($0.source.escapingControlCharacters()) (\(Plural.count($0.records, "record")))" }
                diagnostics.note("absent from the priority list, so counted nothing (as in Health Connect)"
                                 + (stepsOnly ? "" : " for \(aggregator.metric.name)") + ": " + named.joined(separator: ", "))
            }
            if statistics.dayTotals > 0 {
                let what = stepsOnly ? "day total" : "\(aggregator.metric.name) day value"
                diagnostics.note("\(Plural.count(statistics.dayTotals, what)) left out: a day total has no times "
                                 + "to compete on under --rule hc-priority")
            }
        }
    }

    /// The zone notes of the rule's records.
    func reportZone(_ statistics: AggregationStats) {
        guard !options.quiet else { return }
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
