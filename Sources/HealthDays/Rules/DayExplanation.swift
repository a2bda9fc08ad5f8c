/// Why one day of one metric is what it is (`--explain DATE`): each source's samples that fall
/// on it, what became of each, each source's total (or values), and the rule's choice.
public struct DayExplanation: Sendable {
    /// What became of a sample.
    public enum Status: Equatable, Sendable {
        /// It counts toward its source's total (its share, when split at midnight).
        case counted
        /// An exact copy of an earlier sample of the source (same start, end and value): counted once.
        case duplicate
        /// Left out by `--exclude-source`, by this pattern.
        case excludedBySource(String)
        /// Typed in by hand and left out by `--exclude-manual`.
        case enteredByHandLeftOut
        /// Beyond the bounds a sample can have (refused by the day rule).
        case refused
        /// A measured value outside the metric's plausible range (left out by its day rule).
        case implausible
        /// An interval of sleep whose period ends on another day, where it counts.
        case countedOnAnotherDay(LocalDate)
    }

    public struct Sample: Sendable {
        public let entry: DaySampleRecorder.Entry
        public let status: Status
    }

    public struct Source: Sendable {
        public let name: String
        public let samples: [Sample]
        /// The source's total for the day as the rule worked it out (rounded); nil when nothing of it counted.
        public let total: Int?
        /// For a metric other than steps, its values for the day, column by column, and whether
        /// the day took them.
        public let values: [MetricSourceValue]
    }

    public let date: LocalDate
    public let metric: Metric
    /// For a metric other than steps, the day's value in each of its columns (nil: none).
    public let values: [(column: MetricColumn, value: Double?)]
    /// The source the day took; nil when it has no value (under hc-priority for steps, the app
    /// that gave the most).
    public let chosen: String?
    /// Sources with samples on the day, the rule's choice first, then by total.
    public let sources: [Source]
    /// The rule's result for the day; nil when the day has no steps.
    public let day: DayTotal?
    /// Under `--rule hc-priority`, the list followed (highest first); nil under the highest-source rule.
    public let priority: [String]?
    /// Samples of the day not kept (beyond the recorder's limit).
    public let notKept: Int

    /// Whether this is steps by their day totals (`day`, each source's `total`), not by `values`.
    public var isStepTotals: Bool { metric == .steps && values.isEmpty }

    /// Decides each recorded sample's fate by the same rules as the read: the exclusions first,
    /// then hand entries, then the bounds and exact duplicates (under the highest-source rule; the
    /// priority sweep counts copies once by itself). Totals are the rule's own (`day`).
    public init(_ recorder: DaySampleRecorder, excludedSources: [SourcePattern], excludeManual: Bool,
                day: DayTotal?, priority: [String]?) {
        self.init(recorder, metric: .steps, excludedSources: excludedSources, excludeManual: excludeManual, day: day,
                  values: [], chosen: day?.source, sourceValues: [], priority: priority)
    }

    /// The same for any metric read with `--metric`, from its day (`MetricDay`) and each source's
    /// values (`MetricSourceValue`, as `--by-source` gives them); steps become day totals, as
    /// steps alone are explained.
    public init(_ recorder: DaySampleRecorder, metric: Metric, excludedSources: [SourcePattern], excludeManual: Bool,
                metricDay: MetricDay?, sourceValues: [MetricSourceValue], priority: [String]?) {
        let mine = sourceValues.filter { $0.date == recorder.date && $0.column.metric == metric }
        let chosen = mine.first { $0.standing == .winner }?.source
        if metric == .steps {
            // Steps read with other metrics are explained as steps alone are: by day totals.
            let totals = mine.filter { $0.standing != .implausible && $0.value > 0 }
                .map { SourceTotal(source: $0.source, steps: Int($0.value)) }
            let day = metricDay?[.steps].map { steps in
                DayTotal(date: recorder.date, steps: Int(steps), source: chosen ?? totals.first?.source ?? "", sources: totals)
            }
            self.init(recorder, excludedSources: excludedSources, excludeManual: excludeManual, day: day, priority: priority)
            return
        }
        self.init(recorder, metric: metric, excludedSources: excludedSources, excludeManual: excludeManual, day: nil,
                  values: metric.columns.map { ($0, metricDay?[$0]) },
                  chosen: chosen, sourceValues: mine, priority: priority)
    }

