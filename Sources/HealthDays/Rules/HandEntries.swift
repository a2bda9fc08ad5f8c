/// Samples typed in by hand (`HealthSample.enteredByHand`) on their way to the day rule: counted
/// per source, the days their steps fall on noted (for `--by-source`), and left out with
/// `--exclude-manual`. By default they count, as the trainee app counts them (HealthKit's
/// statistics and Health Connect's aggregates include them). Day totals carry no mark.
///
/// Sits between a reader (or `SourceExclusion`) and the day rule; a sample not entered by hand
/// costs one test. Before a `PriorityRecordSink` it is one too, as `SourceExclusion` is.
public final class HandEntries: PassingSink {
    /// What one source's hand entries were.
    public struct Source: Equatable, Sendable {
        public let name: String
        /// Records entered by hand, of any metric.
        public internal(set) var records = 0
        /// Of them, step records, and their steps.
        public internal(set) var stepRecords = 0
        public internal(set) var steps = 0.0
    }

    /// Whether they are left out (`--exclude-manual`).
    public let excludes: Bool
    let next: RecordSink
    private let placement: DayPlacement
    private var table = SourceTable()
    private var counts: [Source] = []
    /// Each local day (high 32 bits) and source id that a hand-entered step sample falls on.
    private var stepDayKeys: Set<UInt64> = []

    /// `zone`: the rule that places days, for the days hand-entered steps fall on.
    public init(excludes: Bool, zone: ZoneRule, next: RecordSink) {
        self.excludes = excludes
        self.next = next
        placement = DayPlacement(rule: zone)
    }

    /// Every source with hand entries, in order of its first.
    public var sources: [Source] { counts.filter { $0.records > 0 } }

    /// The days, each with a source, whose steps came partly from hand entries.
    public var stepDays: [(date: LocalDate, source: String)] {
        stepDayKeys.map { key in
            (LocalDate(daysSinceEpoch: Int32(truncatingIfNeeded: key >> 32)), table.names[Int(UInt32(truncatingIfNeeded: key))])
        }
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        if sample.enteredByHand {
            note(sample, of: .steps, sourceUTF8)
            if excludes { return }
        }
        next.add(sample, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        if sample.enteredByHand {
            note(sample, of: metric, sourceUTF8)
            if excludes { return }
        }
        next.add(sample, of: metric, sourceUTF8: sourceUTF8)
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        next.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        next.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
    }

    // MARK: - Before Health Connect's own total (the rest is `PassingSink`'s)

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        if sample.enteredByHand {
            note(sample, of: metric, sourceUTF8)
            if excludes { return }
        }
        next.prioritySink?.add(sample, of: metric, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    // MARK: - Counting

    private func note(_ sample: HealthSample, of metric: Metric, _ sourceUTF8: UnsafeRawBufferPointer) {
        let id = table.id(forUTF8: sourceUTF8)
        while counts.count <= Int(id) { counts.append(Source(name: table.names[counts.count])) }
        counts[Int(id)].records += 1
        guard metric == .steps, SampleLimits.isSafe(sample) else { return }
        counts[Int(id)].stepRecords += 1
        counts[Int(id)].steps += sample.value
        let (start, end) = placement.clockSpan(of: sample)
        let first = placement.day(containing: start)
        stepDayKeys.insert(Self.key(first.day, id))
        placement.forEachDay(from: start, to: end, startingIn: first) { day, _, _ in stepDayKeys.insert(Self.key(day, id)) }
    }

    private static func key(_ day: Int32, _ source: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: day)) << 32 | UInt64(UInt32(bitPattern: source))
    }
}
