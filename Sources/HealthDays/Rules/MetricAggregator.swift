/// Turns the samples of every metric asked for into day values (docs/metrics.md): the one sink
/// of `--metric`, as `DayAggregator` is of steps.
///
/// Each metric goes to the aggregator of its kind: cumulative metrics (steps included) to a
/// `DayAggregator` each, exactly the step rule; sampled metrics and workouts to a
/// `SampledDayAggregator`; sleep and in bed to a `SleepDayAggregator`. Their duplicate checks
/// share one memory budget, so asking for every metric keeps the memory of steps alone.
public final class MetricAggregator: RecordSink {
    public let metrics: MetricSet
    public let rule: ZoneRule
    /// Steps, whether asked for or not (empty when not): its statistics are the step summary's.
    public let steps: DayAggregator
    /// By `Metric.rawValue`; nil for a metric not asked for or of another kind. Constants, so
    /// that the lookup for every sample costs no exclusivity check (as `var`s: 2.3% of a
    /// `--metric all` run in `swift_beginAccess`).
    private let cumulative: [DayAggregator?]
    private let sampled: [SampledDayAggregator?]
    private let sleep: [SleepDayAggregator?]

    /// The duplicate keys all metrics hold in memory together before they spill, in units of 16
    /// bytes (`DuplicateBudget`): half of what steps alone hold, because the keys of several
    /// metrics fill several sets, each with its own spare room (`--metric all` on 1 GB: 64 MB
    /// peak at 380,000, 54 MB at 190,000, in the same time; the output is the same as with no
    /// spilling at all).
    public static let defaultInMemoryLimit = 190_000

    public init(metrics: MetricSet, rule: ZoneRule, inMemoryLimit: Int = MetricAggregator.defaultInMemoryLimit) {
        self.metrics = metrics
        self.rule = rule
        let budget = DuplicateBudget(limit: inMemoryLimit)
        steps = DayAggregator(rule: rule, sharing: budget)
        let count = Metric.allCases.count
        var cumulative = [DayAggregator?](repeating: nil, count: count)
        var sampled = [SampledDayAggregator?](repeating: nil, count: count)
        var sleep = [SleepDayAggregator?](repeating: nil, count: count)
        for metric in metrics.metrics {
            switch metric.kind {
            case .cumulative:
                if metric == .steps {
                    cumulative[metric.rawValue] = steps
                } else {
                    let aggregator = DayAggregator(rule: rule, sharing: budget)
                    aggregator.roundsAsMetric = true
                    cumulative[metric.rawValue] = aggregator
                }
            case .sampled, .workouts:
                sampled[metric.rawValue] = SampledDayAggregator(metric: metric, rule: rule, sharing: budget)
            case .sleep:
                sleep[metric.rawValue] = SleepDayAggregator(metric: metric, rule: rule)
            }
        }
        self.cumulative = cumulative
        self.sampled = sampled
        self.sleep = sleep
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        if metrics.contains(.steps) { steps.add(sample, sourceUTF8: sourceUTF8) }
    }

    public func addDayTotal(_ date: LocalDate, steps total: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if metrics.contains(.steps) { steps.addDayTotal(date, steps: total, sourceUTF8: sourceUTF8) }
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        if let aggregator = cumulative[metric.rawValue] {
            // Checked on each source's day (a 400 km record over two days is two plausible days).
            aggregator.add(sample, sourceUTF8: sourceUTF8)
        } else if let aggregator = sampled[metric.rawValue] {
            aggregator.add(sample, sourceUTF8: sourceUTF8)
        } else if let aggregator = sleep[metric.rawValue] {
            aggregator.add(sample, sourceUTF8: sourceUTF8)
        }
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        let metric = column.metric
        if let aggregator = cumulative[metric.rawValue] {
            aggregator.addDayTotal(date, steps: value, sourceUTF8: sourceUTF8)
        } else if let aggregator = sampled[metric.rawValue] {
            aggregator.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
        } else if let aggregator = sleep[metric.rawValue] {
            aggregator.addDayMinutes(date, value, sourceUTF8: sourceUTF8)
        }
    }

    /// Ends the input (the duplicate checks may have spilled to disk).
    public func finish() throws(ExportError) {
        for aggregator in cumulative { try aggregator?.finish() }
        for aggregator in sampled { try aggregator?.finish() }
    }

