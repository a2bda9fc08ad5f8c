/// Day values of a metric measured now and then (heart rate, resting heart rate, HRV, VO2max) or
/// of sessions (workouts): each first-seen record counts on the local day of its start, per
/// source, and one source gives the day (docs/metrics.md).
///
/// Sampled metrics: a sample outside the plausible range is left out (counted); the source with
/// the most samples that day wins and gives their mean (and, for heart rate, minimum and maximum).
/// Workouts: the source with the most minutes wins and gives its count and minutes; a source-day
/// beyond the range is left out. Ties go to the name first in UTF-8 order, as for steps.
///
/// A day's average, minimum or maximum that an export gives (`addDayValue`) stands for its
/// source's day when that source has no samples of the day, and ranks as one sample.
final class SampledDayAggregator {
    let metric: Metric
    private let placement: DayPlacement
    private let duplicates: DuplicateFilter
    private var finished = true
    private var sources = SourceTable()
    /// By day (high 32 bits) and source id (low 32 bits).
    private var days: [UInt64: Accumulated] = [:]
    private var stats = MetricStatistics()
    private var offsets = OffsetsSeen()

    private struct Accumulated {
        var count = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        /// A day's values given whole, by `MetricColumn.rawValue` (the first given wins).
        var given: [Int: Double] = [:]

        mutating func add(_ value: Double) {
            count += 1
            sum += value
            minimum = min(minimum, value)
            maximum = max(maximum, value)
        }

        /// Samples, or one for a day given whole.
        var rank: Int { count > 0 ? count : given.isEmpty ? 0 : 1 }
    }

    init(metric: Metric, rule: ZoneRule, sharing budget: DuplicateBudget) {
        precondition(metric.kind == .sampled || metric.kind == .workouts, "\(metric) is not sampled")
        self.metric = metric
        placement = DayPlacement(rule: rule)
        duplicates = DuplicateFilter(sharing: budget)
    }

    func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        stats.records += 1
        guard SampleLimits.isSafe(sample) else {
            stats.refused += 1
            return
        }
        let record = SampleRecord(sample, source: sources.id(forUTF8: sourceUTF8))
        switch duplicates.check(record) {
        case .new: place(record)
        case .duplicate: stats.duplicates += 1
        case .deferred: finished = false
        }
    }

    func finish() throws(ExportError) {
        guard !finished else { return }
        stats.duplicates += try duplicates.drain { place($0) }
        finished = true
    }

    /// Places a first-seen record; a sample outside the plausible range is left out here, after
    /// the duplicate check, so that it is counted once however many copies the file holds.
    private func place(_ record: SampleRecord) {
        let sample = record.sample
        if metric.kind == .sampled, let range = metric.plausibleRange, !range.contains(sample.value) {
            stats.leftOut += 1
            return
        }
        if let offset = sample.offsetSeconds, offsets.changes(to: offset) { offsets.note(offset) }
        let start = placement.instant(sample.startMs, wallClock: sample.wallClock)
        let day = placement.day(of: start, offsetSeconds: sample.offsetSeconds)
        let key = UInt64(UInt32(bitPattern: day)) << 32 | UInt64(UInt32(bitPattern: record.source))
        days[key, default: Accumulated()].add(sample.value)
    }

    /// A day's value of one of the metric's columns, given whole by the export (Google Fit's
    /// daily average, minimum and maximum heart rate); outside the plausible range it is left out.
    func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        stats.records += 1
        guard value.isFinite, value.magnitude <= SampleLimits.maximumSteps else {
            stats.refused += 1
            return
        }
        let range = metric.kind == .sampled ? metric.plausibleRange : nil
        if let range, !range.contains(value) {
            stats.leftOut += 1
            return
        }
        let source = sources.id(forUTF8: sourceUTF8)
        let key = UInt64(UInt32(bitPattern: date.daysSinceEpoch)) << 32 | UInt64(UInt32(bitPattern: source))
        if days[key, default: Accumulated()].given[column.rawValue] == nil {
            days[key, default: Accumulated()].given[column.rawValue] = value
        } else {
            stats.duplicates += 1
        }
    }

    var statistics: MetricStatistics {
        precondition(finished, "finish() must be called before the statistics are read")
        var result = stats
        result.offsets = offsets.sorted
        if metric.kind == .workouts {
            result.leftOut = days.values.count { !isPlausible($0) }
        }
        return result
    }

    /// Every day's value, and every source's beside it, by the metric's rule.
    func dayValues() -> [LocalDate: [MetricSourceValue]] {
        precondition(finished, "finish() must be called before the values are read")
        var bySourceDay: [Int32: [(source: String, value: Accumulated)]] = [:]
        for (key, value) in days {
            let day = Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32))
            bySourceDay[day, default: []].append((sources.names[Int(UInt32(truncatingIfNeeded: key))], value))
        }
        var result: [LocalDate: [MetricSourceValue]] = [:]
        for (day, entries) in bySourceDay {
            let date = LocalDate(daysSinceEpoch: day)
            let ranked = entries.sorted { ranksBefore($0, $1) }
            var taken = false
            var values: [MetricSourceValue] = []
            for entry in ranked {
                let plausible = isPlausible(entry.value)
                let standing: MetricSourceValue.Standing = !plausible ? .implausible : taken ? .other : .winner
                if plausible { taken = true }
                for (column, value) in columns(entry.value) {
                    values.append(MetricSourceValue(date: date, column: column, source: entry.source,
                                                    value: column.rounded(value), standing: standing))
                }
            }
            result[date] = values
        }
        return result
    }

    /// Sampled metrics are checked sample by sample as they come; workouts by their day's minutes
    /// as shown (rounded), like every day total.
    private func isPlausible(_ value: Accumulated) -> Bool {
        guard metric.kind == .workouts, let range = metric.plausibleRange else { return true }
        return range.contains(MetricColumn.workoutMinutes.rounded(value.sum))
    }

    /// Sampled: more samples first. Workouts: more minutes (as shown, rounded) first. Then the
    /// name first in UTF-8 order.
    private func ranksBefore(_ lhs: (source: String, value: Accumulated), _ rhs: (source: String, value: Accumulated)) -> Bool {
        switch metric.kind {
        case .workouts:
            let left = MetricColumn.workoutMinutes.rounded(lhs.value.sum)
            let right = MetricColumn.workoutMinutes.rounded(rhs.value.sum)
            if left != right { return left > right }
        default:
            if lhs.value.rank != rhs.value.rank { return lhs.value.rank > rhs.value.rank }
        }
        return lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
    }

    private func columns(_ value: Accumulated) -> [(MetricColumn, Double)] {
        if value.count == 0 {
            // Given whole: the columns the export gave, in column order.
            return metric.columns.compactMap { column in value.given[column.rawValue].map { (column, $0) } }
        }
        switch metric {
        case .heartRate:
            return [(.heartRateAverage, value.sum / Double(value.count)), (.heartRateMinimum, value.minimum),
                    (.heartRateMaximum, value.maximum)]
        case .workouts:
            return [(.workouts, Double(value.count)), (.workoutMinutes, value.sum)]
        default:
            return [(metric.columns[0], value.sum / Double(value.count))]
        }
    }
}
