import Foundation

/// Finds the local calendar day of an instant in one IANA zone, caching day boundaries.
///
/// Samples arrive roughly in time order, so almost every lookup is answered by the
/// day found last; Foundation's zone database is asked once per new day, not per sample.
final class ZoneCalendar {
    private let zone: TimeZone
    /// The day found last: read for every time placed, so unchecked (each calendar is one
    /// aggregator's, on one thread) to spare a dynamic exclusivity check per read.
    @exclusivity(unchecked) private var cachedDay: Int32 = 0
    @exclusivity(unchecked) private var cachedStartMs: Int64 = 1
    @exclusivity(unchecked) private var cachedEndMs: Int64 = 0
    private var dayStarts: [Int32: Int64] = [:]

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// The local day containing `instantMs`, with the UTC instants at which that day starts and ends.
    func day(containing instantMs: Int64) -> (day: Int32, startMs: Int64, endMs: Int64) {
        if instantMs >= cachedStartMs && instantMs < cachedEndMs {
            return (cachedDay, cachedStartMs, cachedEndMs)
        }
        let day = localDay(of: instantMs)
        cachedDay = day
        cachedStartMs = start(of: day)
        cachedEndMs = start(of: day + 1)
        return (day, cachedStartMs, cachedEndMs)
    }

    /// The UTC instant at which the wall-clock time `localMs` (milliseconds since 1970 on the local clock) occurs.
    ///
    /// A wall time inside a DST gap is moved forward by the gap, as clocks do; one that occurs
    /// twice (the repeated hour in autumn) is read as its first occurrence.
    func instant(ofWallTime localMs: Int64) -> Int64 {
        let offsetBefore = offsetMs(at: localMs - 86_400_000)
        let offsetAfter = offsetMs(at: localMs + 86_400_000)
        let early = localMs - offsetBefore
        let late = localMs - offsetAfter
        let earlyFits = offsetMs(at: early) == offsetBefore
        let lateFits = offsetMs(at: late) == offsetAfter
        switch (earlyFits, lateFits) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        case (false, false): return early
        }
    }

    /// The wall clock of the zone at an instant, as milliseconds since 1970 on that clock.
    func wallTime(ofInstant instantMs: Int64) -> Int64 {
        instantMs + offsetMs(at: instantMs)
    }

    private func offsetMs(at instantMs: Int64) -> Int64 {
        let seconds = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(floorDiv(instantMs, 1000))))
        return Int64(seconds) * 1000
    }

    private func localDay(of instantMs: Int64) -> Int32 {
        Int32(floorDiv(instantMs + offsetMs(at: instantMs), 86_400_000))
    }

    /// The first UTC instant (to the second) whose local date is `day`.
    ///
    /// A binary search over the instants around local midnight copes with every kind of
    /// transition, including zones whose clocks jump at midnight so that 00:00 never occurs.
    private func start(of day: Int32) -> Int64 {
        if let known = dayStarts[day] { return known }
        let midnight = Int64(day) * 86_400_000
        // No zone is more than 26 hours from UTC, so the start lies within these bounds.
        var low = floorDiv(midnight - 27 * 3_600_000, 1000)
        var high = floorDiv(midnight + 27 * 3_600_000, 1000)
        while low < high {
            let middle = low + (high - low) / 2
            if localDay(of: middle * 1000) >= day {
                high = middle
            } else {
                low = middle + 1
            }
        }
        let result = low * 1000
        dayStarts[day] = result
        return result
    }
}

/// Floor division, correct for negative dividends (times before 1970).
@inline(__always)
package func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
