/// A sample's full identity, for samples that do not fit `PackedSampleKey`.
struct WideSampleKey: Hashable {
    let source: Int32
    let startMs: Int64
    let endMs: Int64
    let valueBits: UInt64

    init(_ record: SampleRecord) {
        source = record.source
        startMs = record.startMs
        endMs = record.endMs
        // +0.0 and -0.0 are the same count.
        valueBits = record.value == 0 ? 0 : record.value.bitPattern
    }

    /// The identity back as a record (for spilling), marked as already counted.
    var record: SampleRecord {
        SampleRecord(startMs: startMs, endMs: endMs, value: Double(bitPattern: valueBits), source: source,
                     flags: SampleRecord.alreadyCounted | (endMs == Int64.min ? SampleRecord.dayTotal : 0))
    }
}
