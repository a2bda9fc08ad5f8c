/// Turns UTF-16 text into UTF-8, push-style: bytes in, in chunks split anywhere (between the two
/// bytes of a code unit, between the halves of a surrogate pair); UTF-8 out, in pieces handed to
/// the caller, so that a UTF-16 file can drive a UTF-8 tokenizer in constant memory.
///
/// A byte-order mark is transcoded like any character (to `EF BB BF`, which the tokenizers skip).
/// A lone surrogate, or an odd byte at the end, becomes U+FFFD and is counted in `replacements`:
/// the text around it is kept, and a number cell holding one is then not a number.
public final class UTF16Transcoder {
    /// Which byte of a code unit comes first.
    public enum ByteOrder: Sendable, Equatable {
        case littleEndian
        case bigEndian
    }

    public let byteOrder: ByteOrder
    /// Code units (or a last odd byte) replaced by U+FFFD so far.
    public private(set) var replacements = 0

    /// The first byte of a code unit whose second byte has not come yet.
    private var pendingByte: UInt8?
    /// A high surrogate waiting for its low half.
    private var highSurrogate: UInt16?
    private let output: UnsafeMutablePointer<UInt8>
    private var used = 0

    /// Bytes of UTF-8 handed over at a time (at most).
    static let outputCapacity = 64 * 1024

    public init(byteOrder: ByteOrder) {
        self.byteOrder = byteOrder
        output = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.outputCapacity)
    }

    deinit {
        output.deallocate()
    }

    /// The byte order a text's first bytes show: a byte-order mark (`FF FE`, `FE FF`), or else an
    /// ASCII character beside a zero byte (`c\0`, `\0c`); nil when they show neither.
    public static func byteOrder<Bytes: Collection<UInt8>>(of head: Bytes) -> ByteOrder? {
        var bytes = head.makeIterator()
        guard let first = bytes.next(), let second = bytes.next() else { return nil }
        switch (first, second) {
        case (0xFF, 0xFE): return .littleEndian
        case (0xFE, 0xFF): return .bigEndian
        case (0x01...0x7F, 0x00): return .littleEndian
        case (0x00, 0x01...0x7F): return .bigEndian
        default: return nil
        }
    }

    /// Transcodes the next piece of input, handing UTF-8 to `body` in pieces of at most 64 KiB;
    /// a unit or pair cut by the end of `bytes` is completed by the next call.
    public func feed<Failure: Error>(_ bytes: UnsafeRawBufferPointer,
                                     to body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        var index = 0
        let count = bytes.count
        if let first = pendingByte, count > 0 {
            pendingByte = nil
            take(unit(first, bytes[0]))
            index = 1
        }
        while index + 1 < count {
            // Room for the longest output of one unit (a replaced high surrogate and a character).
            if used > Self.outputCapacity - 8 { try flush(body) }
            take(unit(bytes[index], bytes[index + 1]))
            index += 2
        }
        if index < count { pendingByte = bytes[index] }
        try flush(body)
    }

    /// Ends the input: a high surrogate with no low half, or a last odd byte, becomes U+FFFD.
    public func finish<Failure: Error>(to body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        if highSurrogate != nil {
            highSurrogate = nil
            replace()
        }
        if pendingByte != nil {
            pendingByte = nil
            replace()
        }
        try flush(body)
    }

    @inline(__always)
    private func unit(_ first: UInt8, _ second: UInt8) -> UInt16 {
        byteOrder == .littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second)
    }

    @inline(__always)
    private func take(_ unit: UInt16) {
        if let high = highSurrogate {
            highSurrogate = nil
            if unit & 0xFC00 == 0xDC00 {
                let scalar = 0x10000 + (UInt32(high & 0x3FF) << 10 | UInt32(unit & 0x3FF))
                append(scalar)
                return
            }
            replace()
        }
        switch unit & 0xFC00 {
        case 0xD800: highSurrogate = unit
        case 0xDC00: replace()
        default: append(UInt32(unit))
        }
    }

    private func replace() {
        replacements += 1
        append(0xFFFD)
    }

    @inline(__always)
    private func append(_ scalar: UInt32) {
        if scalar < 0x80 {
            output[used] = UInt8(scalar)
            used += 1
        } else if scalar < 0x800 {
            output[used] = UInt8(0xC0 | scalar >> 6)
            output[used + 1] = UInt8(0x80 | scalar & 0x3F)
            used += 2
        } else if scalar < 0x10000 {
            output[used] = UInt8(0xE0 | scalar >> 12)
            output[used + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[used + 2] = UInt8(0x80 | scalar & 0x3F)
            used += 3
        } else {
            output[used] = UInt8(0xF0 | scalar >> 18)
            output[used + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[used + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[used + 3] = UInt8(0x80 | scalar & 0x3F)
            used += 4
        }
    }

    private func flush<Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        guard used > 0 else { return }
        let piece = UnsafeRawBufferPointer(start: output, count: used)
        used = 0
        try body(piece)
    }
}
