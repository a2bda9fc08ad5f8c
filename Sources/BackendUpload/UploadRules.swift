import HealthDays

/// The backend's rules for `POST /v1/trainee/health/days`, mirrored so that days are checked
/// before they are sent: one bad day would make the server reject its whole batch.
public enum UploadRules {
    /// At most this many days per request (`HEALTH_MAX_DAYS_PER_INGEST`).
    public static let maxDaysPerRequest = 90
    /// The highest step count the server accepts for a day (`MAX_DAILY_STEPS`).
    public static let maxDailySteps = 100_000
    /// The server keeps days from `today - 90` ...
    public static let windowPastDays: Int32 = 90
    /// ... to `today + 1`, both inclusive, `today` being the date in the trainee's zone.
    public static let windowFutureDays: Int32 = 1
    /// The longest range `GET /v1/trainee/health/summary` is asked for at once.
    public static let maxSummaryDays: Int32 = 90

    /// Why a day is not sent, or nil when it must be.
    public static func problem(with day: DayTotal) -> String? {
        if day.steps < 0 { return "\(day.steps) steps is negative" }
        if day.steps > maxDailySteps {
            return "\(day.steps) steps is more than the server accepts for a day (\(maxDailySteps))"
        }
        return nil
    }

    /// The days the server keeps when it is `today` in the trainee's zone.
    public static func window(today: LocalDate) -> ClosedRange<LocalDate> {
        LocalDate(daysSinceEpoch: today.daysSinceEpoch - windowPastDays)...LocalDate(daysSinceEpoch: today.daysSinceEpoch + windowFutureDays)
    }
}
