import BackendUpload
import Batch
import Foundation
import HealthDays

/// Standard error during a batch: one line per finished account, and a progress line (accounts
/// done, failed and to go, rate, time left) redrawn in place on a terminal, or written every
/// `logInterval` seconds to a log. Lines from parallel jobs never interleave.
final class BatchConsole: @unchecked Sendable {
    private let lock = NSLock()
    private let diagnostics: Diagnostics
    /// Draw the progress line in place (a terminal, progress not turned off).
    private let redraws: Bool
    private let quiet: Bool
    private var drawn = false
    private var lastLogged = Date()
    /// How often the tally goes to a log (standard error not a terminal).
    static let logInterval = 10.0

    init(diagnostics: Diagnostics, progress: Bool, quiet: Bool) {
        self.diagnostics = diagnostics
        redraws = diagnostics.showsProgress && progress && !quiet
        self.quiet = quiet
    }

    /// A line about one account; left out with `--quiet`.
    func note(_ account: BatchAccount, _ message: String) {
        guard !quiet else { return }
        write("stepimport: \(account.account): \(message)\n")
    }

    /// A warning about one account; always shown.
    func warn(_ account: BatchAccount, _ message: String) {
        write("stepimport: warning: \(account.account): \(message)\n")
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

    /// Shows the tally: redrawn on a terminal, or logged every `logInterval` seconds.
    func progress(_ tally: BatchTally, force: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        if redraws {
            diagnostics.write("\r\u{1B}[Kstepimport: batch: " + tally.line)
            drawn = true
        } else if !quiet, force || Date().timeIntervalSince(lastLogged) >= Self.logInterval {
            lastLogged = Date()
            diagnostics.write("stepimport: batch: \(tally.line)\n")
        }
    }

    /// Erases the progress line.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        erase()
    }

    private func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        erase()
        diagnostics.write(text)
    }

    private func erase() {
        if drawn {
            diagnostics.write("\r\u{1B}[K")
            drawn = false
        }
    }
}

/// Where a batch stands: for the progress line.
struct BatchTally: Sendable {
    /// Accounts this run will take (in the shard, not done earlier).
    var total = 0
    var done = 0
    var failed = 0
    var started = Date()

    var finished: Int { done + failed }
    var remaining: Int { max(0, total - finished) }

    /// Accounts per minute so far.
    var rate: Double {
        let minutes = Date().timeIntervalSince(started) / 60
        return minutes > 0 ? Double(finished) / minutes : 0
    }

    var line: String {
        var text = "\(done) done, \(failed) failed, \(remaining) to go"
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
