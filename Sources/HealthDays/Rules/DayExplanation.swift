/// Why one day is what it is (`--explain DATE`): each source's samples that fall on it, what
/// became of each, each source's total, and the rule's choice.
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
    }

    public let date: LocalDate
    /// Sources with samples on the day, the rule's choice first, then by total.
    public let sources: [Source]
    /// The rule's result for the day; nil when the day has no steps.
    public let day: DayTotal?
    /// Under `--rule hc-priority`, the list followed (highest first); nil under the highest-source rule.
    public let priority: [String]?
    /// Samples of the day not kept (beyond the recorder's limit).
    public let notKept: Int

    /// Decides each recorded sample's fate by the same rules as the read: the exclusions first,
    /// then hand entries, then the bounds and exact duplicates (under the highest-source rule; the
    /// priority sweep counts copies once by itself). Totals are the rule's own (`day`).
    public init(_ recorder: DaySampleRecorder, excludedSources: [SourcePattern], excludeManual: Bool,
                day: DayTotal?, priority: [String]?) {
        date = recorder.date
        self.day = day
        self.priority = priority
        notKept = recorder.notKept
        var seen = Set<SampleKey>()
        var bySource: [String: [Sample]] = [:]
        var order: [String] = []
        for entry in recorder.entries {
            let status: Status
            if let pattern = excludedSources.first(where: { $0.matches(entry.source) }) {
                status = .excludedBySource(pattern.text)
            } else if excludeManual && entry.sample.enteredByHand {
                status = .enteredByHandLeftOut
            } else if !entry.isDayTotal && !SampleLimits.isSafe(entry.sample) {
                status = .refused
            } else if priority == nil, !seen.insert(SampleKey(entry)).inserted {
                status = .duplicate
            } else {
                status = .counted
            }
            if bySource[entry.source] == nil { order.append(entry.source) }
            bySource[entry.source, default: []].append(Sample(entry: entry, status: status))
        }
        let totals = Dictionary(day?.sources.map { ($0.source, $0.steps) } ?? [], uniquingKeysWith: { first, _ in first })
        sources = order.map { Source(name: $0, samples: bySource[$0] ?? [], total: totals[$0]) }
            .sorted { lhs, rhs in
                if lhs.name == day?.source { return rhs.name != day?.source }
                if rhs.name == day?.source { return false }
                return (lhs.total ?? .min) > (rhs.total ?? .min)
            }
    }

    /// An exact duplicate's identity: source, start, end and value, as the day rule compares them.
    private struct SampleKey: Hashable {
        let source: String
        let start: Int64
        let end: Int64
        let value: UInt64
        let dayTotal: Bool

        init(_ entry: DaySampleRecorder.Entry) {
            source = entry.source
            start = entry.sample.startMs
            end = entry.sample.endMs
            value = entry.sample.value.bitPattern
            dayTotal = entry.isDayTotal
        }
    }
}
