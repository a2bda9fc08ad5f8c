import BackendUpload
import Batch
import ExportParsers
import Foundation
import HealthDays

/// Runs a batch's accounts on `jobs` threads, one account per thread at a time, recording
/// each outcome in the journal the moment it is known.
///
/// It stops taking new accounts on Ctrl-C, when the journal cannot be written (progress could
/// not be kept), or when `serverTroubleLimit` accounts in a row failed because the server could
/// not be reached or kept failing: then every further account would only wait out its retries.
/// Accounts never taken are reported as not run; a re-run takes them.
final class BatchScheduler: @unchecked Sendable {
    /// Why the batch stopped before its last account.
    enum Stop: Sendable {
        case interrupted
        case serverTrouble(ExitStatus, String)
        case journal(BatchError)
    }

    // Everything below is guarded by `condition`, except the constants.
    private let condition = NSCondition()
    private let pending: [BatchAccount]
    private let runner: AccountRunner
    private let journal: BatchJournal?
    private let console: BatchConsole
    private let serverTroubleLimit: Int
    private var next = 0
    private var activeWorkers = 0
    private var outcomes: [AccountOutcome] = []
    private var stop: Stop?
    private var serverTroubleInARow = 0
    private var tally: BatchTally

    init(pending: [BatchAccount], runner: AccountRunner, journal: BatchJournal?, console: BatchConsole, jobs: Int) {
        self.pending = pending
        self.runner = runner
        self.journal = journal
        self.console = console
        serverTroubleLimit = max(3, jobs + 1)
        tally = BatchTally(total: pending.count)
    }

    /// Runs every pending account (or until stopped) on `jobs` threads and waits for them.
    func run(jobs: Int) -> (outcomes: [AccountOutcome], stop: Stop?) {
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
            console.progress(snapshot)
            condition.lock()
        }
        let result = (outcomes, stop)
        condition.unlock()
        console.clear()
        return result
    }

    private func work() {
        while let account = take() {
            let outcome = runner.run(account)
            var journalFailure: BatchError?
            if let entry = outcome.journalEntry, let journal {
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
        if stop == nil, interruptRequested.load(ordering: .relaxed) {
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
        case .failed: tally.failed += 1
        case .doneEarlier, .interrupted, .notRun: break
        }
        if outcome.isServerTrouble {
            serverTroubleInARow += 1
            if serverTroubleInARow >= serverTroubleLimit, stop == nil, let status = outcome.errorStatus {
                stop = .serverTrouble(status, "\(serverTroubleInARow) accounts in a row failed on the server "
                    + "(the last: \(outcome.error ?? "")); no new accounts were started")
            }
        } else if outcome.status == .done, options.post != nil {
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
        report(outcome, position: position, of: total)
        console.progress(snapshot)
    }

    private var options: BatchOptions { runner.options }

    /// One line per finished account on standard error; failures even with --quiet.
    private func report(_ outcome: AccountOutcome, position: Int, of total: Int) {
        let account = outcome.account
        let counter = "[\(position)/\(total)]"
        let time = String(format: "%.1f s", outcome.seconds)
        switch outcome.status {
        case .failed:
            console.always("\(counter) \(account.account): failed: \(outcome.error ?? "unknown error")")
        case .interrupted:
            console.always("\(account.account): interrupted; it is taken again on the next run")
        case .done:
            console.note("\(counter) \(account.account): \(AccountSummary.line(outcome, options: options)) (\(time))")
        case .doneEarlier, .notRun:
            break
        }
    }
}

/// How one finished account reads in a line.
enum AccountSummary {
    static func line(_ outcome: AccountOutcome, options: BatchOptions) -> String {
        let read = "\(outcome.kind ?? "?"), \(Plural.count(outcome.daysParsed, "day")) with steps"
        guard let post = options.post else {
            guard let first = outcome.firstDay, let last = outcome.lastDay else { return "done: \(read)" }
            return "done: \(read), \(first) to \(last), \(outcome.totalSteps) steps"
        }
        if post.dryRun {
            return "dry run: \(read); \(outcome.daysToSend) to send in \(Plural.count(outcome.requests, "request")), \(outcome.daysNotSent) not sent"
        }
        if let plan = outcome.plan {
            return "plan: \(read); \(plan.write) to write, \(plan.overwrite) to overwrite, \(plan.same) the same, "
                + "\(plan.keep) kept, \(outcome.daysNotSent - plan.keep) outside the window or invalid"
        }
        return "done: \(read); sent \(outcome.daysSent), the server wrote \(outcome.daysWritten), \(outcome.daysNotSent) not sent"
    }
}