    /// What the aggregation of `metric` saw.
    public func statistics(of metric: Metric) -> MetricStatistics {
        if let aggregator = cumulative[metric.rawValue] {
            let seen = aggregator.statistics
            var result = MetricStatistics()
            result.records = seen.samples
            result.duplicates = seen.duplicates
            result.refused = seen.refused
            result.offsets = seen.offsets
            result.leftOut = implausibleSourceDays(metric, aggregator)
            return result
        }
        if let aggregator = sampled[metric.rawValue] { return aggregator.statistics }
        if let aggregator = sleep[metric.rawValue] { return aggregator.statistics }
        return MetricStatistics()
    }

    /// Every distinct offset any metric's records carried, sorted.
    public var offsets: [Int32] {
        Set(metrics.metrics.flatMap { statistics(of: $0).offsets }).sorted()
    }

    /// One row per local day on which any metric asked for has a value, in date order.
    ///
    /// One metric at a time, keeping only the winners: every source's values of every metric at
    /// once grow with the days (a 4 GB export's 12,700 days: 20 MB more at the peak).
    public func days(in range: ClosedRange<LocalDate>? = nil) -> [MetricDay] {
        var byDate: [LocalDate: MetricDay] = [:]
        for metric in metrics.metrics {
            for (date, values) in dayValues(of: metric) where range?.contains(date) ?? true {
                for value in values where value.standing == .winner {
                    byDate[date, default: MetricDay(date: date)][value.column] = value.value
                }
            }
        }
        return byDate.values.sorted { $0.date < $1.date }
    }

    /// Every day's values of one metric, each source's with its standing.
    private func dayValues(of metric: Metric) -> [LocalDate: [MetricSourceValue]] {
        if let aggregator = cumulative[metric.rawValue] { return cumulativeValues(metric, aggregator) }
        if let aggregator = sampled[metric.rawValue] { return aggregator.dayValues() }
        if let aggregator = sleep[metric.rawValue] { return aggregator.dayValues() }
        return [:]
    }

    /// Every source's value of every column per day, with its standing: by date, then column,
    /// then as the day ranked them (the highest first: a source left out as implausible may
    /// stand before the winner).
    public func sourceValues(in range: ClosedRange<LocalDate>? = nil) -> [MetricSourceValue] {
        var byDate: [LocalDate: [MetricSourceValue]] = [:]
        func take(_ values: [LocalDate: [MetricSourceValue]]) {
            for (date, list) in values where range?.contains(date) ?? true {
                byDate[date, default: []].append(contentsOf: list)
            }
        }
        for metric in metrics.metrics {
            take(dayValues(of: metric))
        }
        return byDate.keys.sorted().flatMap { date in
            // Stable: each aggregator lists a column's sources in their ranking.
            byDate[date]!.enumerated().sorted { lhs, rhs in
                lhs.element.column != rhs.element.column ? lhs.element.column < rhs.element.column : lhs.offset < rhs.offset
            }.map(\.element)
        }
    }

    /// A cumulative metric's days through the step rule (`DayTotal`), a source-day beyond the
    /// metric's range left out so that the next source can win.
    private func cumulativeValues(_ metric: Metric, _ aggregator: DayAggregator) -> [LocalDate: [MetricSourceValue]] {
        let column = metric.columns[0]
        var result: [LocalDate: [MetricSourceValue]] = [:]
        for day in aggregator.dayTotals() {
            var taken = false
            result[day.date] = day.sources.map { source in
                let plausible = metric.plausibleRange?.contains(Double(source.steps)) ?? true
                let standing: MetricSourceValue.Standing = !plausible ? .implausible : taken ? .other : .winner
                if plausible { taken = true }
                return MetricSourceValue(date: day.date, column: column, source: source.source,
                                         value: Double(source.steps), standing: standing)
            }
        }
        return result
    }

    private func implausibleSourceDays(_ metric: Metric, _ aggregator: DayAggregator) -> Int {
        guard let range = metric.plausibleRange else { return 0 }
        return aggregator.dayTotals().reduce(0) { count, day in
            count + day.sources.count { !range.contains(Double($0.steps)) }
        }
    }
}
