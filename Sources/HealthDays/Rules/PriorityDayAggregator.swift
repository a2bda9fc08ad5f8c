/// Health Connect's own day total of one summed metric (`--rule hc-priority`): in every slice of
/// time only the record of the highest-priority app that covers it counts, pro rata; apps absent
/// from the priority list count nothing; a day's sum of steps is cut to whole steps (distance,
/// energy and floors stay as they are). docs/rules.md gives the algorithm and the AOSP files it
/// follows; `PriorityMetricAggregator` holds one of these per metric.
///
/// The records compete on the clock that places their days (docs/rules.md, rule 5): each on the
/// local clock of its own offset, or, under `--tz`, in instants split at that zone's midnights.
/// Records that come in start order (a database) are totalled in self-contained runs and
/// forgotten; others are held (`SampleLimits.maximumHeldPriorityRecords` at most) until `finish()`.
public final class PriorityDayAggregator: PriorityRecordSink {
    public let rule: ZoneRule
    /// The metric it totals; samples of any other are left out.
    public let metric: Metric
    private let placement: DayPlacement
    /// The list given by the caller (`--priority`), sources highest first; it wins over a stored one.
    public let givenPriority: [String]?
    /// The list the export holds, sources highest first; nil when it holds none.
    public private(set) var storedPriority: [String]?

    private var sources = SourceTable()
    /// Each source id's rank: the list's length minus its index (higher wins), 0 when absent.
    private var ranks: [Int32] = []
    private var held: [PriorityRecord] = []
    private var startOrdered = false
    /// The held count at which start-ordered records are next totalled.
    private var nextRunAt = PriorityDayAggregator.firstRun
    private var heldTooMany = false
    /// Records in no known order held before a sorted run of them goes to `runs`.
    private let inMemoryLimit: Int
    /// Records overlapping one another held at most while totalling in start order.
    private let overlapLimit: Int
    /// The sorted runs written so far, when a dump in no known order outgrew `inMemoryLimit`.
    private var runs: PriorityRunFile?
    private var runError: ExportError?
    /// Sorted runs written to the temporary file so far (a dump beyond `inMemoryLimit` records).
    public private(set) var writtenRuns = 0
    /// Whether the reader could have found a stored list (a database), for the error without one.
    private var inputHasPlaceForPriority = false
    /// Each day's sum, added slice by slice in time order as Health Connect adds them.
    private var daySums: [Int32: Double] = [:]
    /// What each source's slices gave each day, keyed by day (high 32 bits) and source id.
    private var sourceSums: [UInt64: Double] = [:]
    /// Records per source id left out because the source is absent from the list.
    private var unlisted: [Int] = []
    private var stats = AggregationStats()
    private var offsets = OffsetsSeen()

    private static let firstRun = 4_096
    /// How far a record's local start can lie before its instant: the widest offset.
    private static let offsetReachMs = Int64(SampleLimits.maximumOffsetSeconds) * 1000

    /// `inMemoryLimit`: records of a dump in no known order held before they are sorted and
    /// written to a temporary file (tests make it small).
    /// `overlapLimit`: records overlapping one another held at most (tests make it small too).
    public init(rule: ZoneRule, priority: [String]? = nil, metric: Metric = .steps,
                inMemoryLimit: Int = SampleLimits.priorityRecordsInMemory,
                overlapLimit: Int = SampleLimits.maximumHeldPriorityRecords) {
        self.rule = rule
        self.metric = metric
        self.inMemoryLimit = max(1, inMemoryLimit)
        self.overlapLimit = max(1, overlapLimit)
        givenPriority = priority
        placement = DayPlacement(rule: rule)
    }

    /// The list the totals follow: the given one, else the stored one; nil when there is neither.
    public var priority: [String]? { givenPriority ?? storedPriority }

    // MARK: - Input

    public var prioritySink: PriorityRecordSink? { self }

    public func storedPriority(_ packageNames: [String]?) {
        storedPriority = packageNames
        inputHasPlaceForPriority = true
    }

