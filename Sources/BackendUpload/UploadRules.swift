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

    /// The first day a total is believed: steps before 2000 come from a device clock that was
    /// never set (phones count from 1970 or 2001 after a reset).
    public static let earliestDay = LocalDate(year: 2000, month: 1, day: 1)!

    /// Why the server would refuse `day`, or why it cannot be true, when it is `today` in the
    /// zone the days are in; nil for a day to trust. The server's own window (90 days back) is
    /// not a refusal: back-filled history is older by nature.
    public static func refusal(of day: DayTotal, today: LocalDate) -> DayRefusal? {
        if day.steps < 0 { return .negativeSteps }
        if day.steps > maxDailySteps { return .overDailyMaximum }
        if day.date < earliestDay { return .beforeEarliestDay }
        if Int64(day.date.daysSinceEpoch) > Int64(today.daysSinceEpoch) + Int64(windowFutureDays) {
            return .inTheFuture(today: today)
        }
        return nil
    }

    /// The days the server keeps when it is `today` in the trainee's zone.
    public static func window(today: LocalDate) -> ClosedRange<LocalDate> {
        LocalDate(daysSinceEpoch: today.daysSinceEpoch - windowPastDays)...LocalDate(daysSinceEpoch: today.daysSinceEpoch + windowFutureDays)
    }
}

/// Why a day total would be refused by the server or cannot be true. The executable words it.
public enum DayRefusal: Equatable, Hashable, Sendable {
    /// Fewer than 0 steps (only Google Fit's corrections can make one).
    case negativeSteps
    /// More than `UploadRules.maxDailySteps`, which the server rejects (and the whole request with it).
    case overDailyMaximum
    /// Before `UploadRules.earliestDay`: a device clock that was not set.
    case beforeEarliestDay
    /// More than one day after `today`: a device clock set ahead; the server skips it.
    case inTheFuture(today: LocalDate)
}

extension DayRefusal {
    /// The reason as the plan, the report and `--plan` give it (the words of the server's rules).
    public func words(for day: DayTotal) -> String {
        switch self {
        case .negativeSteps: return "\(day.steps) steps is negative"
        case .overDailyMaximum:
            return "\(day.steps) steps is more than the server accepts for a day (\(UploadRules.maxDailySteps))"
        case .beforeEarliestDay: return "before \(UploadRules.earliestDay), from a device clock that was not set"
        case .inTheFuture: return "more than one day in the future, from a device clock set ahead"
        }
    }
}
