/// The time zones the synthetic Health Connect user lives and travels in, with their
/// daylight-saving rules coded by hand.
///
/// Hand-coded (like `BerlinClock`) so that the output never depends on the host's tz
/// database; the rules are the current ones (EU since 1996, US since 2007, India has none).
enum TravelZone: CaseIterable {
    /// Home: CET/CEST, summer time from the last Sunday of March to the last Sunday of October at 01:00 UTC.
    case berlin
    /// A trip: EST/EDT, summer time from the second Sunday of March (02:00 local) to the first
    /// Sunday of November (02:00 local).
    case newYork
    /// A trip: IST, +05:30 all year, an offset that is not a whole hour.
    case kolkata

    /// The IANA name, for help texts.
    var identifier: String {
        switch self {
        case .berlin: return "Europe/Berlin"
        case .newYork: return "America/New_York"
        case .kolkata: return "Asia/Kolkata"
        }
    }

    /// Seconds east of UTC at `instant` (seconds since 1970).
    func offset(at instant: Int64) -> Int64 {
        switch self {
        case .kolkata:
            return 19_800
        case .berlin:
            let year = CivilDate(dayNumber: Int(floorDivide(instant, 86_400))).year
            let start = TravelZone.lastSunday(year: year, month: 3) * 86_400 + 3600
            let end = TravelZone.lastSunday(year: year, month: 10) * 86_400 + 3600
            return instant >= start && instant < end ? 7200 : 3600
        case .newYork:
            let year = CivilDate(dayNumber: Int(floorDivide(instant - 18_000, 86_400))).year
            // 02:00 EST is 07:00 UTC; 02:00 EDT is 06:00 UTC.
            let start = TravelZone.nthSunday(2, year: year, month: 3) * 86_400 + 7 * 3600
            let end = TravelZone.nthSunday(1, year: year, month: 11) * 86_400 + 6 * 3600
            return instant >= start && instant < end ? -14_400 : -18_000
        }
    }

    /// The instant a wall-clock reading denotes, the reading given as seconds since 1970-01-01
    /// 00:00 on the wall clock. A reading in the spring gap moves forward; one in the autumn
    /// overlap takes the summer pass. (The generator never places records at these hours.)
    func instant(wallClock local: Int64) -> Int64 {
        switch self {
        case .kolkata:
            return local - 19_800
        case .berlin, .newYork:
            let summer: Int64 = self == .berlin ? 7200 : -14_400
            let candidate = local - summer
            return offset(at: candidate) == summer ? candidate : local - (summer - 3600)
        }
    }

    /// Day number of the last Sunday of `month`.
    private static func lastSunday(year: Int, month: Int) -> Int64 {
        let next = month == 12 ? CivilDate(year: year + 1, month: 1, day: 1) : CivilDate(year: year, month: month + 1, day: 1)
        let last = next.dayNumber - 1
        let weekday = CivilDate.weekday(ofDayNumber: last)  // 6 = Sunday
        return Int64(last - (weekday + 1) % 7)
    }

    /// Day number of the `n`th Sunday of `month`.
    private static func nthSunday(_ n: Int, year: Int, month: Int) -> Int64 {
        let first = CivilDate(year: year, month: month, day: 1).dayNumber
        let weekday = CivilDate.weekday(ofDayNumber: first)
        return Int64(first + (6 - weekday) + 7 * (n - 1))
    }
}

/// Where the user is on each generated day: at home in Berlin, with a week in New York and a
/// few days in Kolkata in every 90-day stretch (so a 30-day sample already holds both trips).
///
/// The zone changes at the start of a day: that day's walks are on the new zone's clock, and a
/// record carries the offset its zone has at its own instant (DST changes included).
enum Itinerary {
    static let cycleLength = 90
    static let newYorkDays = 14..<21
    static let kolkataDays = 24..<28

    /// The zone of day `dayIndex` (0 = the first generated day).
    static func zone(dayIndex: Int) -> TravelZone {
        let dayInCycle = dayIndex % cycleLength
        if newYorkDays.contains(dayInCycle) { return .newYork }
        if kolkataDays.contains(dayInCycle) { return .kolkata }
        return .berlin
    }
}
