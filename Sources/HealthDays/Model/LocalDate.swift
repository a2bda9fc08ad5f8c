/// A calendar day with no zone attached, stored as days since 1970-01-01.
///
/// Conversions use the proleptic Gregorian calendar, computed arithmetically so
/// that formatting and parsing never touch `DateFormatter` on the hot path.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let daysSinceEpoch: Int32

    public init(daysSinceEpoch: Int32) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// The day for a civil year, month (1-12) and day of month (1-31); nil when the day does not
    /// exist or lies more than 5.8 million years from 1970 (beyond `Int32` days).
    ///
    /// Every parsed date, whatever its layout, is checked and converted here.
    @inlinable
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year),
              year.magnitude <= 5_000_000,
              let days = Int32(exactly: LocalDate.daysFromCivil(year: year, month: month, day: day))
        else {
            return nil
        }
        self.daysSinceEpoch = days
    }

    /// Parses `YYYY-MM-DD` from exactly these ten bytes; nil for anything else, including
    /// impossible dates such as 2023-02-30.
    ///
    /// The one reader of this form: file names, CSV cells, JSON values and the date part of a
    /// `Timestamp` all come here, so a day is valid in one place by one rule.
    @inlinable @inline(__always)
    public init?(_ text: UnsafeRawBufferPointer) {
        guard text.count == 10, text[4] == 0x2D, text[7] == 0x2D,
              let century = ASCIIDigits.two(text, at: 0), let yearOfCentury = ASCIIDigits.two(text, at: 2),
              let month = ASCIIDigits.two(text, at: 5), let day = ASCIIDigits.two(text, at: 8)
        else { return nil }
        self.init(year: century * 100 + yearOfCentury, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` from a slice of bytes (the first ten of a timestamp, part of a file name).
    @inlinable @inline(__always)
    public init?(_ text: Slice<UnsafeRawBufferPointer>) {
        self.init(UnsafeRawBufferPointer(rebasing: text))
    }

    /// Parses `YYYY-MM-DD` written as a string (arguments, API answers, tests).
    public init?(_ text: String) {
        var text = text
        guard let date = text.withUTF8({ LocalDate(UnsafeRawBufferPointer($0)) }) else { return nil }
        self = date
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        lhs.daysSinceEpoch < rhs.daysSinceEpoch
    }

    /// The civil year, month and day of this date.
    public var components: (year: Int, month: Int, day: Int) {
        LocalDate.civilFromDays(Int(daysSinceEpoch))
    }

    /// `YYYY-MM-DD`, the form the API and every output use.
    public var description: String {
        let (year, month, day) = components
        var bytes = [UInt8](repeating: 0, count: 10)
        LocalDate.writeDigits(year, width: 4, into: &bytes, at: 0)
        bytes[4] = UInt8(ascii: "-")
        LocalDate.writeDigits(month, width: 2, into: &bytes, at: 5)
        bytes[7] = UInt8(ascii: "-")
        LocalDate.writeDigits(day, width: 2, into: &bytes, at: 8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The next calendar day; nil after the last day a `LocalDate` can hold (5.8 million years on).
    public var next: LocalDate? {
        let (following, overflow) = daysSinceEpoch.addingReportingOverflow(1)
        return overflow ? nil : LocalDate(daysSinceEpoch: following)
    }

    private static func writeDigits(_ value: Int, width: Int, into bytes: inout [UInt8], at start: Int) {
        var rest = abs(value)
        for index in stride(from: start + width - 1, through: start, by: -1) {
            bytes[index] = UInt8(48 + rest % 10)
            rest /= 10
        }
    }

    @usableFromInline
    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    @usableFromInline
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a civil date; works for any year by counting in 400-year eras,
    /// also beyond what a `LocalDate` holds (a chart's column that starts after its last day).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`, for any number of days.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
