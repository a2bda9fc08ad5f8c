/// Leaves out the samples of sources that match any of `patterns` before they reach the day rule
/// (`--exclude-source`): a third-party app that re-imports Health data, hand-entered samples.
///
/// Sits between a reader and the next sink. Each distinct source is matched once; sources are
/// looked up in a `SourceTable`, which allocates nothing for a source it knows.
///
/// Before a `PriorityRecordSink` (`--rule hc-priority`) it is one too, and passes the priority
/// list, the order and each record's last-modified time through: an excluded app's records are
/// gone before the sweep, as if the export had never held them.
public final class SourceExclusion: PassingSink {
    /// What was left out: one source, the pattern that matched it, and its records.
    public struct Excluded: Equatable, Sendable {
        public let source: String
        public let pattern: SourcePattern
        public internal(set) var records: Int
    }

    public let patterns: [SourcePattern]
    let next: RecordSink
    /// Every source seen, and by its id what was decided: the index in `excluded`, else -1.
    private var sources = SourceTable()
    private var decisions: [Int] = []
    /// Left out so far, in the order first seen.
    public private(set) var excluded: [Excluded] = []

    public init(patterns: [SourcePattern], next: RecordSink) {
        self.patterns = patterns
        self.next = next
    }

    /// Every source seen, in order of first appearance (for the names nearest an unmatched pattern).
    public var sourcesSeen: [String] { sources.names }

    /// The patterns that matched no source, for a warning (a typo leaves everything in).
    public var unmatchedPatterns: [SourcePattern] {
        patterns.filter { pattern in !excluded.contains { $0.pattern == pattern } }
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.add(sample, sourceUTF8: sourceUTF8)
        } else {
            excluded[decision].records += 1
        }
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.add(sample, of: metric, sourceUTF8: sourceUTF8)
        } else {
            excluded[decision].records += 1
        }
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
        } else {
            excluded[decision].records += 1
        }
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
        } else {
            excluded[decision].records += 1
        }
    }

    // MARK: - Before Health Connect's own total (the rest is `PassingSink`'s)

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.prioritySink?.add(sample, of: metric, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
        } else {
            excluded[decision].records += 1
        }
    }

    private func decide(_ source: UnsafeRawBufferPointer) -> Int {
        let id = Int(sources.id(forUTF8: source))
        if id < decisions.count { return decisions[id] }
        // A new source: ids are handed out in order, so it is the next one.
        let name = sources.names[id]
        var decision = -1
        if let pattern = patterns.first(where: { $0.matches(name) }) {
            excluded.append(Excluded(source: name, pattern: pattern, records: 0))
            decision = excluded.count - 1
        }
        decisions.append(decision)
        return decision
    }
}
