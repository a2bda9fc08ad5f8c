import HealthDays
/// How day totals are printed.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// A readable table with a footer.
    case table
    /// Exactly the body of `POST /v1/trainee/health/days`.
    case json
    /// Comma-separated values with a header.
    case csv
}
