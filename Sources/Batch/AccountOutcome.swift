import BackendUpload
import Foundation
import HealthDays

/// What happened to one account of a batch: for the progress lines, the journal, the end
/// table and the report.
public struct AccountOutcome: Sendable {
    public enum Status: String, Sendable {
        /// Everything asked for was done (printed, planned, or every day meant for the server written).
        case done
        /// Posted as asked, but no day lies inside the server's window (the last 90 days in the
        /// trainee's zone): nothing was written. A re-run skips it, as its days only grow older.
        case nothingInWindow = "nothing-in-window"
        /// Done by an earlier run, as the journal says; not touched this time.
        case doneEarlier = "done-earlier"
        /// Stopped short: bad export, refused token, server trouble. A re-run tries again.
        case failed
        /// Ctrl-C stopped it between requests. A re-run tries again.
        case interrupted
        /// Never started: the batch was stopped first. A re-run takes it.
        case notRun = "not-run"
    }

    public let account: BatchAccount
    public var status: Status
    /// For `doneEarlier`: how the earlier run ended, as the journal says.
    public var earlier: BatchJournalEntry.Status?
    /// The reader that took the export: `apple` or `hc` (`auto` decided by content).
    public var kind: String?
    /// The export's format, as the reader names it.
    public var format: String?
    public var daysParsed = 0
    public var firstDay: LocalDate?
    public var lastDay: LocalDate?
    public var totalSteps = 0
    /// Step records skipped as invalid (`InvalidRecordPolicy.skip`).
    public var skippedRecords = 0
    /// Records left out by source (`--exclude-source`, `exclude_sources`), per source.
    public var excludedSources: [SourceExclusion.Excluded] = []
    /// Patterns of `--exclude-source` (and the manifest's) that matched none of the account's
    /// sources, with the sources it had, for the nearest names.
    public var unmatchedSourcePatterns: [SourcePattern] = []
    public var sourcesSeen: [String] = []
    /// Records typed in by hand, per source: left out with `--exclude-manual`, else counted.
    public var handEntries: [HandEntries.Source] = []
    /// Days meant for the server after the checks.
    public var daysToSend = 0
    public var daysSent = 0
    public var daysWritten = 0
    /// Days not sent: outside the window, invalid, or kept (`keepExisting`).
    public var daysNotSent = 0
    /// Requests made (or, for a dry run, that would be).
    public var requests = 0
    public var plan: PlanCounts?
    /// Where its days were written (`batch --output`); nil when they were not.
    public var output: String?
    /// Why it failed or was interrupted; nil when it was not.
    public var failure: AccountFailure?
    public var seconds = 0.0
    public var finishedAt: Date?

    public init(account: BatchAccount, status: Status) {
        self.account = account
        self.status = status
    }

    /// An account the journal says an earlier run finished.
    public init(account: BatchAccount, journal entry: BatchJournalEntry) {
        self.init(account: account, status: .doneEarlier)
        earlier = entry.status
        daysParsed = entry.daysParsed
        daysSent = entry.daysSent
        daysWritten = entry.daysWritten
        daysNotSent = entry.skipped
        output = entry.output
        finishedAt = entry.at
    }

    /// The journal line for a finished account, `error` being the failure in the front end's
    /// words; nil for outcomes a re-run must not skip or that say nothing new (interrupted, not
    /// run, done earlier).
    public func journalEntry(error: String?) -> BatchJournalEntry? {
        let journalStatus: BatchJournalEntry.Status
        switch status {
        case .done: journalStatus = .done
        case .nothingInWindow: journalStatus = .nothingInWindow
        case .failed: journalStatus = .failed
        case .doneEarlier, .interrupted, .notRun: return nil
        }
        return BatchJournalEntry(account: account.account, status: journalStatus, at: finishedAt ?? Date(),
                                 daysParsed: daysParsed, daysSent: daysSent, daysWritten: daysWritten,
                                 skipped: daysNotSent, output: output, error: error)
    }

    /// Posted with no day inside the server's window, in this run or (as the journal says) an earlier one.
    public var wroteNothing: Bool {
        status == .nothingInWindow || (status == .doneEarlier && earlier == .nothingInWindow)
    }

    /// Whether the failure says the server is in trouble, rather than this account.
    public var isServerTrouble: Bool {
        status == .failed && failure?.serverTrouble != nil
    }
}
