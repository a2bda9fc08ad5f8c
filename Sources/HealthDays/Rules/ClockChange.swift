import Foundation

/// A change of clocks in a zone that keeps a given UTC offset on one side of it: where a date
/// read at that fixed offset stops being the date the zone's clocks showed.
///
/// Apple writes every timestamp of an export with the phone's offset at export time (docs/rules.md,
/// rule 5): when that offset is one that zones leave or take up on some date inside the export,
/// the samples on the other side of that date were written an hour off, and days near midnight
/// may be too.
public struct ClockChange: Equatable, Sendable {
    /// The local date of the change, at the offset.
    public let date: LocalDate
    /// A zone that changes its clocks then (the first by name among those that do).
    public let zone: String

    public init(date: LocalDate, zone: String) {
        self.date = date
        self.zone = zone
    }

    /// The first change of clocks for daylight saving strictly inside the days `first` to `last`
    /// (read at `offsetSeconds`) in a zone of the system's database whose offset is `offsetSeconds`
    /// just before or just after it; nil when there is none, and so when every sample lies on one side.
    /// Of the zones that change on that date, the one named is the first of the best-known regions
    /// (Europe, the Americas, Asia, ...), then by name.
    public static func first(atOffset offsetSeconds: Int32, from first: LocalDate, to last: LocalDate) -> ClockChange? {
        let offset = Int(offsetSeconds)
        let start = Double(Int64(first.daysSinceEpoch) * 86_400 - Int64(offset))
        let spanEnd = Double((Int64(last.daysSinceEpoch) + 1) * 86_400 - Int64(offset))
        guard start < spanEnd else { return nil }
        let middle = (start + spanEnd) / 2
        var best: (date: LocalDate, rank: Int, zone: String)?
        for name in TimeZone.knownTimeZoneIdentifiers {
            guard let zone = TimeZone(identifier: name) else { continue }
            // Only zones at the offset somewhere in the span (at its ends, its middle or half a year
            // in) can leave it or take it up; the others are passed over in a few calls.
            let probes = [start, middle, spanEnd - 1, min(spanEnd - 1, start + 182 * 86_400)]
            guard probes.contains(where: { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) == offset }) else { continue }
            // Past the end of the best date found so far, no change can beat it.
            let end = best.map { min(spanEnd, Double((Int64($0.date.daysSinceEpoch) + 1) * 86_400 - Int64(offset))) } ?? spanEnd
            var after = Date(timeIntervalSince1970: start)
            while let change = zone.nextDaylightSavingTimeTransition(after: after), change.timeIntervalSince1970 < end {
                // A change for daylight saving (not a zone moving its standard offset for good)
                // that leaves the offset or takes it up.
                let earlier = change.addingTimeInterval(-1)
                let before = zone.secondsFromGMT(for: earlier)
                if zone.isDaylightSavingTime(for: earlier) != zone.isDaylightSavingTime(for: change),
                   before == offset || zone.secondsFromGMT(for: change) == offset {
                    let seconds = Int64(change.timeIntervalSince1970.rounded(.down)) + Int64(offset)
                    let candidate = (date: LocalDate(daysSinceEpoch: Int32(floorDiv(seconds, 86_400))), rank: rank(of: name), zone: name)
                    if best.map({ (candidate.date, candidate.rank, candidate.zone) < ($0.date, $0.rank, $0.zone) }) ?? true {
                        best = candidate
                    }
                    break
                }
                after = change
            }
        }
        return best.map { ClockChange(date: $0.date, zone: $0.zone) }
    }

    /// Regions by how likely a trainee is to recognise their zones.
    private static let regions = ["Europe/", "America/", "Asia/", "Australia/", "Pacific/", "Atlantic/", "Indian/", "Africa/"]

    private static func rank(of name: String) -> Int {
        regions.firstIndex { name.hasPrefix($0) } ?? regions.count
    }
}