    public func recordsComeInStartOrder() {
        startOrdered = true
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        add(sample, of: .steps, lastModifiedMs: nil, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        add(sample, of: metric, lastModifiedMs: nil, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        add(sample, of: .steps, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        guard metric == self.metric else { return }
        stats.samples += 1
        guard SampleLimits.isSafe(sample) else {
            stats.refused += 1
            return
        }
        let source = sources.id(forUTF8: sourceUTF8)
        let rank = self.rank(of: source)
        guard rank > 0 else {
            unlisted[Int(source)] += 1
            return
        }
        if let offset = sample.offsetSeconds {
            if offsets.changes(to: offset) { offsets.note(offset) }
        } else if case .recordedOffset = rule, !sample.wallClock {
            stats.withoutOffset += 1
        }
        if sample.endMs == sample.startMs { stats.zeroLength += 1 }
        let (start, end) = clockTimes(of: sample)
        if startOrdered && held.count >= overlapLimit {
            // Full: total what no later record can reach; what is left overlaps too much to hold.
            totalFinishedRuns(before: sample.startMs - Self.offsetReachMs)
            guard held.count < overlapLimit else {
                heldTooMany = true
                return
            }
        }
        held.append(PriorityRecord(start: start, end: end, value: sample.value, lastModified: lastModifiedMs ?? .min,
                                   rank: rank, source: source))
        if startOrdered {
            if held.count >= nextRunAt {
                totalFinishedRuns(before: sample.startMs - Self.offsetReachMs)
                nextRunAt = max(Self.firstRun, held.count * 2)
            }
        } else if held.count >= inMemoryLimit {
            writeRun()
        }
    }

    /// Sorts what is held by start and writes it as one run to the temporary file.
    private func writeRun() {
        guard !held.isEmpty else { return }
        held.sort { $0.start < $1.start }
        if runError == nil {
            do throws(ExportError) {
                if runs == nil { runs = try PriorityRunFile() }
                try runs?.append(held)
                writtenRuns += 1
            } catch {
                runError = error
            }
        }
        held.removeAll(keepingCapacity: true)
    }

    /// Totals the written runs and what is held, merged in start order: each record joins the
    /// held ones as a database's rows do, and runs that no later record can reach are totalled.
    private func totalRuns(_ runs: PriorityRunFile) throws(ExportError) {
        held = []
        nextRunAt = Self.firstRun
        try runs.merge { record in
            if held.count >= overlapLimit {
                totalFinishedRuns(before: record.start)
                guard held.count < overlapLimit else {
                    heldTooMany = true
                    return
                }
            }
            held.append(record)
            if held.count >= nextRunAt {
                // In start order on the records' own clock: nothing later starts before this one.
                totalFinishedRuns(before: record.start)
                nextRunAt = max(Self.firstRun, held.count * 2)
            }
        }
    }

    /// A day total has no times to compete on: it is left out and counted.
    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        addDayValue(date, of: .steps, value: steps, sourceUTF8: sourceUTF8)
    }

    /// A value given whole for a day, like a day total, is left out and counted (its metric's only).
    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        guard column.metric == metric else { return }
        stats.samples += 1
        stats.dayTotals += 1
    }

    /// Totals what is still held. Fails when there is no priority list (none given, none stored),
    /// or when more records overlapped one another than `overlapLimit`.
    public func finish() throws(ExportError) {
        guard priority != nil else { throw .noPriorityList(inputHasPlace: inputHasPlaceForPriority) }
        if runs != nil {
            // The rest as the last run, then every run merged.
            writeRun()
            if let runError { throw runError }
            guard let runs else { return }
            self.runs = nil
            try totalRuns(runs)
        }
        total(held[...])
        held = []
        if heldTooMany {
            throw .priorityRecordsBeyondLimit(limit: overlapLimit)
        }
    }

    /// The start and end on the clock that places days (`DayPlacement`).
    @inline(__always)
    private func clockTimes(of sample: HealthSample) -> (Int64, Int64) {
        if sample.wallClock && placement.readsWallClocksInZone { stats.wallClockInZone += 1 }
        return placement.clockSpan(of: sample)
    }

    private func rank(of source: Int32) -> Int32 {
        while ranks.count <= Int(source) {
            let name = sources.names[ranks.count]
            let index = priority?.firstIndex(of: name)
            ranks.append(index.map { Int32(truncatingIfNeeded: priority!.count - $0) } ?? 0)
            unlisted.append(0)
        }
        return ranks[Int(source)]
    }

    // MARK: - Results

    /// The day totals, each the day's sum cut to whole steps; zero days dropped; optionally
    /// limited to a range. `source` is the app whose slices gave the most, `sources` what each
    /// app gave (rounded), most first; they need not add up to the day's total.
    public func dayTotals(in range: ClosedRange<LocalDate>? = nil) -> [DayTotal] {
        var bySource: [Int32: [SourceTotal]] = [:]
        for share in sourceShares() {
            bySource[share.date.daysSinceEpoch, default: []].append(SourceTotal(source: share.source, steps: DayAggregator.rounded(share.sum)))
        }
        var days: [DayTotal] = []
        for (day, sum) in daySums {
            let date = LocalDate(daysSinceEpoch: day)
            guard range?.contains(date) ?? true else { continue }
            let steps = Self.truncated(sum)
            guard steps > 0 else { continue }
            let shares = (bySource[day] ?? []).filter { $0.steps != 0 }.sorted { lhs, rhs in
                lhs.steps != rhs.steps ? lhs.steps > rhs.steps : lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
            }
            days.append(DayTotal(date: date, steps: steps, source: shares.first?.source ?? "", sources: shares))
        }
        return days.sorted { $0.date < $1.date }
    }

    /// Each day's sum as added, before any cutting or rounding, in date order; optionally limited
    /// to a range. Days with no slice are absent.
    public func unroundedDays(in range: ClosedRange<LocalDate>? = nil) -> [(date: LocalDate, sum: Double)] {
        daySums.lazy.map { (date: LocalDate(daysSinceEpoch: $0.key), sum: $0.value) }
            .filter { range?.contains($0.date) ?? true }
            .sorted { $0.date < $1.date }
    }

    /// What each source's slices gave each day, as added (unordered).
    public func sourceShares() -> [(date: LocalDate, source: String, sum: Double)] {
        sourceSums.map { key, sum in
            (date: LocalDate(daysSinceEpoch: Int32(truncatingIfNeeded: key >> 32)),
             source: sources.names[Int(UInt32(truncatingIfNeeded: key))], sum: sum)
        }
    }

    /// Sources that had records and are absent from the list, with how many records each: they counted nothing.
    public var unlistedSources: [SourceRecordCount] {
        zip(sources.names, unlisted).compactMap { $1 > 0 ? SourceRecordCount(source: $0, records: $1) : nil }
    }

    /// What was seen, as `DayAggregator` reports it (no duplicates: the sweep counts a record once
    /// whatever its copies; `crossingMidnight` is not counted).
    public var statistics: AggregationStats {
        var result = stats
        result.offsets = offsets.sorted
        result.sources = zip(sources.names, sources.uses).map { SourceRecordCount(source: $0, records: $1) }
        return result
    }

    /// A day's sum in whole steps as Health Connect returns it (`Double.longValue()`): cut toward
    /// zero, saturating, NaN as nothing.
    static func truncated(_ sum: Double) -> Int {
        if sum.isNaN { return 0 }
        if let whole = Int(exactly: sum.rounded(.towardZero)) { return whole }
        return sum > 0 ? Int.max : Int.min
    }

    // MARK: - The sweep

    /// Totals the held records that no later record can overlap: those (sorted by start) before the
    /// first gap at which every earlier one has ended, before `horizon` on the records' clock.
    private func totalFinishedRuns(before horizon: Int64) {
        held.sort { $0.start < $1.start }
        var latestEnd = Int64.min
        var cut = 0
        for index in held.indices {
            // Strictly after: a record ending at a zero-length record's instant still competes with it.
            if index > 0 && held[index].start > latestEnd && latestEnd < horizon { cut = index }
            guard held[index].start < horizon else { break }
            latestEnd = max(latestEnd, held[index].end)
        }
        guard cut > 0 else { return }
        total(held[..<cut])
        held.removeFirst(cut)
    }

    /// One sweep over `records`: every slice between consecutive start and end points goes to
    /// the highest-ranked open record (rank, then later `lastModified`, later start, later end,
    /// larger value: Health Connect's order), pro rata. Exact copies count once without being
    /// looked for: one record wins each slice, and a zero-length one only its first start-end pair
    /// (Health Connect's ordered sets drop them instead; the totals are the same).
    private func total(_ records: ArraySlice<PriorityRecord>) {
        guard !records.isEmpty else { return }
        var ordered = Array(records)
        ordered.sort(by: PriorityRecord.ranksBelow)
        // Points: time, then starts before ends, then the record's place in the order.
        var points: [SweepPoint] = []
        points.reserveCapacity(ordered.count * 2)
        for (index, record) in ordered.enumerated() {
            points.append(SweepPoint(time: record.start, isEnd: false, record: Int32(index)))
            points.append(SweepPoint(time: record.end, isEnd: true, record: Int32(index)))
        }
        points.sort { lhs, rhs in
            if lhs.time != rhs.time { return lhs.time < rhs.time }
            if lhs.isEnd != rhs.isEnd { return !lhs.isEnd }
            return lhs.record < rhs.record
        }
        var open = OpenRecords(count: ordered.count)
        for index in points.indices {
            let point = points[index]
            if point.isEnd { open.close(point.record) } else { open.open(point.record) }
            guard index + 1 < points.count, let top = open.highest() else { continue }
            let next = points[index + 1]
            let winner = ordered[Int(top)]
            if winner.start == winner.end {
                // A zero-length record counts whole once, between its start point and an end point.
                if !point.isEnd && next.isEnd { place(winner.value, at: winner.start, source: winner.source) }
                continue
            }
            let from = max(winner.start, point.time)
            let to = min(winner.end, next.time)
            guard to > from else { continue }
            spread(winner, from: from, to: to)
        }
    }

    /// Adds the share of `record` over [from, to) to the days it covers, split at midnight.
    @inline(__always)
    private func spread(_ record: PriorityRecord, from: Int64, to: Int64) {
        let length = Double(record.end - record.start)
        placement.forEachDay(from: from, to: to, startingIn: placement.day(containing: from)) { day, pieceStart, pieceEnd in
            add(record.value * Double(pieceEnd - pieceStart) / length, day: day, source: record.source)
        }
    }

    private func place(_ value: Double, at time: Int64, source: Int32) {
        add(value, day: placement.day(containing: time).day, source: source)
    }

    private func add(_ value: Double, day: Int32, source: Int32) {
        daySums[day, default: 0] += value
        sourceSums[UInt64(UInt32(bitPattern: day)) << 32 | UInt64(UInt32(bitPattern: source)), default: 0] += value
    }
}

/// One record held for the sweep, its times on the clock that places days.
struct PriorityRecord {
    var start: Int64
    var end: Int64
    var value: Double
    /// `Int64.min` when the input does not say.
    var lastModified: Int64
    var rank: Int32
    var source: Int32

