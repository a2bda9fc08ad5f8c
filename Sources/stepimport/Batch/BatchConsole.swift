import DisplayText
import BackendUpload
import Batch
import Foundation
import HealthDays

/// Standard error during a batch: one line per finished account, and a progress line (accounts
/// done, failed and to go, rate, time left) redrawn in place on a terminal, or written every
/// `logInterval` seconds to a log. Lines from parallel jobs never interleave.
final class BatchConsole: BatchObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let diagnostics: Diagnostics
    /// What the batch does, for the line of a finished account.
    private let options: BatchOptions
    /// Draw the progress line in place (a terminal, progress not turned off).
    private let redraws: Bool
    private let quiet: Bool
    private var drawn = false
    private var lastLogged = Date()
    /// How often the tally goes to a log (standard error not a terminal).
    static let logInterval = 10.0

    init(diagnostics: Diagnostics, options: BatchOptions) {
        self.diagnostics = diagnostics
        self.options = options
        redraws = diagnostics.showsProgress && options.read.progress && !options.read.quiet
        quiet = options.read.quiet
    }

    // MARK: - What the batch reports

    func accountStarted(_ account: BatchAccount) {}

    /// One line per finished account; failures even with --quiet.
    func accountFinished(_ outcome: AccountOutcome, position: Int, of total: Int) {
        let account = outcome.account
        let counter = "[\(position)/\(total)]"
        let time = String(format: "%.1f s", outcome.seconds)
        switch outcome.status {
        case .failed:
            always("\(counter) \(account.shownLabel): failed: \(outcome.error ?? "unknown error")")
        case .interrupted:
            always("\(account.shownLabel): interrupted; it is taken again on the next run")
        case .done:
            note("\(counter) \(account.shownLabel): \(AccountSummary.line(outcome, options: options)) (\(time))")
            for pattern in outcome.unmatchedSourcePatterns {
                warn(account, SourceWords.unmatched(pattern, among: outcome.sourcesSeen))
            }
        case .nothingInWindow:
            always("\(counter) \(account.shownLabel): \(AccountSummary.line(outcome, options: options)) (\(time))")
        case .doneEarlier, .notRun:
            break
        }
    }

    /// Skipped data is always reported, even with --quiet.
    func skippedRecords(_ count: Int, in account: BatchAccount) {
        warn(account, "skipped \(Plural.count(count, "invalid step record")) (--skip-invalid); the totals of their days are low")
    }

    func uploadLog(_ line: String, for account: BatchAccount) {
        note(account, "post: \(line)")
    }

    /// Shows the tally: redrawn on a terminal, or logged every `logInterval` seconds.
    func progress(_ tally: BatchTally) {
        lock.lock()
        defer { lock.unlock() }
        if redraws {
            // Redrawn in place, so never wider than the terminal: a wrapped line would not be erased.
            let line = "stepimport: batch: " + tally.line
            diagnostics.write("\r\u{1B}[K" + (diagnostics.width.map { line.truncated(toDisplayWidth: $0 - 1, ellipsis: "") } ?? line))
            drawn = true
        } else if !quiet, Date().timeIntervalSince(lastLogged) >= Self.logInterval {
            lastLogged = Date()
            diagnostics.write("stepimport: batch: \(tally.line)\n")
        }
    }

    /// Erases the progress line.
    func batchEnded() {
        lock.lock()
        defer { lock.unlock() }
        erase()
    }

    // MARK: - Lines

    /// A line about one account; left out with `--quiet`.
    func note(_ account: BatchAccount, _ message: String) {
        guard !quiet else { return }
        write("stepimport: \(account.shownLabel): \(message)\n")
    }

    /// A warning about one account; always shown.
    func warn(_ account: BatchAccount, _ message: String) {
        write("stepimport: warning: \(account.shownLabel): \(message)\n", label: "warning:")
    }

    /// A line about the batch; left out with `--quiet`.
    func note(_ message: String) {
        guard !quiet else { return }
        write("stepimport: \(message)\n")
    }

    /// A line that is always shown.
    func always(_ message: String) {
        write("stepimport: \(message)\n")
    }

    /// Writes `text` (its `label` coloured as a warning), the progress line erased first.
    private func write(_ text: String, label: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        erase()
        diagnostics.write(text, label: label, style: .warning)
    }

    private func erase() {
        if drawn {
            diagnostics.write("\r\u{1B}[K")
            drawn = false
        }
    }
}

extension BatchTally {
    /// The progress line: done, failed, to go, rate and time left.
    var line: String {
        var text = "\(done) done, " + (nothingInWindow > 0 ? "\(nothingInWindow) with nothing written, " : "")
            + "\(failed) failed, \(remaining) to go"
        let rate = self.rate
        if finished > 0, rate > 0 {
            text += String(format: "; %.1f accounts/min", rate)
            if remaining > 0 {
                text += "; about \(TimeLeft.format(Double(remaining) / rate * 60)) left"
            }
        }
        return text
    }
}
