/// What one import read and how, in words for the report on stderr; the same for every format.
public struct ImportSummary: Sendable {
    /// A skipped record and the file (or zip entry) it stood in.
    public struct Skipped: Sendable, Equatable {
        public let location: InputLocation
        public let record: SkippedRecord

        public init(location: InputLocation, record: SkippedRecord) {
            self.location = location
            self.record = record
        }
    }

    /// The files or zip entries that were read, in order.
    public var locations: [InputLocation] = []
    /// What kind of data they held, e.g. "Apple Health XML" or "Health Connect database (schema 20)".
    public var format: String = ""
    /// Bytes read from the inputs (uncompressed).
    public var bytesRead: Int64 = 0
    /// Step records (or day totals) handed to the aggregation.
    public var stepRecords = 0
    /// Records that were read but are not steps (other types), for "nothing to total" messages.
    public var otherRecords = 0
    /// Format-specific facts worth a line in the report (repairs made, streams ignored, ...).
    public var notes: [ImportNote] = []
    /// Step records skipped under `InvalidRecordPolicy.skip`, in every input.
    public var skippedRecords = 0
    /// The first few of them, with the input each stood in.
    public var skippedExamples: [Skipped] = []

    public init() {}

    /// Adds the records one input skipped.
    public mutating func addSkipped(_ skipped: SkippedRecords, at location: InputLocation) {
        skippedRecords += skipped.count
        for example in skipped.examples where skippedExamples.count < SkippedRecords.maxExamples {
            skippedExamples.append(Skipped(location: location, record: example))
        }
    }
}
