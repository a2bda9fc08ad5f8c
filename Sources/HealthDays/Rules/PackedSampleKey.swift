/// A sample's identity (source, start, end, value) in 16 bytes, for the common case.
///
/// The duplicate set holds one key per distinct sample, so its size is what bounds memory on
/// a large export; most samples fit here (whole counts, spans under 49 days, dates after 1970).
struct PackedSampleKey: Hashable {
    let sourceAndStart: UInt64
    let lengthAndValue: UInt64

    init(sourceAndStart: UInt64, lengthAndValue: UInt64) {
        self.sourceAndStart = sourceAndStart
        self.lengthAndValue = lengthAndValue
    }

    init?(_ record: SampleRecord) {
        let length = record.endMs &- record.startMs
        guard !record.isDayTotal, record.source >= 0, record.source < 1 << 16,
              record.startMs >= 0, record.startMs < 1 << 48,
              length >= 0, length < 1 << 32,
              record.value >= 0, record.value < 4_294_967_296, record.value == record.value.rounded(.towardZero)
        else { return nil }
        sourceAndStart = UInt64(record.source) << 48 | UInt64(record.startMs)
        lengthAndValue = UInt64(length) << 32 | UInt64(record.value)
    }

    /// The identity back as a record (for spilling), marked as already counted.
    var record: SampleRecord {
        let start = Int64(sourceAndStart & (1 << 48 - 1))
        return SampleRecord(startMs: start, endMs: start + Int64(lengthAndValue >> 32),
                            value: Double(lengthAndValue & 0xFFFF_FFFF), source: Int32(sourceAndStart >> 48),
                            flags: SampleRecord.alreadyCounted)
    }
}
