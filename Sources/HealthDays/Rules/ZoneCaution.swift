import Foundation

/// A zone of the database that is not a place (`EST`, `CET`, `PST8PDT`): taken as it is, but it
/// is rarely what a trainee's phone followed, so the one who gave it is told what it means and
/// which city zone people usually mean by it.
public struct ZoneCaution: Equatable, Sendable, CustomStringConvertible {
    /// The name as given.
    public let name: String
    /// The zone's offsets in January and July of this year, seconds east of UTC.
    public let winterOffset: Int32
    public let summerOffset: Int32
    /// The city zones people usually mean by it.
    public let usuallyMeant: [String]

    /// The names that stand for a rule or a fixed offset rather than a place, with the city zones
    /// usually meant by them.
    static let meant: [String: [String]] = [
        "EST": ["America/New_York"], "MST": ["America/Denver"], "HST": ["Pacific/Honolulu"],
        "CET": ["Europe/Berlin", "Europe/Paris"], "MET": ["Europe/Berlin", "Europe/Paris"],
        "EET": ["Europe/Athens", "Europe/Helsinki"], "WET": ["Europe/Lisbon"],
        "EST5EDT": ["America/New_York"], "CST6CDT": ["America/Chicago"], "MST7MDT": ["America/Denver"],
        "PST8PDT": ["America/Los_Angeles"],
    ]

    /// The caution for `zone` when its name is one of those; nil for a place.
    public init?(_ zone: TimeZone, now: Date = Date()) {
        guard let usuallyMeant = Self.meant[zone.identifier] else { return nil }
        let year = Calendar(identifier: .gregorian).component(.year, from: now)
        func offset(month: Int) -> Int32 {
            let date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                      year: year, month: month, day: 15).date ?? now
            return Int32(zone.secondsFromGMT(for: date))
        }
        name = zone.identifier
        winterOffset = offset(month: 1)
        summerOffset = offset(month: 7)
        self.usuallyMeant = usuallyMeant
    }

    public var description: String {
        let cities = usuallyMeant.count == 1 ? usuallyMeant[0] : usuallyMeant.dropLast().joined(separator: ", ") + " or " + usuallyMeant.last!
        if winterOffset == summerOffset {
            return "\(name) is UTC\(Self.format(winterOffset)) all year, with no daylight saving; "
                + "if the trainee's clocks change, give their city's zone, such as \(cities)"
        }
        return "\(name) is UTC\(Self.format(winterOffset)), and \(Self.format(summerOffset)) in summer, by a rule of no "
            + "one place; give the trainee's city zone, such as \(cities), for the rules their phone followed"
    }

    /// `-05:00`, `+01:00`.
    private static func format(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = Int(seconds.magnitude) / 60
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
