import Glibc

/// The byte tests the Apple readers that look at markup without parsing it share
/// (`TopLevelBoundaryScanner`, `AppleRecordSelector`): a byte or a sequence found with `memchr`,
/// a literal at an offset, the end of a tag, XML's white space and the start of a name (ASCII letters, `_`, `:`
/// and any byte of a multi-byte character).
protocol MarkupBytes {}

extension MarkupBytes {
    /// The offset of the first `byte` in `start..<end`, nil when there is none.
    @inline(__always)
    func find(_ byte: UInt8, _ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// `find`, for a byte that is mostly among the next few: those are looked at one by one
    /// before `memchr` is called for the rest (between two records there are a line feed and an
    /// indentation, and a call costs more than reading them).
    @inline(__always)
    func findNear(_ byte: UInt8, _ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        let near = min(end, start &+ 8)
        var index = start
        while index < near {
            if base.load(fromByteOffset: index, as: UInt8.self) == byte { return index }
            index += 1
        }
        return find(byte, base, from: index, to: end)
    }

    /// The offset of the first whole `sequence` in `start..<end`, nil when there is none.
    func find(sequence: StaticString, _ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        let length = sequence.utf8CodeUnitCount
        let first = sequence.utf8Start.pointee
        var from = start
        while let candidate = find(first, base, from: from, to: end - length + 1) {
            if memcmp(base + candidate, sequence.utf8Start, length) == 0 { return candidate }
            from = candidate + 1
        }
        return nil
    }

    /// The first `>` outside quotes in `start..<end`, for a start tag followed by text; nil when
    /// the tag does not end there.
    func tagEnd(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = find(byte, base, from: index + 1, to: end) else { return nil }
                index = close + 1
                continue
            }
            if byte == UInt8(ascii: ">") { return index }
            index += 1
        }
        return nil
    }

    /// Whether `text` stands at `offset`, wholly before `end`.
    func matches(_ text: StaticString, _ base: UnsafeRawPointer, at offset: Int, end: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        return offset + length <= end && memcmp(base + offset, text.utf8Start, length) == 0
    }

    @inline(__always)
    func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @inline(__always)
    func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }
}

/// Byte classes of sixteen bytes at once: the selector's and the tag reader's vector scans
/// compare sixteen bytes (`SIMD16`), and this turns the lanes found into bits.
enum ByteLanes {
    /// One bit for each lane of `found` that is set (bit 0: the first byte). Each lane keeps its
    /// own weight (1 to 128 in each half) and one multiplication a half adds them up into its top
    /// byte: no carry, as no two lanes share a bit.
    @inline(__always)
    static func bits(_ found: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let flags = unsafeBitCast(found, to: SIMD16<UInt8>.self) & weights
        let halves = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
        let sum: UInt64 = 0x0101_0101_0101_0101
        return (halves[0] &* sum) >> 56 | ((halves[1] &* sum) >> 56) << 8
    }

    /// Whether any of sixteen lanes of 0x00 or 0xFF (a compare's mask as bytes) is set: one
    /// test of two words, where `any` of a `SIMDMask` is left a call.
    @inline(__always)
    static func isAnySet(_ lanes: SIMD16<UInt8>) -> Bool {
        let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
    }
}
