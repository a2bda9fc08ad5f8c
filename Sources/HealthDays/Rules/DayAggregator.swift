/// Turns step samples into per-day totals: collapses exact duplicates, buckets each sample
/// per local day per source (splitting those that cross midnight), and keeps the highest source.
///
/// Every input format feeds this one type, so the day rules exist once. Memory grows with the
/// number of days, never with the input: past a limit, the duplicate check spills to temporary
/// files, and `finish()` must then be called before the totals are read.
public final class DayAggregator: RecordSink {
    /// The rule that decides each sample's calendar day.
    public let rule: ZoneRule
    private let placement: DayPlacement
    /// The sources by id; its `uses` are the records handed in per source (duplicates included,
    /// refused samples not), counted as the id is found.
    ///
    /// This and the three below are touched for every sample: unchecked, like `offsets`, as one
    /// thread owns the aggregator and no method reaches one of them while another holds it.
    @exclusivity(unchecked) private var sources = SourceTable()
    private let duplicates: DuplicateFilter
    private var finished = true
    /// Unrounded sums per source and day.
    @exclusivity(unchecked) private var sums = DaySums()
    @exclusivity(unchecked) private var stats = AggregationStats()
    /// Touched for every sample: unchecked, as one thread owns the aggregator, so that reading it
    /// costs no dynamic exclusivity check (1.8% of the instructions of reading a database).
    @exclusivity(unchecked) private var offsets = OffsetsSeen()

    /// Distinct samples kept in memory before the duplicate check spills to disk: just under what
    /// a hash set of 2^19 slots (8 MB) holds, so that it never grows to the next size.
    public static let defaultInMemoryLimit = 380_000

    /// Sums of a metric other than steps are rounded by `MetricColumn.rounded` (to a millionth
    /// first); steps keep the plain rounding of their sum
    /// (`rounded`).
    var roundsAsMetric = false

    public convenience init(rule: ZoneRule, inMemoryLimit: Int = DayAggregator.defaultInMemoryLimit) {
        self.init(rule: rule, duplicates: DuplicateFilter(inMemoryLimit: inMemoryLimit))
    }

    /// An aggregator of one cumulative metric among several, whose duplicate checks share `budget`.
    convenience init(rule: ZoneRule, sharing budget: DuplicateBudget) {
        self.init(rule: rule, duplicates: DuplicateFilter(sharing: budget))
    }

    private init(rule: ZoneRule, duplicates: DuplicateFilter) {
        self.rule = rule
        self.duplicates = duplicates
        placement = DayPlacement(rule: rule)
    }

