/// What the aggregation saw, for the report on stderr.
public struct AggregationStats: Equatable, Sendable {
    /// Samples handed in, duplicates included.
    public var samples = 0
    /// Samples dropped because an identical one (source, start, end, value) came before.
    public var duplicates = 0
    /// Samples split across two or more local days.
    public var crossingMidnight = 0
    /// Samples whose start equals their end, counted whole on their day.
    public var zeroLength = 0
    /// Samples that carried no UTC offset and were taken as UTC (only under the recorded-offset rule).
    public var withoutOffset = 0
    /// Wall-clock samples read as the local time of the `--tz` zone.
    public var wallClockInZone = 0
    /// Totals given per day by the export itself.
    public var dayTotals = 0
    /// Samples and day totals left out because they broke `SampleLimits` (a count beyond a
    /// million steps, a span beyond 31 days, a time outside years 0000-9999): readers check
    /// first, so this stays 0 unless a library caller hands in such a sample.
    public var refused = 0
    /// Samples (not day totals) placed on days: the first copy of each, within the bounds.
    /// Derived, so that the aggregation counts nothing more per sample.
    public var placedSamples: Int { samples - refused - duplicates - dayTotals }
    /// The distinct UTC offsets (seconds) that samples carried, sorted.
    public var offsets: [Int32] = []
    /// Every source that was handed a record, with how many (duplicates included), in the order
    /// first seen.
    public var sources: [SourceRecordCount] = []

    public init() {}
}

/// One source and the records it was handed in (samples or day totals, duplicates included).
public struct SourceRecordCount: Equatable, Sendable {
    public let source: String
    public let records: Int

    public init(source: String, records: Int) {
        self.source = source
        self.records = records
    }
}
