/// Day values of sleep, or of time in bed (docs/metrics.md): per source the union of its
/// intervals, cut into periods at gaps of an hour or more, each period's minutes on the local day
/// it ends; per day the source with the most minutes.
///
/// Intervals are kept per source until the end (a period is only known once every interval of the
/// night is in, and exports are not in time order). Memory stays bounded: whenever the intervals
/// held double, each source's are sorted and overlapping or touching ones merged (a watch's stages
/// touch end to end, so a night becomes one interval), and once `maximumIntervals` distinct
/// intervals are held even after merging, further ones are refused and counted rather than held.
///
/// A day's minutes that an export gives whole (`addDayMinutes`: Google Fit's daily summary) stand
/// for their source's day when none of its own periods ends that day.
final class SleepDayAggregator {
    let metric: Metric
    private let placement: DayPlacement
    private var sources = SourceTable()
    /// By source id.
    private var intervals: [[Interval]] = []
    private var held = 0
    private var compactAt = SleepDayAggregator.firstCompaction
    /// Set when a compaction left `maximumIntervals` distinct intervals or more: every later one is refused.
    private var full = false
    private var stats = MetricStatistics()
    private var offsets = OffsetsSeen()
    /// Minutes given whole, by day (high 32 bits) and source id (low 32 bits).
    private var givenMinutes: [UInt64: Double] = [:]

    /// A gap this long or longer starts a new sleep period.
    static let periodGapMs: Int64 = 3_600_000
    /// The most intervals held (24 bytes each) once merged: a decade of nights with thirty
    /// separate stages each is about 110,000.
    static let maximumIntervals = 500_000
    private static let firstCompaction = 65_536

    /// An interval in instants, with the offset its end was written with.
    private struct Interval {
        var start: Int64
        var end: Int64
        var endOffset: Int32
        var hasOffset: Bool
    }

    init(metric: Metric, rule: ZoneRule) {
        precondition(metric.kind == .sleep, "\(metric) is not sleep")
        self.metric = metric
        placement = DayPlacement(rule: rule)
    }

