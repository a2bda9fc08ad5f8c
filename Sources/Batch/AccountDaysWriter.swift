import HealthDays

/// Where a batch writes each account's days (`batch --output`): a file per account, or one
/// database. The runner calls it last, once everything else the account asked for succeeded
/// (read, and posted or planned), so that an account that fails writes nothing.
///
/// Called from every job's thread at once: an implementation must be thread-safe.
public protocol AccountDaysWriter: Sendable {
    /// Where the account's days go, as the report and the journal name it.
    func place(of account: BatchAccount) -> String
    /// Writes the account's days (all of them, as `stepimport apple|hc FILE --tz ZONE` prints
    /// them), read as `outcome` says; the account's place holds them whole when this returns.
    func write(_ days: [DayTotal], of outcome: AccountOutcome) throws(AccountFailure)
}
