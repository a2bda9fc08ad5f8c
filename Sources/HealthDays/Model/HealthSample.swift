/// One step sample as a format reader found it: an interval, a count and where it was placed in time.
///
/// The source is handed over separately (as UTF-8 bytes or a string) so that the
/// Apple reader can pass a name straight out of libxml2's buffer without allocating.
public struct HealthSample: Equatable, Sendable {
    /// Start of the interval, milliseconds since 1970-01-01T00:00:00Z.
    public var startMs: Int64
    /// End of the interval, milliseconds since 1970-01-01T00:00:00Z; equal to `startMs` for an instant.
    public var endMs: Int64
    /// The UTC offset the sample carries, in seconds east of UTC; nil when the input gave none.
    public var offsetSeconds: Int32?
    /// The number of steps; fractions occur in data written by third-party apps.
    public var value: Double
    /// The times are a wall clock with no zone (Flutter's `dateFrom`), written here as if UTC.
    ///
    /// Under the recorded-offset rule they stay as they are (taken as UTC, so the date is the
    /// wall clock's); under `--tz` they are read as that zone's local time.
    public var wallClock: Bool
    /// Typed in by a person rather than measured (Apple's `HKWasUserEntered`, Health Connect's
    /// manual recording method): counted like any other unless `--exclude-manual` leaves it out.
    public var enteredByHand: Bool

    public init(startMs: Int64, endMs: Int64, offsetSeconds: Int32?, value: Double, wallClock: Bool = false,
                enteredByHand: Bool = false) {
        self.startMs = startMs
        self.endMs = endMs
        self.offsetSeconds = offsetSeconds
        self.value = value
        self.wallClock = wallClock
        self.enteredByHand = enteredByHand
    }
}
