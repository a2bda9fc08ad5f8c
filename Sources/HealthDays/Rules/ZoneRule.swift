import DisplayText
import Foundation
import Platform

/// Which clock decides a sample's calendar day.
public enum ZoneRule: Sendable, Equatable {
    /// Each sample is placed in the offset it carries (samples without one in UTC).
    case recordedOffset
    /// Every sample is placed in this IANA zone, with its daylight-saving rules.
    case zone(TimeZone)

    /// Parses a zone: a name of the system's zone database (`Europe/Berlin`, `UTC`, `CET`, a link
    /// such as `US/Eastern`), or a fixed offset (`+05:30`, `-0300`, `+09`). nil for anything else,
    /// abbreviations such as `PST` included (they name no rules: `suggestion(for:)` says which
    /// zone was probably meant).
    public static func named(_ identifier: String) -> ZoneRule? {
        if let first = identifier.unicodeScalars.first, first == "+" || first == "-" {
            guard let seconds = UTCOffset.parse(identifier), let zone = TimeZone(secondsFromGMT: Int(seconds)) else {
                return nil
            }
            return .zone(zone)
        }
        guard isInZoneDatabase(identifier), let zone = TimeZone(identifier: identifier) else { return nil }
        return .zone(zone)
    }

    /// Where the system's zone database lives (tzdata).
    static let zoneDatabase = "/usr/share/zoneinfo/"

    /// Whether `name` is a zone of the system's database: one Foundation lists, or a file of
    /// tzdata (`CET`, `US/Eastern`, `Etc/GMT+5`), never a path outside it.
    static func isInZoneDatabase(_ name: String) -> Bool {
        if TimeZone.knownTimeZoneIdentifiers.contains(name) || name == "UTC" { return true }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+".unicodeScalars.contains($0) }),
              let status = try? FileStatus.of(path: zoneDatabase + name)
        else { return false }
        return status.kind == .regular
    }

    /// The zone a user probably meant by a name `named` refuses: the same name in other case
    /// (`europe/berlin`), the zone an abbreviation stands for (`PST`), or the nearest name.
    public static func suggestion(for name: String) -> String? {
        let known = TimeZone.knownTimeZoneIdentifiers
        if let meant = TimeZone.abbreviationDictionary[name.uppercased()], known.contains(meant) { return meant }
        return NearestWord.among(known, for: name)
    }
}
