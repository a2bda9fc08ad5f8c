import BackendUpload
import Batch
import ExportParsers
import Foundation
import HealthDays

/// What happened to one account of a batch: for the progress lines, the journal, the end
/// table and the report.
struct AccountOutcome: Sendable {
    enum Status: String, Sendable {
        /// Everything asked for was done (printed, planned, or every day meant for the server written).
        case done
        /// Done by an earlier run, as the journal says; not touched this time.
        case doneEarlier = "done-earlier"
        /// Stopped short: bad export, refused token, server trouble. A re-run tries again.
        case failed
        /// Ctrl-C stopped it between requests. A re-run tries again.
        case interrupted
        /// Never started: the batch was stopped first. A re-run takes it.
        case notRun = "not-run"
    }

    let account: BatchAccount
    var status: Status
    /// The reader that took the export: `apple` or `hc` (`auto` decided by content).
    var kind: String?
    /// The export's format, as the reader names it.
    var format: String?
    var daysParsed = 0
    var firstDay: LocalDate?
    var lastDay: LocalDate?
    var totalSteps = 0
    /// Step records skipped as invalid (`--skip-invalid`).
    var skippedRecords = 0
    /// Days meant for the server after the checks.
    var daysToSend = 0
    var daysSent = 0
    var daysWritten = 0
    /// Days not sent: outside the window, invalid, or kept (`--keep-existing`).
    var daysNotSent = 0
    /// Requests made (or, with `--dry-run`, that would be).
    var requests = 0
    var plan: PlanCounts?
    var error: String?
    /// The exit status the same failure gives `stepimport apple|hc`.
    var errorStatus: ExitStatus?
    var seconds = 0.0
    var finishedAt: Date?

    init(account: BatchAccount, status: Status) {
        self.account = account
        self.status = status
    }

    /// An account the journal says an earlier run finished.
    init(account: BatchAccount, journal entry: BatchJournalEntry) {
        self.init(account: account, status: .doneEarlier)
        daysParsed = entry.daysParsed
        daysSent = entry.daysSent
        daysWritten = entry.daysWritten
        daysNotSent = entry.skipped
        finishedAt = entry.at
    }

    /// The journal line for a finished account; nil for outcomes a re-run must not skip or
    /// that say nothing new (interrupted, not run, done earlier).
    var journalEntry: BatchJournalEntry? {
        let journalStatus: BatchJournalEntry.Status
        switch status {
        case .done: journalStatus = .done
        case .failed: journalStatus = .failed
        case .doneEarlier, .interrupted, .notRun: return nil
        }
        return BatchJournalEntry(account: account.account, status: journalStatus, at: finishedAt ?? Date(),
                                 daysParsed: daysParsed, daysSent: daysSent, daysWritten: daysWritten,
                                 skipped: daysNotSent, error: error)
    }

    /// Whether the failure says the server is in trouble, rather than this account.
    var isServerTrouble: Bool {
        status == .failed && (errorStatus == .unavailable || errorStatus == .temporaryFailure)
    }
}
