/// Keeps the samples and day values of the metrics asked for that fall on one local day, placed
/// as their day rule places them, as the reader handed them over (before any filter), and passes
/// everything on (`--explain DATE`). Memory holds that day's samples only, whatever the size of
/// the export.
///
/// Sits first after the reader; before a `PriorityRecordSink` it is one too.
public final class DaySampleRecorder: PassingSink {
    /// One sample (or day total) that counts toward the day, with the part of it that falls there.
    public struct Entry: Sendable {
        public let metric: Metric
        public let source: String
        public let sample: HealthSample
        /// Its start and end on the wall clock that placed it (its own offset's, or the `--tz`
        /// zone's), as milliseconds since 1970 on that clock.
        public let clockStart: Int64
        public let clockEnd: Int64
        /// The part of its value on the day: all of it, or its share when split at midnight.
        public let share: Double
        /// What the sample gives: its value, or for sleep its minutes.
        public var value: Double { metric.kind == .sleep ? share : sample.value }
        /// Whether it was split at midnight.
        public let split: Bool
        /// A total (or value) an export gave for the day, not a sample.
        public let isDayTotal: Bool
        /// For a value an export gave for the day, its column.
        public let column: MetricColumn?
        /// When its record was last modified (`--rule hc-priority`), if the input says.
        public let lastModifiedMs: Int64?
    }

    public let date: LocalDate
    public let metrics: MetricSet
    let next: RecordSink
    private let placement: DayPlacement
    /// The samples of the day, in the order they came.
    public private(set) var entries: [Entry] = []
    /// Samples of the day beyond `limit`, counted, not kept.
    public private(set) var notKept = 0
    private let limit: Int

    /// `limit`: the most samples kept (a day of a real export holds a few thousand).
    public init(date: LocalDate, zone: ZoneRule, metrics: MetricSet = .steps, next: RecordSink, limit: Int = 200_000) {
        self.date = date
        self.metrics = metrics
        self.next = next
        self.limit = limit
        placement = DayPlacement(rule: zone)
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        if metrics.contains(.steps) { note(sample, of: .steps, sourceUTF8, lastModified: nil) }
        next.add(sample, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        if metrics.contains(metric) { note(sample, of: metric, sourceUTF8, lastModified: nil) }
        next.add(sample, of: metric, sourceUTF8: sourceUTF8)
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if date == self.date && metrics.contains(.steps) { keepDayValue(.steps, steps, sourceUTF8) }
        next.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if date == self.date && metrics.contains(column.metric) { keepDayValue(column, value, sourceUTF8) }
        next.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
    }

    private func keepDayValue(_ column: MetricColumn, _ value: Double, _ sourceUTF8: UnsafeRawBufferPointer) {
        keep(Entry(metric: column.metric, source: String(decoding: sourceUTF8, as: UTF8.self),
                   sample: HealthSample(startMs: 0, endMs: 0, offsetSeconds: nil, value: value),
                   clockStart: 0, clockEnd: 0, share: value, split: false, isDayTotal: true, column: column, lastModifiedMs: nil))
    }

    // MARK: - Before Health Connect's own total (the rest is `PassingSink`'s)

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        if metrics.contains(metric) { note(sample, of: metric, sourceUTF8, lastModified: lastModifiedMs) }
        next.prioritySink?.add(sample, of: metric, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    // MARK: - The day's samples

    /// Keeps `sample` if its day rule places any of it on the day: split at midnight (summed
    /// metrics), on the day it starts (measured ones, workouts), or touching the day or the
    /// evening before (sleep, whose periods count on the day they end).
    private func note(_ sample: HealthSample, of metric: Metric, _ sourceUTF8: UnsafeRawBufferPointer, lastModified: Int64?) {
        func entry(share: Double, split: Bool, start: Int64, end: Int64) -> Entry {
            Entry(metric: metric, source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample,
                  clockStart: start, clockEnd: end, share: share, split: split, isDayTotal: false, column: nil,
                  lastModifiedMs: lastModified)
        }
        // A sample beyond the bounds is kept as it came (the day rule refuses it): on its start's day.
        guard SampleLimits.isSafe(sample) else {
            if placement.day(of: sample.startMs, offsetSeconds: sample.offsetSeconds) == date.daysSinceEpoch {
                keep(entry(share: 0, split: false, start: sample.startMs, end: sample.endMs))
            }
            return
        }
        let (start, end) = placement.clockSpan(of: sample)
        let wallStart = placement.wallTime(ofClockTime: start), wallEnd = placement.wallTime(ofClockTime: end)
        let first = placement.day(containing: start)
        switch metric.kind {
        case .sampled, .workouts:
            if first.day == date.daysSinceEpoch { keep(entry(share: sample.value, split: false, start: wallStart, end: wallEnd)) }
            return
        case .sleep:
            // A period ending on the day may have begun the evening before: that evening's intervals too.
            let last = placement.day(containing: max(start, end - 1))
            if first.day <= date.daysSinceEpoch && date.daysSinceEpoch - 1 <= last.day {
                keep(entry(share: Double(end - start) / 60_000, split: false, start: wallStart, end: wallEnd))
            }
            return
        case .cumulative:
            break
        }
        if end <= first.end {
            guard first.day == date.daysSinceEpoch else { return }
            keep(entry(share: sample.value, split: false, start: wallStart, end: wallEnd))
            return
        }
        let length = Double(end - start)
        var share: Double?
        placement.forEachDay(from: start, to: end, startingIn: first) { day, from, to in
            if day == date.daysSinceEpoch { share = sample.value * Double(to - from) / length }
        }
        guard let share else { return }
        keep(entry(share: share, split: true, start: wallStart, end: wallEnd))
    }

    /// The day each of one source's sleep intervals counts on (`SleepDayAggregator.periodDays`),
    /// placed by this recorder's zone rule.
    public func sleepPeriodDays(of samples: [HealthSample]) -> [Int32?] {
        SleepDayAggregator.periodDays(of: samples, placement: placement)
    }

    private func keep(_ entry: Entry) {
        if entries.count < limit { entries.append(entry) } else { notKept += 1 }
    }
}
