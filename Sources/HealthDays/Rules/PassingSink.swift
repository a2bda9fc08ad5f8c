/// A sink between a reader and the day rule that passes on what it lets through to `next`
/// (`SourceExclusion`, `HandEntries`, `DaySampleRecorder`). Before a `PriorityRecordSink`
/// (`--rule hc-priority`) it is one too: the priority list, the order and each record's
/// last-modified time go through it, here, once for all of them.
protocol PassingSink: PriorityRecordSink {
    var next: RecordSink { get }
}

extension PassingSink {
    public var prioritySink: PriorityRecordSink? { next.prioritySink == nil ? nil : self }

    public func storedPriority(_ packageNames: [String]?) {
        next.prioritySink?.storedPriority(packageNames)
    }

    public func recordsComeInStartOrder() {
        next.prioritySink?.recordsComeInStartOrder()
    }

    public func add(_ sample: HealthSample, lastModifiedMs: Int64?, sourceUTF8: UnsafeRawBufferPointer) {
        add(sample, of: .steps, lastModifiedMs: lastModifiedMs, sourceUTF8: sourceUTF8)
    }
}
