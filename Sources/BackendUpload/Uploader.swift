import HealthDays
import Foundation

/// Posts a plan's batches in date order, retrying what is safe to retry, and accounts for
/// every day in an `UploadReport`.
///
/// A resend of a batch is safe because the server upserts each day. Retries: 408, 429, 5xx,
/// time-outs and dropped connections, with backoff and `Retry-After`; anything else stops the
/// run. Interruption (Ctrl-C) is checked between requests and during waits.
public final class Uploader {
    private let api: TraineeHealthAPI
    private let policy: RetryPolicy
    private let wait: (Double) -> Void
    private let random: () -> Double
    private let isInterrupted: () -> Bool
    private let log: (String) -> Void

    /// `wait` sleeps (injected for tests); `isInterrupted` is polled between requests and while
    /// waiting; `log` receives one line per retry.
    public init(api: TraineeHealthAPI, policy: RetryPolicy,
                wait: @escaping (Double) -> Void = Uploader.sleep,
                random: @escaping () -> Double = { Double.random(in: 0..<1) },
                isInterrupted: @escaping () -> Bool = { false },
                log: @escaping (String) -> Void = { _ in }) {
        self.api = api
        self.policy = policy
        self.wait = wait
        self.random = random
        self.isInterrupted = isInterrupted
        self.log = log
    }

    /// Asks the server for one day of the trainee's summary, the cheapest request that needs the
    /// token: a refused token (401, 403) stops a post before the export is read, not after.
    public func checkToken(today: LocalDate) throws(UploadError) {
        _ = try serverDays(from: today, to: today)
    }

    /// The days the server holds between `from` and `to`, read in ranges the server accepts.
    public func serverDays(from: LocalDate, to: LocalDate) throws(UploadError) -> [LocalDate: Int] {
        var days: [LocalDate: Int] = [:]
        var start = from
        while start <= to {
            // In 64 bits: a range may end at the last day a LocalDate holds.
            let last = min(Int64(to.daysSinceEpoch), Int64(start.daysSinceEpoch) + Int64(UploadRules.maxSummaryDays) - 1)
            let end = LocalDate(daysSinceEpoch: Int32(last))
            let chunk = try attempt("GET summary \(start) to \(end)") { () throws(UploadError) in
                let (outcome, found) = try api.summary(from: start, to: end)
                return (outcome, found)
            }
            days.merge(chunk.value) { _, new in new }
            guard end < to, let following = end.next else { break }
            start = following
        }
        return days
    }

    /// Sends every batch of `plan`; the report says what happened. It throws only for
    /// errors that stop the run, after recording the outcome in `report` (the caller words the error).
    ///
    /// The server skips days outside its window (`--send-all` sends older ones): a count that
    /// leaves out just those is what the contract says, not a shortfall. A plan with days and
    /// none inside the window ends in `.nothingInWindow`, sent or not.
    public func send(_ plan: UploadPlan, report: inout UploadReport) throws(UploadError) {
        var writable = 0
        for (index, batch) in plan.batches.enumerated() {
            if isInterrupted() {
                report.outcome = .interrupted
                throw .interrupted
            }
            do {
                let result = try attempt("POST \(batch.count) days \(batch.first!.date) to \(batch.last!.date)") { () throws(UploadError) in
                    let (outcome, written) = try api.postDays(batch)
                    return (outcome, written)
                }
                report.batches[index].attempts = result.attempts
                report.batches[index].written = result.value
                report.daysSent += batch.count
                report.daysWritten += result.value
                writable += plan.daysWritable(in: batch)
            } catch {
                report.outcome = error == .interrupted ? .interrupted : .failed
                report.failure = error
                throw error
            }
        }
        if report.daysWritten < report.daysSent && report.daysWritten != writable {
            let failure = UploadError.fewerDaysWritten(written: report.daysWritten, sent: report.daysSent,
                                                       outsideWindow: report.daysSent - writable)
            report.outcome = .incomplete
            report.failure = failure
            throw failure
        }
        if plan.nothingInWindow, let first = plan.firstDay, let last = plan.lastDay {
            let failure = UploadError.nothingInWindow(NothingInWindow(days: plan.daysGiven, first: first, last: last,
                                                                      window: plan.serverWindow, sent: report.daysSent))
            report.outcome = .nothingInWindow
            report.failure = failure
            throw failure
        }
        report.outcome = .complete
    }

    /// Runs `request` until it succeeds, the attempts run out or the run is interrupted.
    private func attempt<Value>(_ what: String,
                                _ request: () throws(UploadError) -> (TraineeHealthAPI.Outcome, Value))
        throws(UploadError) -> (value: Value, attempts: Int) {
        var attempt = 1
        while true {
            let (outcome, value) = try request()
            guard case .retry(let reason, let retryAfter, let unreachable) = outcome else {
                return (value, attempt)
            }
            guard attempt < policy.maxAttempts else {
                let message = "\(what): \(reason), \(attempt) attempts"
                throw unreachable ? .unavailable(message) : .temporary(message)
            }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, random: random())
            log("\(what): \(reason); attempt \(attempt + 1) of \(policy.maxAttempts) in \(String(format: "%.1f", delay)) s")
            var waited = 0.0
            while waited < delay {
                if isInterrupted() { throw .interrupted }
                let step = min(0.1, delay - waited)
                wait(step)
                waited += step
            }
            attempt += 1
        }
    }

    /// Sleeps for `seconds`.
    public static func sleep(_ seconds: Double) {
        Thread.sleep(forTimeInterval: seconds)
    }
}
