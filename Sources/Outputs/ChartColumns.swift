import HealthDays

/// The columns of `SourceChart`: a span of days cut into calendar periods (days, weeks from Monday
/// to Sunday, months, quarters, or years, several to a column), each day in exactly one column.
///
/// Days are counted as `Int` days since 1970-01-01, so that no span a `LocalDate` can hold (5.8
/// million years either way) overflows, not even the start of the column after the last.
struct ChartColumns {
    /// What one column holds.
    enum Period: Equatable {
        case day, week, month, quarter
        /// A column of `n` calendar years, aligned on multiples of `n` (2010 to 2019 for 10).
        case years(Int)
    }

    let period: Period
    /// The span's first and last day.
    let first: Int
    let last: Int
    /// How many columns the span takes.
    let count: Int

    init(period: Period, first: Int, last: Int) {
        self.period = period
        self.first = first
        self.last = last
        count = Self.index(of: last, period: period, first: first) + 1
    }

    /// The finest period whose columns fit in `room`: day, week, month, quarter, year, then years
    /// by 2, 5, 10, 20, 50 and so on.
    static func fitting(first: Int, last: Int, room: Int) -> ChartColumns {
        for period in [Period.day, .week, .month, .quarter] {
            let columns = ChartColumns(period: period, first: first, last: last)
            if columns.count <= room { return columns }
        }
        var years = 1
        while true {
            for step in [1, 2, 5] {
                let columns = ChartColumns(period: .years(years * step), first: first, last: last)
                // At most two columns once a column spans more years than the span: always ends.
                if columns.count <= max(room, 2) { return columns }
            }
            years *= 10
        }
    }

    /// The column holding `day` (a day of the span).
    func index(of day: Int) -> Int {
        Self.index(of: day, period: period, first: first)
    }

    private static func index(of day: Int, period: Period, first: Int) -> Int {
        switch period {
        case .day: return day - first
        case .week: return (monday(of: day) - monday(of: first)) / 7
        case .month: return monthNumber(of: day) - monthNumber(of: first)
        case .quarter: return floorDivision(monthNumber(of: day), 3) - floorDivision(monthNumber(of: first), 3)
        case .years(let years): return floorDivision(year(of: day), years) - floorDivision(year(of: first), years)
        }
    }

    /// The first and last day of column `index` within the span.
    func days(of index: Int) -> ClosedRange<Int> {
        max(start(of: index), first)...min(start(of: index + 1) - 1, last)
    }

    /// The first day of column `index`'s period, which may lie before the span (the first column)
    /// or after it (the column after the last).
    private func start(of index: Int) -> Int {
        switch period {
        case .day:
            return first + index
        case .week:
            return Self.monday(of: first) + 7 * index
        case .month:
            let month = Self.monthNumber(of: first) + index
            return LocalDate.daysFromCivil(year: Self.floorDivision(month, 12), month: Self.floorModulo(month, 12) + 1, day: 1)
        case .quarter:
            let month = (Self.floorDivision(Self.monthNumber(of: first), 3) + index) * 3
            return LocalDate.daysFromCivil(year: Self.floorDivision(month, 12), month: Self.floorModulo(month, 12) + 1, day: 1)
        case .years(let years):
            let year = (Self.floorDivision(Self.year(of: first), years) + index) * years
            return LocalDate.daysFromCivil(year: year, month: 1, day: 1)
        }
    }

    /// The first first-of-a-month within `days`, as `YYYY-MM`; nil when there is none.
    func monthStart(within days: ClosedRange<Int>) -> String? {
        let (year, month, day) = LocalDate.civilFromDays(days.lowerBound)
        let next = day == 1 ? year * 12 + month - 1 : year * 12 + month
        let (startYear, startMonth) = (Self.floorDivision(next, 12), Self.floorModulo(next, 12) + 1)
        guard LocalDate.daysFromCivil(year: startYear, month: startMonth, day: 1) <= days.upperBound else { return nil }
        return String(startYear) + (startMonth < 10 ? "-0" : "-") + String(startMonth)
    }

    /// The first 1 January within `days` of a year that is a multiple of `multiple`, as the year;
    /// nil when there is none.
    func yearStart(within days: ClosedRange<Int>, multiple: Int) -> String? {
        let (year, month, day) = LocalDate.civilFromDays(days.lowerBound)
        let candidate = month == 1 && day == 1 ? year : year + 1
        let start = Self.floorDivision(candidate + multiple - 1, multiple) * multiple
        guard LocalDate.daysFromCivil(year: start, month: 1, day: 1) <= days.upperBound else { return nil }
        return String(start)
    }

    // MARK: - The calendar, on days since 1970-01-01

    /// The Monday on or before `day` (1970-01-01 was a Thursday).
    static func monday(of day: Int) -> Int {
        day - floorModulo(day + 3, 7)
    }

    /// Months since year 0: year × 12 + month - 1.
    static func monthNumber(of day: Int) -> Int {
        let (year, month, _) = LocalDate.civilFromDays(day)
        return year * 12 + month - 1
    }

    static func year(of day: Int) -> Int {
        LocalDate.civilFromDays(day).year
    }

    static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return value % divisor != 0 && (value < 0) != (divisor < 0) ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        value - floorDivision(value, divisor) * divisor
    }
}