    private init(_ recorder: DaySampleRecorder, metric: Metric, excludedSources: [SourcePattern], excludeManual: Bool,
                 day: DayTotal?, values: [(column: MetricColumn, value: Double?)], chosen: String?,
                 sourceValues: [MetricSourceValue], priority: [String]?) {
        date = recorder.date
        self.metric = metric
        self.day = day
        self.values = values
        self.chosen = chosen
        self.priority = priority
        notKept = recorder.notKept
        var seen = Set<SampleKey>()
        var bySource: [String: [Sample]] = [:]
        var order: [String] = []
        for entry in recorder.entries where entry.metric == metric {
            let status: Status
            if let pattern = excludedSources.first(where: { $0.matches(entry.source) }) {
                status = .excludedBySource(pattern.text)
            } else if excludeManual && entry.sample.enteredByHand {
                status = .enteredByHandLeftOut
            } else if !entry.isDayTotal && !SampleLimits.isSafe(entry.sample) {
                status = .refused
            } else if priority == nil, metric.kind != .sleep, !seen.insert(SampleKey(entry)).inserted {
                // Sleep unites its intervals: a copy adds nothing without being dropped.
                status = .duplicate
            } else if metric.kind == .sampled, let range = metric.plausibleRange, !range.contains(entry.sample.value) {
                status = .implausible
            } else {
                status = .counted
            }
            if bySource[entry.source] == nil { order.append(entry.source) }
            bySource[entry.source, default: []].append(Sample(entry: entry, status: status))
        }
        if metric.kind == .sleep {
            // Each counted interval belongs to a period, which counts on the day it ends. The
            // recorder kept the evening before for periods that end on the day: intervals of a
            // period that ended before the day (and others that ended before it) are not listed.
            let dayStart = Int64(recorder.date.daysSinceEpoch) * 86_400_000
            for (name, samples) in bySource {
                let counted = samples.indices.filter { samples[$0].status == .counted && !samples[$0].entry.isDayTotal }
                var kept = samples
                for (index, day) in zip(counted, recorder.sleepPeriodDays(of: counted.map { samples[$0].entry.sample })) {
                    guard let day, day != recorder.date.daysSinceEpoch else { continue }
                    kept[index] = Sample(entry: samples[index].entry, status: .countedOnAnotherDay(LocalDate(daysSinceEpoch: day)))
                }
                kept.removeAll { sample in
                    if case .countedOnAnotherDay(let day) = sample.status { return day < recorder.date }
                    return sample.status != .counted && !sample.entry.isDayTotal && sample.entry.clockEnd <= dayStart
                }
                bySource[name] = kept
            }
            order.removeAll { bySource[$0]?.isEmpty ?? true }
        }
        for value in sourceValues where bySource[value.source] == nil {
            order.append(value.source)
            bySource[value.source] = []
        }
        let totals = Dictionary(day?.sources.map { ($0.source, $0.steps) } ?? [], uniquingKeysWith: { first, _ in first })
        let first = values.first?.column
        func rank(_ source: Source) -> Double {
            if let total = source.total { return Double(total) }
            return source.values.first { $0.column == first }?.value ?? -.infinity
        }
        sources = order.map { name in
            Source(name: name, samples: bySource[name] ?? [], total: totals[name], values: sourceValues.filter { $0.source == name })
        }.sorted { lhs, rhs in
            if lhs.name == chosen { return rhs.name != chosen }
            if rhs.name == chosen { return false }
            return rank(lhs) > rank(rhs)
        }
    }

    /// An exact duplicate's identity: source, start, end and value, as the day rule compares them.
    private struct SampleKey: Hashable {
        let source: String
        let start: Int64
        let end: Int64
        let value: UInt64
        let dayTotal: Bool
        let column: MetricColumn?

        init(_ entry: DaySampleRecorder.Entry) {
            column = entry.column
            source = entry.source
            start = entry.sample.startMs
            end = entry.sample.endMs
            value = entry.sample.value.bitPattern
            dayTotal = entry.isDayTotal
        }
    }
}
