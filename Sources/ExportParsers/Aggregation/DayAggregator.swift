/// Turns step samples into per-day totals: collapses exact duplicates, buckets each sample
/// per local day per source (splitting those that cross midnight), and keeps the highest source.
///
/// Every input format feeds this one type, so the day rules exist once. Memory grows with
/// the number of distinct samples (for the duplicate check) and days, never with file size.
public final class DayAggregator: StepSink {
    /// The rule that decides each sample's calendar day.
    public let rule: ZoneRule
    private let calendar: ZoneCalendar?
    private var sources = SourceTable()
    private var seen = Set<PackedSampleKey>()
    private var seenWide = Set<WideSampleKey>()
    /// Unrounded sums keyed by day (high 32 bits) and source id (low 32 bits).
    private var sums: [UInt64: Double] = [:]
    private var stats = AggregationStats()
    private var offsetsSeen = Set<Int32>()
    private var lastOffset: Int32? = nil

    public init(rule: ZoneRule) {
        self.rule = rule
        if case .zone(let zone) = rule {
            calendar = ZoneCalendar(zone: zone)
        } else {
            calendar = nil
        }
    }

    public func add(_ sample: StepSample, sourceUTF8: UnsafeRawBufferPointer) {
        stats.samples += 1
        let source = sources.id(forUTF8: sourceUTF8)
        guard firstSighting(of: sample, source: source) else {
            stats.duplicates += 1
            return
        }
        noteOffset(sample.offsetSeconds)
        if sample.endMs == sample.startMs {
            stats.zeroLength += 1
        }
        if let calendar {
            if sample.wallClock {
                // A wall time with no zone is that zone's local time.
                stats.wallClockInZone += 1
                var placed = sample
                placed.startMs = calendar.instant(ofWallTime: sample.startMs)
                placed.endMs = max(placed.startMs, calendar.instant(ofWallTime: sample.endMs))
                bucketInZone(placed, source: source, calendar: calendar)
            } else {
                bucketInZone(sample, source: source, calendar: calendar)
            }
        } else {
            bucketInRecordedOffset(sample, source: source)
        }
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        stats.samples += 1
        let source = sources.id(forUTF8: sourceUTF8)
        // The same day total written twice by one source is a duplicate like any other.
        let key = WideSampleKey(source: source, startMs: Int64(date.daysSinceEpoch), endMs: Int64.min, value: steps)
        guard seenWide.insert(key).inserted else {
            stats.duplicates += 1
            return
        }
        stats.dayTotals += 1
        addToBucket(day: Int64(date.daysSinceEpoch), source: source, steps)
    }

    /// What was seen so far.
    public var statistics: AggregationStats {
        var result = stats
        result.offsets = offsetsSeen.sorted()
        return result
    }

    /// Every source's rounded total per day, in no particular order.
    public func sourceDayTotals() -> [SourceDayTotal] {
        sums.map { key, sum in
            SourceDayTotal(date: LocalDate(daysSinceEpoch: Int32(truncatingIfNeeded: key >> 32)),
                           source: sources.names[Int(UInt32(truncatingIfNeeded: key))],
                           steps: Int(sum.rounded(.toNearestOrAwayFromZero)))
        }
    }

    /// The day totals (highest single source per day, zero days dropped), optionally limited to a range of days.
    public func dayTotals(in range: ClosedRange<LocalDate>? = nil) -> [DayTotal] {
        var entries = sourceDayTotals()
        if let range {
            entries.removeAll { !range.contains($0.date) }
        }
        return highestSourcePerDay(entries)
    }

    // MARK: - Duplicates

    private func firstSighting(of sample: StepSample, source: Int32) -> Bool {
        if let packed = PackedSampleKey(sample, source: source) {
            return seen.insert(packed).inserted
        }
        return seenWide.insert(WideSampleKey(sample, source: source)).inserted
    }

    // MARK: - Buckets

