/// The text forms of Health Connect dumps: ISO 8601 instants and wall times, zone offset ids,
/// UUIDs and JSON strings, formatted from integers by hand.
extension ByteBuffer {
    /// `2023-09-07T09:44:16.818Z`; with `alwaysFraction` false the `.sss` is left out when it is
    /// zero, as Java's `Instant.toString()` does.
    mutating func append(isoInstantMs ms: Int64, alwaysFraction: Bool = true) {
        append(wallClockMs: ms, alwaysFraction: alwaysFraction)
        append(UInt8(ascii: "Z"))
    }

    /// `2024-05-01T08:00:00.000`: a wall time with no offset (Dart's `DateTime.toIso8601String()`
    /// of a local time), from milliseconds that hold the wall clock as if it were UTC.
    mutating func append(wallClockMs ms: Int64, alwaysFraction: Bool = true) {
        let day = floorDivide(ms, 86_400_000)
        let inDay = ms - day * 86_400_000
        let date = CivilDate(dayNumber: Int(day))
        append(fourDigits: date.year)
        append(UInt8(ascii: "-"))
        append(twoDigits: date.month)
        append(UInt8(ascii: "-"))
        append(twoDigits: date.day)
        append(UInt8(ascii: "T"))
        let seconds = Int(inDay / 1000)
        append(twoDigits: seconds / 3600)
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds / 60 % 60)
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds % 60)
        let millis = Int(inDay % 1000)
        if alwaysFraction || millis != 0 {
            append(UInt8(ascii: "."))
            append(UInt8(48 + millis / 100))
            append(twoDigits: millis % 100)
        }
    }

    /// A `ZoneOffset` id: `+05:30`, `-04:00`, or `Z` for zero.
    mutating func append(offsetID seconds: Int32) {
        if seconds == 0 {
            append(UInt8(ascii: "Z"))
            return
        }
        append(UInt8(ascii: seconds < 0 ? "-" : "+"))
        let magnitude = Int(seconds.magnitude)
        append(twoDigits: magnitude / 3600)
        append(UInt8(ascii: ":"))
        append(twoDigits: magnitude / 60 % 60)
    }

    /// A UUID in its 8-4-4-4-12 form, marked as version 4.
    mutating func append(uuidHigh high: UInt64, low: UInt64) {
        let high = high & 0xFFFF_FFFF_FFFF_0FFF | 0x4000
        let low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        append(hex: high >> 32, digits: 8)
        append(UInt8(ascii: "-"))
        append(hex: high >> 16 & 0xFFFF, digits: 4)
        append(UInt8(ascii: "-"))
        append(hex: high & 0xFFFF, digits: 4)
        append(UInt8(ascii: "-"))
        append(hex: low >> 48, digits: 4)
        append(UInt8(ascii: "-"))
        append(hex: low & 0xFFFF_FFFF_FFFF, digits: 12)
    }

    /// A JSON string literal.
    mutating func append(jsonString text: String) {
        append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0..<0x20:
                append("\\u00")
                append(hex: UInt64(byte), digits: 2)
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// A year as four digits.
    private mutating func append(fourDigits value: Int) {
        append(twoDigits: value / 100 % 100)
        append(twoDigits: value % 100)
    }
}
