import Foundation

/// Which local day an instant falls on, by one of the two zone rules of
/// docs/rules.md (*The highest-source rule*, rule 5), for the expected totals:
/// the offset the file writes on every timestamp (`+0100`), or Berlin's wall
/// clock with its daylight saving time
/// (`--tz Europe/Berlin`), taken from Foundation's `TimeZone`, so that it checks
/// the generator's hand-written `BerlinClock` independently.
struct DayPlacement {
    /// The day (days since 1970-01-01 on the local calendar) of an instant.
    let day: (Int64) -> Int64
    /// The instant of the local midnight that starts a day.
    let midnight: (Int64) -> Int64

    /// Days of the offset in the timestamp text: the file writes every timestamp
    /// at +01:00, so its local midnights are 23:00 UTC.
    static var fileOffset: DayPlacement {
        let offset = appleExportOffsetSeconds
        return DayPlacement(day: { floorDivide($0 + offset, 86_400) }, midnight: { $0 * 86_400 - offset })
    }

    /// Days on the wall clock of the zone `identifier`, daylight saving time included.
    static func zone(_ identifier: String) -> DayPlacement {
        let zone = TimeZone(identifier: identifier)!
        func offset(_ instant: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))))
        }
        let midnights = MidnightCache()
        return DayPlacement(
            day: { floorDivide($0 + offset($0), 86_400) },
            midnight: { day in
                if let known = midnights.instants[day] { return known }
                // Find the instant whose wall clock reads 00:00 of `day` (midnight is
                // never inside a Berlin DST change, so this settles).
                let wall = day * 86_400
                var instant = wall - 3600
                for _ in 0..<4 {
                    let candidate = wall - offset(instant)
                    if candidate == instant { break }
                    instant = candidate
                }
                midnights.instants[day] = instant
                return instant
            })
    }

    /// The midnights found so far, shared by the closures of one placement.
    private final class MidnightCache {
        var instants: [Int64: Int64] = [:]
    }
}
