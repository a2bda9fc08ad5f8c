/// Reads Apple Health's timestamp form, `yyyy-MM-dd HH:mm:ss ±hhmm`, straight from bytes.
///
/// Apple's form is not ISO 8601 (a space before the offset, no colon in it), and a
/// `DateFormatter` per record would dominate the run time, so this is done by hand.
/// A `T` between date and time, a colon in the offset and `Z` are accepted too.
enum AppleTimestamp {
    /// The instant in milliseconds since 1970 (UTC) and the written offset in seconds; nil when malformed.
    @inline(__always)
    static func parse(_ text: UnsafeRawBufferPointer) -> (ms: Int64, offset: Int32)? {
        let count = text.count
        guard count >= 19 else { return nil }
        @inline(__always) func digit(_ index: Int) -> Int? {
            let value = Int(text[index]) &- 48
            return value >= 0 && value <= 9 ? value : nil
        }
        @inline(__always) func two(_ index: Int) -> Int? {
            guard let high = digit(index), let low = digit(index + 1) else { return nil }
            return high * 10 + low
        }
        guard let y1 = two(0), let y2 = two(2), text[4] == 0x2D, let month = two(5), text[7] == 0x2D,
              let day = two(8), text[10] == 0x20 || text[10] == 0x54,
              let hour = two(11), text[13] == 0x3A, let minute = two(14), text[16] == 0x3A,
              let second = two(17)
        else { return nil }
        let year = y1 * 100 + y2
        guard month >= 1, month <= 12, day >= 1, day <= LocalDate.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var index = 19
        // Fractions of a second are not written by Apple; skip them if another tool did.
        if index < count, text[index] == 0x2E {
            index += 1
            while index < count, digit(index) != nil { index += 1 }
        }
        if index < count, text[index] == 0x20 { index += 1 }
        guard index < count else { return nil }
        var offset = 0
        if text[index] == 0x5A {  // Z
            index += 1
        } else {
            let sign = text[index]
            guard sign == 0x2B || sign == 0x2D, index + 5 <= count, let hours = two(index + 1) else { return nil }
            var minutesAt = index + 3
            if text[minutesAt] == 0x3A { minutesAt += 1 }
            guard minutesAt + 2 <= count, let minutes = two(minutesAt), hours <= 18, minutes <= 59 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == 0x2D ? -1 : 1)
            index = minutesAt + 2
        }
        guard index == count else { return nil }
        let days = LocalDate.daysFromCivil(year: year, month: month, day: day)
        let localSeconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return ((localSeconds - Int64(offset)) * 1000, Int32(offset))
    }
}
