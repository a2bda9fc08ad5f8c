/// The wall clock of the export's owner, who lives in Europe/Berlin.
///
/// The person's day (wake-up, commute, lunch walk) follows this clock, while the
/// file writes every timestamp with the fixed export-time offset `+0100`; that
/// gap is what makes summer samples an hour off, as in real exports. The EU rule
/// (summer time from the last Sunday of March to the last Sunday of October,
/// switching at 01:00 UTC) is coded by hand so the generator does not depend on
/// the host's tz database, and so the expected totals, which use Foundation's
/// `TimeZone`, check it independently.
enum BerlinClock {
    /// Seconds east of UTC on Berlin clocks at `instant` (3600 or 7200).
    static func offset(at instant: Int64) -> Int64 {
        let year = CivilDate(dayNumber: Int(floorDivide(instant, 86_400))).year
        let (start, end) = summerTime(year: year)
        return instant >= start && instant < end ? 7200 : 3600
    }

    /// The instant a Berlin wall-clock reading denotes, given as seconds since
    /// 1970-01-01 00:00 on the wall clock. A reading inside the spring gap moves
    /// one hour forward; one inside the autumn overlap takes the first (summer) pass.
    static func instant(wallClock local: Int64) -> Int64 {
        let asSummer = local - 7200
        return offset(at: asSummer) == 7200 ? asSummer : local - 3600
    }

    /// The instant of local midnight starting Berlin date `dayNumber`.
    static func midnight(dayNumber: Int) -> Int64 {
        instant(wallClock: Int64(dayNumber) * 86_400)
    }

    /// The instant of `secondsIntoDay` on the Berlin clock on `dayNumber`
    /// (values of 86400 and more run into the next day).
    static func instant(dayNumber: Int, secondsIntoDay: Int64) -> Int64 {
        instant(wallClock: Int64(dayNumber) * 86_400 + secondsIntoDay)
    }

    /// Seconds since local midnight of the Berlin wall-clock time at `instant`.
    static func secondsIntoDay(at instant: Int64) -> Int64 {
        let local = instant + offset(at: instant)
        return local - floorDivide(local, 86_400) * 86_400
    }

    /// UTC instants at which summer time starts and ends in `year`.
    private static func summerTime(year: Int) -> (Int64, Int64) {
        func lastSunday(month: Int) -> Int64 {
            let last = CivilDate(year: year, month: month, day: 31).dayNumber
            let weekday = CivilDate.weekday(ofDayNumber: last)  // 6 = Sunday
            return Int64(last - (weekday + 1) % 7)
        }
        return (lastSunday(month: 3) * 86_400 + 3600, lastSunday(month: 10) * 86_400 + 3600)
    }
}
