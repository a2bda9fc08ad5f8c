/// One sample (or day total) between `DayAggregator` and its `DuplicateFilter`: its identity
/// (source, start, end, value) and what is needed to bucket it later.
///
/// Its own file, with the keys made from it (`PackedSampleKey`, `WideSampleKey`), so that the
/// aggregator depends on the filter and both on these, never the filter on the aggregator.
struct SampleRecord {
    /// Start in ms since 1970, or the day number for a day total.
    var startMs: Int64
    /// End in ms since 1970, or `Int64.min` for a day total.
    var endMs: Int64
    var value: Double
    var source: Int32
    /// Offset in seconds east of UTC; meaningful only when `hasOffset`.
    var offset: Int32
    var flags: UInt32

    static let hasOffset: UInt32 = 1
    static let wallClock: UInt32 = 2
    static let dayTotal: UInt32 = 4
    /// A record already counted before the filter began to spill: it only makes later copies duplicates.
    static let alreadyCounted: UInt32 = 8

    var isDayTotal: Bool { flags & SampleRecord.dayTotal != 0 }

    init(_ sample: HealthSample, source: Int32) {
        startMs = sample.startMs
        endMs = sample.endMs
        value = sample.value
        self.source = source
        offset = sample.offsetSeconds ?? 0
        flags = (sample.offsetSeconds != nil ? SampleRecord.hasOffset : 0) | (sample.wallClock ? SampleRecord.wallClock : 0)
    }

    init(day: LocalDate, steps: Double, source: Int32) {
        startMs = Int64(day.daysSinceEpoch)
        endMs = Int64.min
        value = steps
        self.source = source
        offset = 0
        flags = SampleRecord.dayTotal
    }

    init(startMs: Int64, endMs: Int64, value: Double, source: Int32, flags: UInt32) {
        self.startMs = startMs
        self.endMs = endMs
        self.value = value
        self.source = source
        offset = 0
        self.flags = flags
    }

    var sample: HealthSample {
        HealthSample(startMs: startMs, endMs: endMs, offsetSeconds: flags & SampleRecord.hasOffset != 0 ? offset : nil,
                   value: value, wallClock: flags & SampleRecord.wallClock != 0)
    }
}
