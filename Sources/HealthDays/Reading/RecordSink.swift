/// Where a format reader delivers the step samples it finds.
public protocol RecordSink: AnyObject {
    /// Takes one sample whose source is given as UTF-8 bytes, valid only during the call.
    func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer)

    /// Takes a total that an export already summed for one calendar day (Google Fit's daily
    /// summary, a day-total CSV); it counts on that date whatever the zone rule.
    func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer)

    /// Takes one sample of `metric`, its value in the metric's column unit (docs/metrics.md): a
    /// quantity, an interval of sleep or in bed (value unused), or a workout (value its minutes).
    /// Sinks that total steps only leave every other metric out (the default does).
    func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer)

    /// Takes a value an export already worked out for one calendar day in one column (Google
    /// Fit's daily summary, a day-value CSV), in the column's unit: a day total of a summed metric,
    /// a day's average, minimum or maximum of a measured one, a day's minutes of sleep. It counts
    /// on that date whatever the zone rule. Sinks that total steps only take the steps column as a
    /// day total and leave the others out (the default does).
    func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer)

    /// This sink as a `PriorityRecordSink` (`--rule hc-priority`), nil for every other (the
    /// default): a requirement, not an `as?` cast, which scans every conformance of the program
    /// the first time (220,000 instructions on each database read).
    var prioritySink: PriorityRecordSink? { get }
}

extension RecordSink {
    public var prioritySink: PriorityRecordSink? { nil }

    public func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        if metric == .steps { add(sample, sourceUTF8: sourceUTF8) }
    }

    public func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
        if column == .steps { addDayTotal(date, steps: value, sourceUTF8: sourceUTF8) }
    }

    /// Takes one sample whose source is a string.
    public func add(_ sample: HealthSample, source: String) {
        var source = source
        source.withUTF8 { add(sample, sourceUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// Takes a day total whose source is a string.
    public func addDayTotal(_ date: LocalDate, steps: Double, source: String) {
        var source = source
        source.withUTF8 { addDayTotal(date, steps: steps, sourceUTF8: UnsafeRawBufferPointer($0)) }
    }
}
