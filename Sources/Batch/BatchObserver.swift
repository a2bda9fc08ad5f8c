/// What a batch tells its front end while it runs, for it to show in its own words.
///
/// The batch calls it from all of its threads at once: an implementation must be thread-safe.
public protocol BatchObserver: Sendable {
    /// A job took the account and starts reading its export.
    func accountStarted(_ account: BatchAccount)
    /// The account is finished (done, failed or interrupted); `position` counts the accounts this
    /// run finished so far, out of `total`.
    func accountFinished(_ outcome: AccountOutcome, position: Int, of total: Int)
    /// The account's export had invalid step records that were skipped: the totals of their days are low.
    func skippedRecords(_ count: Int, in account: BatchAccount)
    /// A line of the uploader's log (a retry, a wait) while posting the account.
    func uploadLog(_ line: String, for account: BatchAccount)
    /// Where the batch stands: after every account, and about once a second while accounts run.
    func progress(_ tally: BatchTally)
    /// Every job has stopped; nothing more is reported.
    func batchEnded()
}
