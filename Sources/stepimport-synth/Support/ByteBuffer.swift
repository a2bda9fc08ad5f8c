/// A growable byte array with the few formatting primitives the XML writer needs.
///
/// Numbers are formatted by hand from integers: Foundation's formatters would
/// dominate the run time of a multi-gigabyte export and can vary with locale.
struct ByteBuffer {
    /// The bytes written so far.
    var bytes: [UInt8]

    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    mutating func append(_ other: ArraySlice<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// A non-negative or negative integer in decimal.
    mutating func append(int value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(unsigned: UInt64(-value))
        } else {
            append(unsigned: UInt64(value))
        }
    }

    mutating func append(unsigned value: UInt64) {
        if value < 10 {
            bytes.append(48 + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while rest > 0 {
                raw[count] = 48 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                bytes.append(raw[count])
            }
        }
    }

    /// Exactly two digits, zero-padded (for clock fields).
    @inline(__always)
    mutating func append(twoDigits value: Int) {
        bytes.append(48 + UInt8(value / 10))
        bytes.append(48 + UInt8(value % 10))
    }

    /// `scaled / 10^places` in the shortest form: trailing zeros of the
    /// fraction are dropped, as HealthKit's own number output does
    /// ("0.38", "72", "22.5312").
    mutating func append(scaled: Int, places: Int) {
        var divisor = 1
        for _ in 0..<places { divisor *= 10 }
        let negative = scaled < 0
        let magnitude = negative ? -scaled : scaled
        if negative { bytes.append(UInt8(ascii: "-")) }
        append(unsigned: UInt64(magnitude / divisor))
        var fraction = magnitude % divisor
        guard fraction > 0 else { return }
        var width = places
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var pad = 1
        for _ in 1..<width { pad *= 10 }
        while pad > fraction && pad > 1 {
            bytes.append(48)
            pad /= 10
        }
        append(unsigned: UInt64(fraction))
    }

    /// Lower-case hexadecimal without a prefix, zero-padded to `digits`.
    mutating func append(hex value: UInt64, digits: Int) {
        var shift = (digits - 1) * 4
        while shift >= 0 {
            let nibble = UInt8((value >> UInt64(shift)) & 0xF)
            bytes.append(nibble < 10 ? 48 + nibble : 87 + nibble)
            shift -= 4
        }
    }

    /// Text escaped for a double-quoted XML attribute value.
    mutating func append(attributeText text: String) {
        bytes.append(contentsOf: ByteBuffer.escapedAttribute(text))
    }

    /// The UTF-8 bytes of `text` escaped for a double-quoted XML attribute:
    /// `&`, `<`, `>` and `"` become entities, exactly what Apple's exporter does
    /// (which is why its device strings are full of `&lt;` and `&gt;`).
    static func escapedAttribute(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: Array("&amp;".utf8))
            case UInt8(ascii: "<"): out.append(contentsOf: Array("&lt;".utf8))
            case UInt8(ascii: ">"): out.append(contentsOf: Array("&gt;".utf8))
            case UInt8(ascii: "\""): out.append(contentsOf: Array("&quot;".utf8))
            default: out.append(byte)
            }
        }
        return out
    }
}
