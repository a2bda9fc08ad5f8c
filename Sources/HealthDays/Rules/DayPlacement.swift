/// The one zone rule (docs/domain.md) for metrics placed on a day by one instant (a sample's
/// start, a sleep period's end, a workout's start), as `DayAggregator` places step samples.
struct DayPlacement {
    private let calendar: ZoneCalendar?

    init(rule: ZoneRule) {
        if case .zone(let zone) = rule {
            calendar = ZoneCalendar(zone: zone)
        } else {
            calendar = nil
        }
    }

    /// The instant a time read from a file stands for: under `--tz` a wall-clock time (no zone
    /// in the file) is that zone's local time; otherwise it stays as written (taken as UTC).
    func instant(_ ms: Int64, wallClock: Bool) -> Int64 {
        guard wallClock, let calendar else { return ms }
        return calendar.instant(ofWallTime: ms)
    }

    /// The local day of an instant: in the `--tz` zone, else on the clock of the offset the
    /// record carries (UTC where it carries none).
    func day(of instant: Int64, offsetSeconds: Int32?) -> Int32 {
        if let calendar { return calendar.day(containing: instant).day }
        return Int32(truncatingIfNeeded: floorDiv(instant + Int64(offsetSeconds ?? 0) * 1000, 86_400_000))
    }
}
