/// Leaves out the samples of sources that match any of `patterns` before they reach the day rule
/// (`--exclude-source`): a third-party app that re-imports Health data, hand-entered samples.
///
/// Sits between a reader and the next sink. Each distinct source is matched once; the run of
/// samples from one source (the common case) costs one byte comparison per sample.
public final class SourceExclusion: StepSink {
    /// What was left out: one source, the pattern that matched it, and its records.
    public struct Excluded: Equatable, Sendable {
        public let source: String
        public let pattern: SourcePattern
        public internal(set) var records: Int
    }

    public let patterns: [SourcePattern]
    private let next: StepSink
    /// Every source seen, by UTF-8 bytes: the index in `excluded` when left out, else -1.
    private var decisions: [[UInt8]: Int] = [:]
    private var lastSource: [UInt8] = []
    private var lastDecision = -1
    private var seenAny = false
    /// Left out so far, in the order first seen.
    public private(set) var excluded: [Excluded] = []

    public init(patterns: [SourcePattern], next: StepSink) {
        self.patterns = patterns
        self.next = next
    }

    /// The patterns that matched no source, for a warning (a typo leaves everything in).
    public var unmatchedPatterns: [SourcePattern] {
        patterns.filter { pattern in !excluded.contains { $0.pattern == pattern } }
    }

    public func add(_ sample: StepSample, sourceUTF8: UnsafeRawBufferPointer) {
        let decision = decide(sourceUTF8)
        if decision < 0 {
            next.add(sample, sourceUTF8: sourceUTF8)
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

    private func decide(_ source: UnsafeRawBufferPointer) -> Int {
        if seenAny && lastSource.elementsEqual(source) { return lastDecision }
        let bytes = Array(source)
        let decision: Int
        if let known = decisions[bytes] {
            decision = known
        } else {
            let name = String(decoding: bytes, as: UTF8.self)
            if let pattern = patterns.first(where: { $0.matches(name) }) {
                excluded.append(Excluded(source: name, pattern: pattern, records: 0))
                decision = excluded.count - 1
            } else {
                decision = -1
            }
            decisions[bytes] = decision
        }
        lastSource = bytes
        lastDecision = decision
        seenAny = true
        return decision
    }
}
