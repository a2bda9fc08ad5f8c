/// Reads the timestamp forms found in health exports straight from bytes, without a
/// `DateFormatter` (which would dominate the run time if made or used per record).
///
/// Accepted: `yyyy-MM-dd HH:mm:ss ±hhmm` (Apple's, not ISO 8601: a space before the offset,
/// no colon) and ISO 8601 `yyyy-MM-ddTHH:mm:ss[.fff][Z|±hh:mm|±hhmm|±hh]`; a space may stand
/// for the `T`, and the offset may be missing (then the time is a wall clock). The date is read by
/// `LocalDate` and the offset by `UTCOffset`, the one parser of each.
public enum Timestamp {
    /// The instant in milliseconds since 1970 (the wall time taken as UTC when there is no
    /// offset) and the written offset in seconds (nil when none); nil when malformed.
    @inline(__always)
    public static func parse(_ text: UnsafeRawBufferPointer) -> (ms: Int64, offset: Int32?)? {
        let count = text.count
        guard count >= 19, let date = LocalDate(text[0..<10]), text[10] == 0x20 || text[10] == 0x54,
              let hour = ASCIIDigits.two(text, at: 11), text[13] == 0x3A,
              let minute = ASCIIDigits.two(text, at: 14), text[16] == 0x3A,
              let second = ASCIIDigits.two(text, at: 17),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var index = 19
        var millis = 0
        if index < count, text[index] == 0x2E {
            index += 1
            var scale = 100
            let fractionStart = index
            while index < count, let value = ASCIIDigits.one(text, at: index) {
                millis += value * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        let localMs = (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
            + Int64(millis)
        if index == count {
            return (localMs, nil)
        }
        // Apple writes a space before the offset.
        if text[index] == 0x20 { index += 1 }
        guard let offset = UTCOffset.parse(UnsafeRawBufferPointer(rebasing: text[index...])) else { return nil }
        return (localMs - Int64(offset) * 1000, offset)
    }

    /// Reads Fitbit's `MM/dd/yy HH:mm:ss` (`07/17/22 12:23:00`), a wall clock with no zone, as
    /// milliseconds since 1970 with the wall time taken as UTC; nil when malformed.
    ///
    /// The two-digit year is 20yy: Fitbit's first tracker shipped in 2009, and the exports stop
    /// being written before 2100. The date is checked by `LocalDate`, the one date rule.
    @inline(__always)
    public static func parseMonthDayYear(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard text.count == 17, let month = ASCIIDigits.two(text, at: 0), text[2] == 0x2F,
              let day = ASCIIDigits.two(text, at: 3), text[5] == 0x2F,
              let year = ASCIIDigits.two(text, at: 6), text[8] == 0x20,
              let hour = ASCIIDigits.two(text, at: 9), text[11] == 0x3A,
              let minute = ASCIIDigits.two(text, at: 12), text[14] == 0x3A,
              let second = ASCIIDigits.two(text, at: 15),
              hour <= 23, minute <= 59, second <= 59,
              let date = LocalDate(year: 2000 + year, month: month, day: day)
        else { return nil }
        return (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
    }

    /// Parses a timestamp given as a string (tests, small inputs).
    public static func parse(_ text: String) -> (ms: Int64, offset: Int32?)? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }
}