    /// Health Connect's order of records (`AggregationRecordData.compareTo`): priority, then last
    /// modified, start, end and value; the later or larger ranks higher.
    static func ranksBelow(_ lhs: PriorityRecord, _ rhs: PriorityRecord) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if lhs.lastModified != rhs.lastModified { return lhs.lastModified < rhs.lastModified }
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        if lhs.end != rhs.end { return lhs.end < rhs.end }
        return lhs.value < rhs.value
    }
}

/// A record's start or end in the sweep.
struct SweepPoint {
    var time: Int64
    var isEnd: Bool
    /// The record's index in the sweep's order: a higher index ranks higher.
    var record: Int32
}

/// The open records of a sweep: a max-heap of indices, closed ones dropped when they reach the top.
struct OpenRecords {
    private var heap: [Int32] = []
    private var closed: [Bool]

    init(count: Int) {
        closed = [Bool](repeating: false, count: count)
    }

    mutating func open(_ record: Int32) {
        heap.append(record)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent] < heap[child] else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    mutating func close(_ record: Int32) {
        closed[Int(record)] = true
    }

    /// The highest open record, nil when none is open.
    mutating func highest() -> Int32? {
        while let top = heap.first, closed[Int(top)] {
            removeTop()
        }
        return heap.first
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < heap.count && heap[left] > heap[largest] { largest = left }
            if right < heap.count && heap[right] > heap[largest] { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
