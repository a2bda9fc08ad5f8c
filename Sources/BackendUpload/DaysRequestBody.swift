import HealthDays

/// The body of `POST /v1/trainee/health/days`: `{"days":[{"date":"YYYY-MM-DD","steps":N},...]}`.
/// `--format json` prints exactly this, so what a user sees is what would be sent.
public enum DaysRequestBody {
    /// The body for these days, in their order, with no trailing newline.
    public static func json(_ days: some Sequence<DayTotal>) -> String {
        var body = "{\"days\":["
        for (index, day) in days.enumerated() {
            if index > 0 { body += "," }
            body += "{\"date\":\"\(day.date)\",\"steps\":\(day.steps)}"
        }
        return body + "]}"
    }
}
