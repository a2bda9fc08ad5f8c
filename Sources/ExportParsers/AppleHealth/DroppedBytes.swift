import HealthDays
/// Where `AppleXMLPrefilter` dropped bytes, so that a place in the filtered stream (where libxml2
/// reports failures) can be turned back into a byte offset in the input.
///
/// Drops are rare: the DOCTYPE once (one entry per line of it, whose line breaks are kept) and
/// stray control characters. Past `maxEntries` places the log stops, and offsets from there on
/// are unknown rather than wrong.
public struct DroppedBytes: Equatable, Sendable {
    /// Filtered offsets at which bytes were dropped, with the bytes dropped up to and including there.
    private var filtered: [Int64] = []
    private var droppedThrough: [Int64] = []
    /// Bytes dropped in all.
    public private(set) var total: Int64 = 0
    /// From this filtered offset on, drops went unrecorded.
    private var unknownFrom: Int64?

    static let maxEntries = 1 << 16

    public init() {}

    /// Notes `count` bytes dropped just before the byte that will be at `offset` in the filtered stream.
    mutating func record(_ count: Int64, at offset: Int64) {
        total += count
        if let last = filtered.last, last == offset {
            droppedThrough[droppedThrough.count - 1] = total
        } else if unknownFrom == nil {
            if filtered.count < DroppedBytes.maxEntries {
                filtered.append(offset)
                droppedThrough.append(total)
            } else {
                unknownFrom = offset
            }
        }
    }

    /// The input offset of the byte at `offset` in the filtered stream; nil past the log's end.
    public func inputOffset(ofFiltered offset: Int64) -> Int64? {
        if let unknownFrom, offset >= unknownFrom { return nil }
        // The last drop at or before `offset`.
        var low = 0
        var high = filtered.count
        while low < high {
            let middle = (low + high) / 2
            if filtered[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? offset : offset + droppedThrough[low - 1]
    }

    /// A failure's position with its byte offset moved from the filtered stream to the input.
    public func placing(_ failure: ParseFailure) -> ParseFailure {
        var placed = failure
        placed.position.byteOffset = failure.position.byteOffset.flatMap { inputOffset(ofFiltered: $0) }
        return placed
    }
}
