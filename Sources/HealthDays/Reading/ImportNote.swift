/// A fact about one import worth a line in the report: a repair made, a stream left out, the
/// apps found. Facts that call for an option (the zone) are typed, so the executable words them.
public enum ImportNote: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// A fact in the reader's own words.
    case fact(String)
    /// A fact in the reader's own words that the user cannot act on (a repair every export of a
    /// kind needs, copies left out by the format's own rule): shown when asked for (`-v`).
    case detail(String)
    /// Records in local wall time with no zone at this input: dated as written, or read in the given zone.
    case wallClockRecords(InputLocation, count: Int)
    /// Records with no zone offset: taken as UTC unless a zone is given.
    case recordsWithoutOffset(count: Int)
    /// Fitbit's per-minute rows, in the account's local wall time: each counts on the date written
    /// (the date in the account's zone), or is read in the `--tz` zone. `accountZone` is the zone
    /// the export's profile names, when it has one.
    case fitbitWallClock(minutes: Int, files: Int, accountZone: String?)
    /// Health Connect's stored priority for activity (package names, highest first), which the
    /// default rule does not follow and `--rule hc-priority` does.
    case activityPriority([String])

    public init(stringLiteral value: String) {
        self = .fact(value)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .fact(String(stringInterpolation: stringInterpolation))
    }
}
