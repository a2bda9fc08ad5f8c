/// A proleptic Gregorian calendar date, converted to and from a day number
/// (days since 1970-01-01) with integer arithmetic only.
///
/// Hand-rolled rather than Foundation's `Calendar` because it runs for every
/// timestamp the generator writes and must never depend on the host's settings.
struct CivilDate: Equatable {
    let year: Int
    let month: Int
    let day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (days since 1970-01-01, may be negative).
    init(dayNumber: Int) {
        // Shift the epoch to 0000-03-01 so that leap days fall at the end of a
        // year, then split into 400-year eras of exactly 146097 days.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Days since 1970-01-01.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Day of the week of a day number, 0 = Monday ... 6 = Sunday
    /// (1970-01-01 was a Thursday).
    static func weekday(ofDayNumber dayNumber: Int) -> Int {
        ((dayNumber + 3) % 7 + 7) % 7
    }

    /// Parses `YYYY-MM-DD` strictly (four-digit year, real calendar date).
    init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1
        else { return nil }
        let candidate = CivilDate(year: year, month: month, day: day)
        // A date like 2023-02-30 normalises to another day: reject it.
        guard CivilDate(dayNumber: candidate.dayNumber) == candidate else { return nil }
        self = candidate
    }

    /// `YYYY-MM-DD`.
    var text: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
