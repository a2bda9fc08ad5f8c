import HealthDays
/// One CSV record as `CSVTokenizer` delivers it: its fields as UTF-8 bytes, quotes removed and
/// `""` turned into `"`.
///
/// A view into the tokenizer's reused buffers: valid only during the call that receives it.
/// Copy what must outlive the call (`string(at:)`, `strings`).
public struct CSVRecord {
    /// The 1-based physical line the record starts on (a quoted line break makes a record span lines).
    public let line: Int
    /// The 0-based byte offset of the record's first byte in the input.
    public let offset: Int64
    /// The number of fields; at least 1 (the tokenizer skips blank lines).
    public let count: Int
    private let bytes: UnsafeRawPointer
    /// End offset in `bytes` of each field; field `i` starts where field `i - 1` ends.
    private let ends: UnsafePointer<Int>

    init(line: Int, offset: Int64, count: Int, bytes: UnsafeRawPointer, ends: UnsafePointer<Int>) {
        self.line = line
        self.offset = offset
        self.count = count
        self.bytes = bytes
        self.ends = ends
    }

    /// The bytes of field `index` (0-based).
    @inline(__always)
    public subscript(_ index: Int) -> UnsafeRawBufferPointer {
        precondition(index >= 0 && index < count, "field \(index) of a record with \(count) fields")
        let start = index == 0 ? 0 : ends[index - 1]
        return UnsafeRawBufferPointer(start: bytes + start, count: ends[index] - start)
    }

    /// Field `index` as a string (invalid UTF-8 repaired).
    public func string(at index: Int) -> String {
        String(decoding: self[index], as: UTF8.self)
    }

    /// Every field as a string.
    public var strings: [String] {
        (0..<count).map(string(at:))
    }
}