    private func noteOffset(_ offset: Int32?) {
        guard let offset else {
            if case .recordedOffset = rule { stats.withoutOffset += 1 }
            return
        }
        if offset != lastOffset {
            offsetsSeen.insert(offset)
            lastOffset = offset
        }
    }

    @inline(__always)
    private func addToBucket(day: Int64, source: Int32, _ steps: Double) {
        let key = UInt64(UInt32(truncatingIfNeeded: day)) << 32 | UInt64(UInt32(bitPattern: source))
        sums[key, default: 0] += steps
    }

    /// Places the sample on the local clock of its own offset; days are fixed 24-hour spans there.
    private func bucketInRecordedOffset(_ sample: StepSample, source: Int32) {
        let shift = Int64(sample.offsetSeconds ?? 0) * 1000
        let start = sample.startMs + shift
        let end = sample.endMs + shift
        let firstDay = floorDiv(start, 86_400_000)
        let dayEnd = (firstDay + 1) * 86_400_000
        if end <= dayEnd {
            addToBucket(day: firstDay, source: source, sample.value)
            return
        }
        stats.crossingMidnight += 1
        let length = Double(end - start)
        var pieceStart = start
        var day = firstDay
        while pieceStart < end {
            let pieceEnd = min(end, (day + 1) * 86_400_000)
            addToBucket(day: day, source: source, sample.value * Double(pieceEnd - pieceStart) / length)
            pieceStart = pieceEnd
            day += 1
        }
    }

    /// Places the sample in the chosen IANA zone; days are split at that zone's real midnights,
    /// so a 23- or 25-hour DST day gets its true share.
    private func bucketInZone(_ sample: StepSample, source: Int32, calendar: ZoneCalendar) {
        let first = calendar.day(containing: sample.startMs)
        if sample.endMs <= first.endMs {
            addToBucket(day: Int64(first.day), source: source, sample.value)
            return
        }
        stats.crossingMidnight += 1
        let length = Double(sample.endMs - sample.startMs)
        var piece = first
        var pieceStart = sample.startMs
        while pieceStart < sample.endMs {
            let pieceEnd = min(sample.endMs, piece.endMs)
            addToBucket(day: Int64(piece.day), source: source, sample.value * Double(pieceEnd - pieceStart) / length)
            pieceStart = pieceEnd
            if pieceStart < sample.endMs {
                piece = calendar.day(containing: pieceStart)
            }
        }
    }
}

/// A sample's identity (source, start, end, value) in 16 bytes, for the common case.
///
/// The duplicate set holds one key per distinct sample, so its size is what bounds memory on
/// a large export; most samples fit here (whole counts, spans under 49 days, dates after 1970).
struct PackedSampleKey: Hashable {
    let sourceAndStart: UInt64
    let lengthAndValue: UInt64

    init?(_ sample: StepSample, source: Int32) {
        let length = sample.endMs - sample.startMs
        guard source >= 0, source < 1 << 16,
              sample.startMs >= 0, sample.startMs < 1 << 48,
              length >= 0, length < 1 << 32,
              sample.value >= 0, sample.value < 4_294_967_296, sample.value == sample.value.rounded(.towardZero)
        else { return nil }
        sourceAndStart = UInt64(source) << 48 | UInt64(sample.startMs)
        lengthAndValue = UInt64(length) << 32 | UInt64(sample.value)
    }
}

/// A sample's full identity, for samples that do not fit `PackedSampleKey`.
struct WideSampleKey: Hashable {
    let source: Int32
    let startMs: Int64
    let endMs: Int64
    let valueBits: UInt64

    init(_ sample: StepSample, source: Int32) {
        self.init(source: source, startMs: sample.startMs, endMs: sample.endMs, value: sample.value)
    }

    init(source: Int32, startMs: Int64, endMs: Int64, value: Double) {
        self.source = source
        self.startMs = startMs
        self.endMs = endMs
        // +0.0 and -0.0 are the same count.
        valueBits = value == 0 ? 0 : value.bitPattern
    }
}
