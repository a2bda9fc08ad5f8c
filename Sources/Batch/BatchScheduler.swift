import BackendUpload
import Foundation
import HealthDays
import Platform

/// Runs a batch's accounts on `jobs` threads, one account per thread at a time, recording
/// each outcome in the journal the moment it is known.
///
/// It stops taking new accounts when the runner's `isInterrupted` says so, when the journal cannot
/// be written (progress could not be kept), or when `serverTroubleLimit` accounts in a row failed
/// because the server could not be reached or kept failing: then every further account would only
/// wait out its retries. Accounts never taken are reported as not run; a re-run takes them.
public final class BatchScheduler: @unchecked Sendable {
    /// Why the batch stopped before its last account.
    public enum Stop: Sendable {
        /// The user asked to stop (`isInterrupted`).
        case interrupted
        /// `accountsInARow` accounts in a row failed on the server, the last of them, `last`, with `error`.
        case serverTrouble(UploadError, accountsInARow: Int, last: BatchAccount)
        /// An outcome could not be recorded in the journal.
        case journal(BatchError)
    }

    // Everything below is guarded by `condition`, except the constants.
    private let condition = NSCondition()
    private let pending: [BatchAccount]
    private let runner: AccountRunner
    private let journal: BatchJournal?
    private let journalText: @Sendable (AccountFailure, BatchAccount) -> String
    private let serverTroubleLimit: Int
    private var next = 0
    private var activeWorkers = 0
    private var outcomes: [AccountOutcome] = []
    private var stop: Stop?
    private var serverTroubleInARow = 0
    private var tally: BatchTally

    /// The runner's observer hears about every account and the tally; `journalText` puts a
    /// failure into the words the journal keeps.
    public init(pending: [BatchAccount], runner: AccountRunner, journal: BatchJournal?, jobs: Int,
                journalText: @escaping @Sendable (AccountFailure, BatchAccount) -> String) {
        self.pending = pending
        self.runner = runner
        self.journal = journal
        self.journalText = journalText
        serverTroubleLimit = max(3, jobs + 1)
        tally = BatchTally(total: pending.count)
    }

    private var observer: any BatchObserver { runner.observer }

    /// Runs every pending account (or until stopped) on `jobs` threads and waits for them.
    public func run(jobs: Int) -> (outcomes: [AccountOutcome], stop: Stop?) {
        let workers = min(jobs, pending.count)
        condition.lock()
        tally.started = Date()
        activeWorkers = workers
        condition.unlock()
        for index in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.name = "stepimport-batch-\(index + 1)"
            // Parsing keeps little on the stack, but a Thread's default is only 512 KiB.
            thread.stackSize = 8 << 20
            thread.start()
        }
        condition.lock()
        while activeWorkers > 0 {
            _ = condition.wait(until: Date().addingTimeInterval(1))
            let snapshot = tally
            condition.unlock()
            observer.progress(snapshot)
            condition.lock()
        }
        let result = (outcomes, stop)
        condition.unlock()
        observer.batchEnded()
        return result
    }

    private func work() {
        while let account = take() {
            observer.accountStarted(account)
            let outcome = runner.run(account)
            var journalFailure: BatchError?
            if let journal, let entry = outcome.journalEntry(error: outcome.failure.map { journalText($0, account) }) {
                do {
                    try journal.record(entry)
                } catch {
                    journalFailure = error
                }
            }
            complete(outcome, journalFailure: journalFailure)
        }
        condition.lock()
        activeWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> BatchAccount? {
        condition.lock()
        defer { condition.unlock() }
        if stop == nil, runner.isInterrupted() {
            stop = .interrupted
        }
        guard stop == nil, next < pending.count else { return nil }
        next += 1
        return pending[next - 1]
    }

    private func complete(_ outcome: AccountOutcome, journalFailure: BatchError?) {
        condition.lock()
        outcomes.append(outcome)
        switch outcome.status {
        case .done: tally.done += 1
        case .nothingInWindow: tally.nothingInWindow += 1
        case .failed: tally.failed += 1
        case .doneEarlier, .interrupted, .notRun: break
        }
        if outcome.isServerTrouble {
            serverTroubleInARow += 1
            if serverTroubleInARow >= serverTroubleLimit, stop == nil, let error = outcome.failure?.serverTrouble {
                stop = .serverTrouble(error, accountsInARow: serverTroubleInARow, last: outcome.account)
            }
        } else if outcome.status == .done, runner.settings.action.sendsDays {
            serverTroubleInARow = 0
        }
        if let journalFailure, stop == nil {
            stop = .journal(journalFailure)
        }
        let position = tally.finished
        let total = tally.total
        let snapshot = tally
        condition.broadcast()
        condition.unlock()
        observer.accountFinished(outcome, position: position, of: total)
        observer.progress(snapshot)
    }
}
