/// A sink that totals days as Health Connect's own aggregation does (`--rule hc-priority`), and so
/// takes what a plain `RecordSink` never needs: the priority list an export stores, when each record
/// was last modified, and whether records come in time order.
///
/// A reader asks for it once per read (`sink.prioritySink`) and only then reads the extra
/// columns; every other read leaves them unread.
public protocol PriorityRecordSink: RecordSink {
    /// The priority list the export itself holds for steps (Health Connect's ACTIVITY category):
    /// package names, highest first; nil when the export holds none. Called before any record.
    func storedPriority(_ packageNames: [String]?)

    /// From here on, records come in order of their start instant (a database read sorted by
    /// `start_time`), so the sink may total and forget them as it goes.
    func recordsComeInStartOrder()

    /// Takes one step sample with the instant its record was last modified (milliseconds since
    /// 1970), which breaks ties between records of one app; nil when the input does not say.
    func add(_ sample: HealthSample, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer)

    /// Takes one sample of `metric` (its value in the column's unit, as `RecordSink.add(_:of:sourceUTF8:)`)
    /// with the instant its record was last modified; nil when the input does not say.
    func add(_ sample: HealthSample, of metric: Metric, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer)
}