    func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        stats.records += 1
        guard SampleLimits.isSafe(sample) else {
            stats.refused += 1
            return
        }
        if let offset = sample.offsetSeconds, offsets.changes(to: offset) { offsets.note(offset) }
        let source = Int(sources.id(forUTF8: sourceUTF8))
        if source == intervals.count { intervals.append([]) }
        let start = placement.instant(sample.startMs, wallClock: sample.wallClock)
        let end = max(start, placement.instant(sample.endMs, wallClock: sample.wallClock))
        // Nothing to add, and a zero-length interval cannot end a period of sleep.
        guard end > start else { return }
        // Full once merging leaves the maximum: refused, counted. Before that, intervals that
        // merge into held ones (copies, a second device, overlapping stages) take no room.
        guard !full else {
            stats.refused += 1
            return
        }
        if held >= compactAt {
            compact()
            if held >= SleepDayAggregator.maximumIntervals {
                full = true
                stats.refused += 1
                return
            }
        }
        intervals[source].append(Interval(start: start, end: end, endOffset: sample.offsetSeconds ?? 0,
                                          hasOffset: sample.offsetSeconds != nil))
        held += 1
    }

    /// A day's minutes given whole by the export; the same source's second value for a day is a duplicate.
    func addDayMinutes(_ date: LocalDate, _ minutes: Double, sourceUTF8: UnsafeRawBufferPointer) {
        stats.records += 1
        guard minutes.isFinite, minutes.magnitude <= SampleLimits.maximumSteps else {
            stats.refused += 1
            return
        }
        let source = sources.id(forUTF8: sourceUTF8)
        if Int(source) == intervals.count { intervals.append([]) }
        let key = UInt64(UInt32(bitPattern: date.daysSinceEpoch)) << 32 | UInt64(UInt32(bitPattern: source))
        if givenMinutes[key] == nil {
            givenMinutes[key] = minutes
        } else {
            stats.duplicates += 1
        }
    }

    /// Sorts and merges every source's intervals; the next compaction when they have doubled, at
    /// the maximum at most. With less than a quarter of the maximum left below it, the next one
    /// comes a quarter of the maximum later instead (up to 1.25 times the maximum held unmerged):
    /// compacting again after a few records would take time without end.
    private func compact() {
        held = 0
        for index in intervals.indices {
            intervals[index] = SleepDayAggregator.union(intervals[index])
            held += intervals[index].count
        }
        let maximum = SleepDayAggregator.maximumIntervals
        compactAt = max(SleepDayAggregator.firstCompaction, 2 * held)
        if compactAt > maximum { compactAt = max(maximum, held + maximum / 4) }
    }

    /// The union of `list` as sorted, disjoint intervals; a merged interval keeps the end offset
    /// of the interval that reached furthest.
    private static func union(_ list: [Interval]) -> [Interval] {
        let sorted = list.sorted { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
        var merged: [Interval] = []
        merged.reserveCapacity(sorted.count)
        for interval in sorted {
            if let last = merged.last, interval.start <= last.end {
                if interval.end > last.end {
                    merged[merged.count - 1].end = interval.end
                    merged[merged.count - 1].endOffset = interval.endOffset
                    merged[merged.count - 1].hasOffset = interval.hasOffset
                }
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    var statistics: MetricStatistics {
        var result = stats
        result.offsets = offsets.sorted
        result.leftOut = minutesBySourceDay().values.count { !isPlausible($0) }
        return result
    }

    /// Each source's minutes per day: its periods' lengths on the days they end.
    private func minutesBySourceDay() -> [UInt64: Double] {
        var minutes: [UInt64: Double] = [:]
        for (source, list) in intervals.enumerated() {
            let segments = SleepDayAggregator.union(list)
            for period in SleepDayAggregator.periods(segments) {
                let asleepMs = segments[period].reduce(Int64(0)) { $0 + ($1.end - $1.start) }
                let last = segments[period.upperBound - 1]
                let day = placement.day(of: last.end, offsetSeconds: last.hasOffset ? last.endOffset : nil)
                let key = UInt64(UInt32(bitPattern: day)) << 32 | UInt64(UInt32(source))
                minutes[key, default: 0] += Double(asleepMs) / 60_000
            }
        }
        for (key, given) in givenMinutes where minutes[key] == nil {
            minutes[key] = given
        }
        return minutes
    }

    /// `segments` (sorted and disjoint) cut into periods at gaps of `periodGapMs` or more.
    private static func periods(_ segments: [Interval]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var first = 0
        for index in segments.indices.dropFirst() where segments[index].start - segments[index - 1].end >= periodGapMs {
            result.append(first..<index)
            first = index
        }
        if first < segments.count { result.append(first..<segments.count) }
        return result
    }

    /// The local day each of one source's `samples` counts on (`--explain`): the day its period
    /// ends, the periods found as the day values find them; nil for one of no length.
    static func periodDays(of samples: [HealthSample], placement: DayPlacement) -> [Int32?] {
        let spans = samples.map { sample in
            let start = placement.instant(sample.startMs, wallClock: sample.wallClock)
            return (start, max(start, placement.instant(sample.endMs, wallClock: sample.wallClock)))
        }
        let segments = union(zip(samples, spans).compactMap { sample, span in
            span.1 > span.0 ? Interval(start: span.0, end: span.1, endOffset: sample.offsetSeconds ?? 0,
                                       hasOffset: sample.offsetSeconds != nil) : nil
        })
        let periods = periods(segments).map { period in
            let last = segments[period.upperBound - 1]
            return (start: segments[period.lowerBound].start, end: last.end,
                    day: placement.day(of: last.end, offsetSeconds: last.hasOffset ? last.endOffset : nil))
        }
        return spans.map { start, end in
            guard end > start else { return nil }
            return periods.first { $0.start <= start && end <= $0.end }?.day
        }
    }

    /// A source's day as shown (rounded), like every day total.
    private func isPlausible(_ minutes: Double) -> Bool {
        metric.plausibleRange?.contains(metric.columns[0].rounded(minutes)) ?? true
    }

    /// Every day's value, and every source's beside it: the most minutes wins (as shown, rounded),
    /// ties to the name first in UTF-8 order; a source-day beyond 24 hours is left out.
    func dayValues() -> [LocalDate: [MetricSourceValue]] {
        var byDay: [Int32: [(source: String, minutes: Double)]] = [:]
        for (key, minutes) in minutesBySourceDay() {
            let day = Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32))
            byDay[day, default: []].append((sources.names[Int(UInt32(truncatingIfNeeded: key))], minutes))
        }
        let column = metric.columns[0]
        var result: [LocalDate: [MetricSourceValue]] = [:]
        for (day, entries) in byDay {
            let date = LocalDate(daysSinceEpoch: day)
            let ranked = entries.map { ($0.source, column.rounded($0.minutes), isPlausible($0.minutes)) }
                .sorted { lhs, rhs in
                    lhs.1 != rhs.1 ? lhs.1 > rhs.1 : lhs.0.utf8.lexicographicallyPrecedes(rhs.0.utf8)
                }
            var taken = false
            var values: [MetricSourceValue] = []
            for (source, minutes, plausible) in ranked {
                // A source whose periods round to no minute has nothing to give, as a zero step day.
                guard minutes > 0 else { continue }
                let standing: MetricSourceValue.Standing = !plausible ? .implausible : taken ? .other : .winner
                if plausible { taken = true }
                values.append(MetricSourceValue(date: date, column: column, source: source, value: minutes,
                                                standing: standing))
            }
            if !values.isEmpty { result[date] = values }
        }
        return result
    }
}
