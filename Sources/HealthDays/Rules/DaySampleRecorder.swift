/// Keeps the step samples and day totals that fall on one local day, as the reader handed them
/// over (before any filter), and passes everything on (`--explain DATE`). Memory holds that
/// day's samples only, whatever the size of the export.
///
/// Sits first after the reader; before a `PriorityRecordSink` it is one too.
public final class DaySampleRecorder: PassingSink {
    /// One sample (or day total) that counts toward the day, with the part of it that falls there.
    public struct Entry: Sendable {
        public let source: String
        public let sample: HealthSample
        /// Its start and end on the wall clock that placed it (its own offset's, or the `--tz`
        /// zone's), as milliseconds since 1970 on that clock.
        public let clockStart: Int64
        public let clockEnd: Int64
        /// The part of its value on the day: all of it, or its share when split at midnight.
        public let share: Double
        /// Whether it was split at midnight.
        public let split: Bool
        /// A total an export gave for the day, not a sample.
        public let isDayTotal: Bool
        /// When its record was last modified (`--rule hc-priority`), if the input says.
        public let lastModifiedMs: Int64?
    }

    public let date: LocalDate
    let next: RecordSink
    private let placement: DayPlacement
    /// The samples of the day, in the order they came.
    public private(set) var entries: [Entry] = []
    /// Samples of the day beyond `limit`, counted, not kept.
    public private(set) var notKept = 0
    private let limit: Int

    /// `limit`: the most samples kept (a day of a real export holds a few thousand).
    public init(date: LocalDate, zone: ZoneRule, next: RecordSink, limit: Int = 200_000) {
        self.date = date
        self.next = next
        self.limit = limit
        placement = DayPlacement(rule: zone)
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        note(sample, sourceUTF8, lastModified: nil)
        next.add(sample, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        if metric == .steps { note(sample, sourceUTF8, lastModified: nil) }
        next.add(sample, of: metric, sourceUTF8: sourceUTF8)
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if date == self.date { keep(Entry(source: String(decoding: sourceUTF8, as: UTF8.self),
                                          sample: HealthSample(startMs: 0, endMs: 0, offsetSeconds: nil, value: steps),
                                          clockStart: 0, clockEnd: 0, share: steps, split: false, isDayTotal: true,
                                          lastModifiedMs: nil)) }
        next.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if column == .steps, date == self.date {
            keep(Entry(source: String(decoding: sourceUTF8, as: UTF8.self),
                       sample: HealthSample(startMs: 0, endMs: 0, offsetSeconds: nil, value: value),
                       clockStart: 0, clockEnd: 0, share: value, split: false, isDayTotal: true, lastModifiedMs: nil))
        }
        next.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
    }

    // MARK: - Before Health Connect's own total (the rest is `PassingSink`'s)

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        if metric == .steps { note(sample, sourceUTF8, lastModified: lastModifiedMs) }
        next.prioritySink?.add(sample, of: metric, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    // MARK: - The day's samples

    private func note(_ sample: HealthSample, _ sourceUTF8: UnsafeRawBufferPointer, lastModified: Int64?) {
        // A sample beyond the bounds is kept as it came (the day rule refuses it): on its start's day.
        guard SampleLimits.isSafe(sample) else {
            if placement.day(of: sample.startMs, offsetSeconds: sample.offsetSeconds) == date.daysSinceEpoch {
                keep(Entry(source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample, clockStart: sample.startMs,
                           clockEnd: sample.endMs, share: 0, split: false, isDayTotal: false, lastModifiedMs: lastModified))
            }
            return
        }
        let (start, end) = placement.clockSpan(of: sample)
        let first = placement.day(containing: start)
        if end <= first.end {
            guard first.day == date.daysSinceEpoch else { return }
            keep(Entry(source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample,
                       clockStart: placement.wallTime(ofClockTime: start), clockEnd: placement.wallTime(ofClockTime: end),
                       share: sample.value, split: false, isDayTotal: false, lastModifiedMs: lastModified))
            return
        }
        let length = Double(end - start)
        var share: Double?
        placement.forEachDay(from: start, to: end, startingIn: first) { day, from, to in
            if day == date.daysSinceEpoch { share = sample.value * Double(to - from) / length }
        }
        guard let share else { return }
        keep(Entry(source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample,
                   clockStart: placement.wallTime(ofClockTime: start), clockEnd: placement.wallTime(ofClockTime: end),
                   share: share, split: true, isDayTotal: false, lastModifiedMs: lastModified))
    }

    private func keep(_ entry: Entry) {
        if entries.count < limit { entries.append(entry) } else { notKept += 1 }
    }
}
