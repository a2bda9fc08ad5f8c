/// Health Connect's own day totals (`--rule hc-priority`) of several summed metrics at once
/// (`--metric`): one `PriorityDayAggregator` per metric, all following the same priority list
/// (Health Connect's ACTIVITY category holds steps, distance, active calories and floors alike).
///
/// Only the metrics Health Connect aggregates by priority from their own records are taken
/// (`PriorityMetricAggregator.metrics`); docs/rules.md says why total calories are not among them.
public final class PriorityMetricAggregator: PriorityRecordSink {
    /// The metrics this rule totals: Health Connect's ACTIVITY records of one value each.
    public static let metrics = MetricSet([.steps, .distance, .activeEnergy, .flights])

    /// One aggregator per metric asked for, in output order.
    public let aggregators: [PriorityDayAggregator]

    /// `metrics` must lie within `PriorityMetricAggregator.metrics`; others are left out. The
    /// limits are `PriorityDayAggregator`'s, for each metric.
    public init(metrics: MetricSet, rule: ZoneRule, priority: [String]? = nil,
                inMemoryLimit: Int = SampleLimits.priorityRecordsInMemory,
                overlapLimit: Int = SampleLimits.maximumHeldPriorityRecords) {
        aggregators = metrics.intersection(Self.metrics).metrics.map {
            PriorityDayAggregator(rule: rule, priority: priority, metric: $0, inMemoryLimit: inMemoryLimit, overlapLimit: overlapLimit)
        }
    }

    /// The aggregator of `metric`, nil when it was not asked for.
    public func aggregator(of metric: Metric) -> PriorityDayAggregator? {
        aggregators.first { $0.metric == metric }
    }

    /// The list the totals follow (the same for every metric): the given one, else the stored one.
    public var priority: [String]? { aggregators.first?.priority }
    public var givenPriority: [String]? { aggregators.first?.givenPriority }
    public var storedPriority: [String]? { aggregators.first?.storedPriority }

    // MARK: - Input

    public var prioritySink: PriorityRecordSink? { self }

    public func storedPriority(_ packageNames: [String]?) {
        for aggregator in aggregators { aggregator.storedPriority(packageNames) }
    }

    /// Each table is read whole in start order, one metric after another, so every aggregator may
    /// total and forget as it goes.
    public func recordsComeInStartOrder() {
        for aggregator in aggregators { aggregator.recordsComeInStartOrder() }
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: .steps)?.add(sample, of: .steps, lastModifiedMs: nil, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: .steps)?.add(sample, of: .steps, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: metric)?.add(sample, of: metric, lastModifiedMs: nil, sourceUTF8: sourceUTF8)
    }

    public func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: metric)?.add(sample, of: metric, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: .steps)?.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        aggregator(of: column.metric)?.addDayValue(date, of: column, value: value, sourceUTF8: sourceUTF8)
    }

    /// Totals what is still held by every aggregator; the first failure is thrown.
    public func finish() throws(ExportError) {
        for aggregator in aggregators { try aggregator.finish() }
    }

    // MARK: - Results

    /// The days with a value in any column: steps cut toward zero as Health Connect returns them,
    /// the others (Health Connect's `Double`s) rounded to their column's places as every metric
    /// value is; a value that comes to zero is absent, and a day with none is left out.
    public func days(in range: ClosedRange<LocalDate>? = nil) -> [MetricDay] {
        var byDate: [LocalDate: MetricDay] = [:]
        for aggregator in aggregators {
            let column = aggregator.metric.columns[0]
            for (date, sum) in aggregator.unroundedDays(in: range) {
                let value = Self.value(sum, in: column)
                guard value > 0 else { continue }
                byDate[date, default: MetricDay(date: date)][column] = value
            }
        }
        return byDate.values.sorted { $0.date < $1.date }
    }

    /// What each app's slices gave each day and column (`--by-source`), rounded as the column is;
    /// the app that gave the day the most is its `.winner` (the shares need not add up to the day's
    /// value, which is cut or rounded once).
    public func sourceValues(in range: ClosedRange<LocalDate>? = nil) -> [MetricSourceValue] {
        var values: [MetricSourceValue] = []
        for aggregator in aggregators {
            let column = aggregator.metric.columns[0]
            var byDate: [LocalDate: [(source: String, value: Double)]] = [:]
            for share in aggregator.sourceShares() where range?.contains(share.date) ?? true {
                let value = column.rounded(share.sum)
                guard value != 0 else { continue }
                byDate[share.date, default: []].append((share.source, value))
            }
            for (date, shares) in byDate {
                let ordered = shares.sorted { lhs, rhs in
                    lhs.value != rhs.value ? lhs.value > rhs.value : lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
                }
                for (index, share) in ordered.enumerated() {
                    values.append(MetricSourceValue(date: date, column: column, source: share.source, value: share.value,
                                                    standing: index == 0 ? .winner : .other))
                }
            }
        }
        return values.sorted { lhs, rhs in
            if lhs.date != rhs.date { return lhs.date < rhs.date }
            if lhs.column != rhs.column { return lhs.column < rhs.column }
            // The winner first: the most, then by name, as each day was ranked above.
            return lhs.value != rhs.value ? lhs.value > rhs.value : lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
        }
    }

    /// A day's sum as the column shows it: steps cut toward zero (`longValue()`), the others rounded.
    static func value(_ sum: Double, in column: MetricColumn) -> Double {
        column == .steps ? Double(PriorityDayAggregator.truncated(sum)) : column.rounded(sum)
    }
}
