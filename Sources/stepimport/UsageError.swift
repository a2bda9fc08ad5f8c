import HealthDays
/// A mistake on the command line: printed with the usage line and where to find help, exit 64.
struct UsageError: Error {
    let message: String
    /// The subcommand whose usage to show, nil for the top level.
    let command: String?
}