    /// Adds one sample; one that `SampleLimits.isSafe` refuses (which no reader hands over) is
    /// counted in `statistics.refused` and left out, so that no input can trap or run away here.
    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        stats.samples += 1
        guard SampleLimits.isSafe(sample) else {
            stats.refused += 1
            return
        }
        consider(SampleRecord(sample, source: sources.id(forUTF8: sourceUTF8)))
    }

    /// Adds one day total; a count beyond ±`SampleLimits.maximumSteps` (or NaN) is refused like a sample.
    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        stats.samples += 1
        guard steps.magnitude <= SampleLimits.maximumSteps else {
            stats.refused += 1
            return
        }
        // The same day total written twice by one source is a duplicate like any other.
        consider(SampleRecord(day: date, steps: steps, source: sources.id(forUTF8: sourceUTF8)))
    }

    /// Records wait here in batches of `batchSize` before their duplicate check, so that the
    /// filter can have their table slots fetched together (`DuplicateFilter.touch`). Every method
    /// that reads the results settles the batch first. The records are checked in the order they
    /// came, so the results are those of checking each at once.
    private let pending = UnsafeMutablePointer<SampleRecord>.allocate(capacity: DayAggregator.batchSize)
    @exclusivity(unchecked) private var pendingCount = 0
    /// Sixteen: about as many cache misses as a core keeps in flight.
    static let batchSize = 16

    deinit {
        pending.deallocate()
    }

    @inline(__always)
    private func consider(_ record: SampleRecord) {
        (pending + pendingCount).initialize(to: record)
        pendingCount += 1
        if pendingCount == DayAggregator.batchSize { settle() }
    }

    /// Checks and buckets the records waiting, in order.
    func settle() {
        let batch = UnsafeBufferPointer(start: pending, count: pendingCount)
        pendingCount = 0
        duplicates.touch(batch)
        for record in batch {
            switch duplicates.check(record) {
            case .new: bucket(record)
            case .duplicate: stats.duplicates += 1
            case .deferred: finished = false
            }
        }
    }

    /// Ends the input. Needed (and only then doing any work) when the duplicate check spilled to
    /// disk; it fails when the temporary files could not be written or read.
    public func finish() throws(ExportError) {
        settle()
        guard !finished else { return }
        stats.duplicates += try duplicates.drain { bucket($0) }
        finished = true
    }

    /// Places one first-seen record in its day buckets.
    private func bucket(_ record: SampleRecord) {
        if record.isDayTotal {
            stats.dayTotals += 1
            addToBucket(day: Int32(truncatingIfNeeded: record.startMs), source: record.source, record.value)
            return
        }
        let sample = record.sample
        noteOffset(sample.offsetSeconds, wallClock: sample.wallClock)
        if sample.endMs == sample.startMs {
            stats.zeroLength += 1
        }
        if sample.wallClock && placement.readsWallClocksInZone {
            // A wall time with no zone is that zone's local time.
            stats.wallClockInZone += 1
        }
        let (start, end) = placement.clockSpan(of: sample)
        let first = placement.day(containing: start)
        if end <= first.end {
            addToBucket(day: first.day, source: record.source, sample.value)
            return
        }
        stats.crossingMidnight += 1
        let length = Double(end - start)
        placement.forEachDay(from: start, to: end, startingIn: first) { day, from, to in
            addToBucket(day: day, source: record.source, sample.value * Double(to - from) / length)
        }
    }

    /// What was seen so far.
    public var statistics: AggregationStats {
        settle()
        precondition(finished, "DayAggregator.finish() must be called before the statistics are read")
        var result = stats
        result.offsets = offsets.sorted
        result.sources = zip(sources.names, sources.uses).map { SourceRecordCount(source: $0, records: $1) }
        return result
    }

    /// Every source's rounded total per day, in no particular order.
    public func sourceDayTotals() -> [SourceDayTotal] {
        settle()
        precondition(finished, "DayAggregator.finish() must be called before the totals are read")
        var totals: [SourceDayTotal] = []
        totals.reserveCapacity(sums.count)
        sums.forEach { day, source, sum in
            totals.append(SourceDayTotal(date: LocalDate(daysSinceEpoch: day), source: sources.names[Int(source)],
                                         steps: whole(sum)))
        }
        return totals
    }

    /// The day totals (highest single source per day, zero days dropped), optionally limited to a range of days.
    ///
    /// The same as `highestSourcePerDay(sourceDayTotals())` cut to `range`, grouped straight from
    /// the sums: 16 bytes per source and day in one sorted array, instead of an entry with a name
    /// and a dictionary of arrays by day (an export spanning many days peaked higher than its parse).
    /// Each day's sources then go through the one rule, `DayTotal(highestSourceOn:among:)`.
    public func dayTotals(in range: ClosedRange<LocalDate>? = nil) -> [DayTotal] {
        settle()
        precondition(finished, "DayAggregator.finish() must be called before the totals are read")
        var kept: [(day: Int32, source: Int32, steps: Int)] = []
        sums.forEach { day, source, sum in
            guard range?.contains(LocalDate(daysSinceEpoch: day)) ?? true else { return }
            kept.append((day, source, whole(sum)))
        }
        kept.sort { $0.day < $1.day }
        var days: [DayTotal] = []
        var start = 0
        while start < kept.count {
            var end = start + 1
            while end < kept.count && kept[end].day == kept[start].day { end += 1 }
            let totals = kept[start..<end].map { SourceTotal(source: sources.names[Int($0.source)], steps: $0.steps) }
            if let day = DayTotal(highestSourceOn: LocalDate(daysSinceEpoch: kept[start].day), among: totals) {
                days.append(day)
            }
            start = end
        }
        return days
    }

    private func whole(_ sum: Double) -> Int {
        Self.rounded(roundsAsMetric ? MetricColumn.steps.rounded(sum) : sum)
    }

    /// A source's day total in whole steps: rounded once, at the end, half away from zero.
    ///
    /// Checked, never trapping: bounded samples keep every sum far inside `Int`, but a sum that
    /// is not (infinite, or past `Int`'s range) saturates, and NaN counts as nothing.
    static func rounded(_ sum: Double) -> Int {
        let whole = sum.rounded(.toNearestOrAwayFromZero)
        if let exact = Int(exactly: whole) { return exact }
        if whole.isNaN { return 0 }
        return whole > 0 ? Int.max : Int.min
    }

    // MARK: - Buckets

    /// A wall clock (no zone, dated as written) is not a sample taken as UTC.
    private func noteOffset(_ offset: Int32?, wallClock: Bool) {
        guard let offset else {
            if case .recordedOffset = rule, !wallClock { stats.withoutOffset += 1 }
            return
        }
        if offsets.changes(to: offset) { offsets.note(offset) }
    }

    @inline(__always)
    private func addToBucket(day: Int32, source: Int32, _ steps: Double) {
        sums.add(steps, day: day, source: source)
    }
}
