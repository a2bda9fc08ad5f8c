import HealthDays

/// What a post would do to one day that the checks let through.
public enum PlanAction: Equatable, Sendable {
    /// `--keep-existing` leaves the server's value.
    case keep
    /// The server already has this value.
    case same
    /// The server has another value; `lower` when the new one is below it.
    case overwrite(lower: Bool)
    /// The server has no value for the day.
    case write
    /// Sent (`--send-all`), but older than the server's window: the server skips it.
    case skip

    /// The action for `day`, given the days that will be sent, the server's window and its value.
    public init(_ day: DayTotal, sending: Set<LocalDate>, window: ClosedRange<LocalDate>, server: Int?) {
        if !sending.contains(day.date) {
            self = .keep
        } else if !window.contains(day.date) {
            self = .skip
        } else if let server {
            self = server == day.steps ? .same : .overwrite(lower: server > day.steps)
        } else {
            self = .write
        }
    }
}
