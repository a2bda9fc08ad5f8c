/// The one zone rule (docs/rules.md, rule 5, *Which zone*): on which local day a time falls, and where
/// that day ends. Every aggregator and the census place what they are handed through it.
///
/// Times are placed on the *placing clock*: under the recorded-offset rule, local milliseconds
/// (the instant plus the offset the record carries, UTC where it carries none), whose days are
/// fixed 24-hour spans; under `--tz`, instants, whose days end at that zone's real midnights (a
/// 23- or 25-hour day on a change of clocks), a wall-clock time read as that zone's local time.
struct DayPlacement {
    private let calendar: ZoneCalendar?

    init(rule: ZoneRule) {
        if case .zone(let zone) = rule {
            calendar = ZoneCalendar(zone: zone)
        } else {
            calendar = nil
        }
    }

    /// Whether wall-clock times are read as a zone's local time (`--tz`); otherwise they are taken as UTC.
    var readsWallClocksInZone: Bool { calendar != nil }

    /// The instant a time read from a file stands for: under `--tz` a wall-clock time (no zone
    /// in the file) is that zone's local time; otherwise it stays as written (taken as UTC).
    @inline(__always)
    func instant(_ ms: Int64, wallClock: Bool) -> Int64 {
        guard wallClock, let calendar else { return ms }
        return calendar.instant(ofWallTime: ms)
    }

    /// A time on the placing clock: an instant (`instant(_:wallClock:)`) shifted by the record's
    /// own offset under the recorded-offset rule, left as it is under `--tz`.
    @inline(__always)
    func clockTime(ofInstant instant: Int64, offsetSeconds: Int32?) -> Int64 {
        calendar == nil ? instant + Int64(offsetSeconds ?? 0) * 1000 : instant
    }

    /// A sample's start and end on the placing clock; under `--tz` a wall-clock end never before its start.
    @inline(__always)
    func clockSpan(of sample: HealthSample) -> (start: Int64, end: Int64) {
        if let calendar {
            guard sample.wallClock else { return (sample.startMs, sample.endMs) }
            let start = calendar.instant(ofWallTime: sample.startMs)
            return (start, max(start, calendar.instant(ofWallTime: sample.endMs)))
        }
        let shift = Int64(sample.offsetSeconds ?? 0) * 1000
        return (sample.startMs + shift, sample.endMs + shift)
    }

    /// A time of the placing clock as a wall clock shows it (milliseconds since 1970 on that clock):
    /// under the recorded-offset rule it is one already; under `--tz`, the zone's clock then.
    func wallTime(ofClockTime time: Int64) -> Int64 {
        calendar?.wallTime(ofInstant: time) ?? time
    }

    /// The local day holding a time of the placing clock, and where on that clock the day ends.
    @inline(__always)
    func day(containing time: Int64) -> (day: Int32, end: Int64) {
        if let calendar {
            let day = calendar.day(containing: time)
            return (day.day, day.endMs)
        }
        let day = floorDiv(time, 86_400_000)
        return (Int32(truncatingIfNeeded: day), (day + 1) * 86_400_000)
    }

    /// The local day of an instant: in the `--tz` zone, else on the clock of the offset the
    /// record carries (UTC where it carries none).
    @inline(__always)
    func day(of instant: Int64, offsetSeconds: Int32?) -> Int32 {
        day(containing: clockTime(ofInstant: instant, offsetSeconds: offsetSeconds)).day
    }

    /// Calls `body` with each local day that the span [`start`, `end`) of the placing clock
    /// covers, starting in `first` (`day(containing: start)`), and the part of the span on it,
    /// split at midnight.
    @inline(__always)
    func forEachDay(from start: Int64, to end: Int64, startingIn first: (day: Int32, end: Int64),
                    _ body: (_ day: Int32, _ from: Int64, _ to: Int64) -> Void) {
        var piece = first
        var pieceStart = start
        while pieceStart < end {
            let pieceEnd = min(end, piece.end)
            body(piece.day, pieceStart, pieceEnd)
            pieceStart = pieceEnd
            if pieceStart < end { piece = day(containing: pieceStart) }
        }
    }
}
