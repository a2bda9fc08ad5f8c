import Foundation
import Platform

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
    /// Of the zones that change on that date, the one named is the best known (`rank(of:)`), then
    /// the first by name.
    public static func first(atOffset offsetSeconds: Int32, from first: LocalDate, to last: LocalDate) -> ClockChange? {
        let offset = Int(offsetSeconds)
        let start = Double(Int64(first.daysSinceEpoch) * 86_400 - Int64(offset))
        let spanEnd = Double((Int64(last.daysSinceEpoch) + 1) * 86_400 - Int64(offset))
        guard start < spanEnd else { return nil }
        let middle = (start + spanEnd) / 2
        var best: (date: LocalDate, rank: Int, zone: String)?
        for (name, solarHours) in zones where canKeep(offset, at: solarHours) {
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

    /// The zones to look at: the database's own list of its zones (zone1970.tab: one a region
    /// with its own clocks since 1970, 312 names, not the 443 Foundation knows, links included),
    /// each with the hours east of Greenwich of its place (its longitude / 15), when known.
    static let zones: [(name: String, solarHours: Double?)] = {
        guard let file = try? SystemFile.open(ZoneRule.zoneDatabase + "zone1970.tab"), let bytes = try? file.readAll() else {
            return TimeZone.knownTimeZoneIdentifiers.map { ($0, nil) }
        }
        // Lines of tab-separated fields (codes, ISO 6709 coordinates, the zone's name, comments); `#` comments.
        var zones: [(name: String, solarHours: Double?)] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            if fields.count >= 3 {
                zones.append((String(decoding: fields[2], as: UTF8.self), longitude(fields[1]).map { $0 / 15 }))
            }
        }
        return zones.isEmpty ? TimeZone.knownTimeZoneIdentifiers.map { ($0, nil) } : zones
    }()

    /// The longitude of `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS`, in degrees east; nil when malformed.
    static func longitude(_ coordinates: ArraySlice<UInt8>) -> Double? {
        let text = Array(coordinates)
        guard text.count == 11 || text.count == 15 else { return nil }
        let start = text.count == 11 ? 5 : 7
        let sign: Double = text[start] == UInt8(ascii: "-") ? -1 : 1
        let digits = text[(start + 1)...].map { Int($0) - 48 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
        let degrees = digits[0] * 100 + digits[1] * 10 + digits[2]
        let minutes = digits[3] * 10 + digits[4]
        return sign * (Double(degrees) + Double(minutes) / 60)
    }

    /// Whether a zone at `solarHours` east of Greenwich can keep `offset`: no zone keeps its clocks
    /// more than three hours from its sun (western China, +8 at 75° E, is the farthest), and daylight
    /// saving adds one; four hours either way, round the date line, leave every zone that can.
    static func canKeep(_ offset: Int, at solarHours: Double?) -> Bool {
        guard let solarHours else { return true }
        let apart = abs(Double(offset) / 3600 - solarHours).truncatingRemainder(dividingBy: 24)
        return min(apart, 24 - apart) <= 4
    }

    /// Zones most people know, named first when they change on the date found; then the regions
    /// by how likely a trainee is to recognise their zones.
    private static let wellKnown = ["Europe/Berlin", "Europe/Paris", "Europe/London", "Europe/Athens", "America/New_York",
                                    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
                                    "Australia/Sydney", "Pacific/Auckland", "Asia/Jerusalem", "Africa/Cairo", "Africa/Casablanca"]
    private static let regions = ["Europe/", "America/", "Asia/", "Australia/", "Pacific/", "Atlantic/", "Indian/", "Africa/"]

    private static func rank(of name: String) -> Int {
        if let known = wellKnown.firstIndex(of: name) { return known }
        return wellKnown.count + (regions.firstIndex { name.hasPrefix($0) } ?? regions.count)
    }
}
