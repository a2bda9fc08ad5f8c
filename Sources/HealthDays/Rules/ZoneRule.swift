import Foundation

/// Which clock decides a sample's calendar day.
public enum ZoneRule: Sendable, Equatable {
    /// Each sample is placed in the offset it carries (samples without one in UTC).
    case recordedOffset
    /// Every sample is placed in this IANA zone, with its daylight-saving rules.
    case zone(TimeZone)

    /// Parses an IANA name such as `Europe/Berlin`; nil when the system's zone database does not know it.
    public static func named(_ identifier: String) -> ZoneRule? {
        // TimeZone(identifier:) also accepts abbreviations such as "CET"; require the Area/City form
        // (or UTC) so that a user gets the DST-aware zone they meant.
        guard identifier == "UTC" || identifier.contains("/"), let zone = TimeZone(identifier: identifier) else {
            return nil
        }
        return .zone(zone)
    }
}
