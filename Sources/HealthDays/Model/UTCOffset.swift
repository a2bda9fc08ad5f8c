/// The one reader of UTC offsets, straight from bytes; results are seconds east of UTC.
///
/// Exports use two notations. Written, as in ISO 8601 and Apple's timestamps: `Z`, `±hh:mm`,
/// `±hhmm` or `±hh`. Counted, as Health Connect stores a zone offset: a whole number of seconds.
/// `Timestamp`, the JSON reader and the CSV reader all come here.
public enum UTCOffset {
    /// The widest counted offset, ±18 hours in seconds (the range of java.time's `ZoneOffset`,
    /// which Health Connect uses).
    public static let maximumSeconds: Int32 = 64_800

    /// `Z`, `±hh:mm`, `±hhmm` or `±hh`, the whole of `text`; nil for anything else, or for hours
    /// past 18 or minutes past 59 (so `+18:30` is taken: the written bound is on each field).
    ///
    /// `lowercaseZ` also takes `z` for UTC. Only the CSV reader's offset cells and Google Fit's
    /// times of day have taken it; a `Timestamp` and the JSON reader's offsets refuse it.
    @inlinable @inline(__always)
    public static func parse(_ text: UnsafeRawBufferPointer, lowercaseZ: Bool = false) -> Int32? {
        let count = text.count
        if count == 1 {
            return text[0] == 0x5A || (lowercaseZ && text[0] == 0x7A) ? 0 : nil
        }
        guard count == 3 || count == 5 || count == 6, text[0] == 0x2B || text[0] == 0x2D,
              let hours = ASCIIDigits.two(text, at: 1)
        else { return nil }
        var minutes = 0
        if count == 5 {
            guard let written = ASCIIDigits.two(text, at: 3) else { return nil }
            minutes = written
        } else if count == 6 {
            guard text[3] == 0x3A, let written = ASCIIDigits.two(text, at: 4) else { return nil }
            minutes = written
        }
        guard hours <= 18, minutes <= 59 else { return nil }
        let seconds = Int32(hours * 3600 + minutes * 60)
        return text[0] == 0x2D ? -seconds : seconds
    }

    /// Parses a written offset given as a string (tests, small inputs).
    public static func parse(_ text: String, lowercaseZ: Bool = false) -> Int32? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0), lowercaseZ: lowercaseZ) }
    }

    /// A counted offset, the whole of `text`: an optional `+` or `-` and one to six digits
    /// (`19800`, `-14400`), at most `maximumSeconds` either way; nil for anything else.
    @inlinable @inline(__always)
    public static func parse(seconds text: UnsafeRawBufferPointer) -> Int32? {
        let count = text.count
        var index = 0
        if count > 1, text[0] == 0x2B || text[0] == 0x2D {
            index = 1
        }
        guard index < count, count - index <= 6 else { return nil }
        var value: Int32 = 0
        while index < count {
            guard let digit = ASCIIDigits.one(text, at: index) else { return nil }
            value = value * 10 + Int32(digit)
            index += 1
        }
        guard value <= maximumSeconds else { return nil }
        return text[0] == 0x2D ? -value : value
    }

    /// Parses a counted offset given as a string (tests, small inputs).
    public static func parse(seconds text: String) -> Int32? {
        var text = text
        return text.withUTF8 { parse(seconds: UnsafeRawBufferPointer($0)) }
    }
}
