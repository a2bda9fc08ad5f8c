import Glibc

/// Parses a decimal number from bytes: the whole-number fast path without allocating,
/// anything else (fractions, exponents) through the C library's `strtod`.
package enum DecimalNumber {
    /// The value, or nil when the bytes are not exactly one finite decimal number.
    @inline(__always)
    package static func parse(_ text: UnsafeRawBufferPointer) -> Double? {
        let count = text.count
        guard count > 0 else { return nil }
        guard count <= 18 else { return slowParse(text) }
        var value: Int64 = 0
        for byte in text {
            let digit = Int64(byte) &- 48
            guard digit >= 0, digit <= 9 else { return slowParse(text) }
            value = value &* 10 &+ digit
        }
        return Double(value)
    }

    private static func slowParse(_ text: UnsafeRawBufferPointer) -> Double? {
        // strtod needs a NUL-terminated string and accepts forms we do not want
        // ("inf", hex, leading blanks), so check the characters first.
        guard text.count < 64 else { return nil }
        var sawDigit = false
        for (index, byte) in text.enumerated() {
            switch byte {
            case 0x30...0x39: sawDigit = true
            case 0x2E, 0x65, 0x45: break  // . e E
            case 0x2B, 0x2D:  // + - only first or after an exponent mark
                if index != 0 && text[index - 1] != 0x65 && text[index - 1] != 0x45 { return nil }
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            for (index, byte) in text.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end == buffer.baseAddress! + text.count, value.isFinite else { return nil }
            return value
        }
    }
}
