import BackendUpload
import ExportParsers
import Foundation
import HealthDays

/// Does one account of a batch from start to end: reads its export in its zone through the one
/// importer, then summarises, dry-runs, plans or posts through the one uploader, exactly as a
/// single export would be, and last writes its days (`daysWriter`, `batch --output`). Safe to use
/// from several threads: each call works on its own aggregator and connection.
public struct AccountRunner: Sendable {
    public let settings: BatchSettings
    /// Where `token_env` names are looked up.
    public let environment: [String: String]
    public let observer: any BatchObserver
    /// Where each account's days are written, last; nil when they are not.
    public let daysWriter: (any AccountDaysWriter)?
    /// Polled between requests (and by the scheduler before each account): true once the user asked to stop.
    public let isInterrupted: @Sendable () -> Bool

    public init(settings: BatchSettings, environment: [String: String], observer: any BatchObserver,
                daysWriter: (any AccountDaysWriter)? = nil, isInterrupted: @escaping @Sendable () -> Bool) {
        self.settings = settings
        self.environment = environment
        self.observer = observer
        self.daysWriter = daysWriter
        self.isInterrupted = isInterrupted
    }

    public func run(_ account: BatchAccount) -> AccountOutcome {
        let started = Date()
        var outcome = AccountOutcome(account: account, status: .failed)
        do throws(AccountFailure) {
            // The token is read first: a missing one fails before any parsing work.
            let configuration = try configuration(for: account)
            // A post that writes checks the token before the export is read: a refused one stops at once.
            if case .post(let post) = settings.action, let configuration {
                do throws(UploadError) {
                    let api = try TraineeHealthAPI(configuration: configuration, timeout: .seconds(post.timeoutSeconds))
                    try Uploader(api: api, policy: RetryPolicy(maxAttempts: post.retries + 1), isInterrupted: isInterrupted)
                        .checkToken(today: UploadRules.today(in: account.zone))
                } catch {
                    throw .upload(error)
                }
            }
            let days = try read(account, into: &outcome)
            // An account with no day inside the server's window still has its days written.
            var nothingInWindow = false
            if settings.action.sendsDays {
                do throws(AccountFailure) {
                    try upload(days, configuration, account, into: &outcome)
                } catch {
                    guard case .upload(.nothingInWindow) = error else { throw error }
                    nothingInWindow = true
                }
            }
            // Last: an account that failed before this point wrote nothing.
            if let daysWriter {
                try daysWriter.write(days, of: outcome)
                outcome.output = daysWriter.place(of: account)
            }
            outcome.status = nothingInWindow ? .nothingInWindow : .done
        } catch {
            if case .upload(.nothingInWindow) = error {
                outcome.status = .nothingInWindow
            } else {
                outcome.failure = error
                if case .upload(.interrupted) = error { outcome.status = .interrupted }
            }
        }
        outcome.seconds = Date().timeIntervalSince(started)
        outcome.finishedAt = Date()
        return outcome
    }

    /// The connection settings with the account's token; nil when the server is neither read nor written.
    private func configuration(for account: BatchAccount) throws(AccountFailure) -> UploadConfiguration? {
        guard let post = settings.action.upload else { return nil }
        do {
            let token = try account.readToken(environment: environment)
            return UploadConfiguration(apiURL: post.apiURL, token: token, caCertificateFile: post.caCertificateFile,
                                       tokenOrigin: account.token?.description ?? "no token", proxy: post.proxy)
        } catch {
            throw .token(error)
        }
    }

    /// The account's day totals in its zone; fills in what was read.
    private func read(_ account: BatchAccount, into outcome: inout AccountOutcome) throws(AccountFailure) -> [DayTotal] {
        let aggregator = DayAggregator(rule: account.zoneRule)
        let handEntries = HandEntries(excludes: settings.excludeManual, zone: account.zoneRule, next: aggregator)
        let patterns = settings.excludedSources + account.excludedSources
        let exclusion = patterns.isEmpty ? nil : SourceExclusion(patterns: patterns, next: handEntries)
        let summary: ImportSummary
        do throws(ExportError) {
            // The manifest's kind is the account's, even when its export cannot be opened; auto is known once opened.
            if account.kind != .auto { outcome.kind = account.kind.word }
            let importer = try ExportImporter.open(path: account.file, as: account.kind)
            outcome.kind = importer.family.command
            summary = try importer.read(into: exclusion ?? handEntries, options: settings.importOptions).summary
            try aggregator.finish()
        } catch {
            throw .export(error)
        }
        outcome.format = summary.format
        outcome.excludedSources = exclusion?.excluded ?? []
        outcome.unmatchedSourcePatterns = exclusion?.unmatchedPatterns ?? []
        outcome.sourcesSeen = exclusion?.sourcesSeen ?? []
        outcome.handEntries = handEntries.sources
        outcome.skippedRecords = summary.skippedRecords
        if summary.skippedRecords > 0 {
            observer.skippedRecords(summary.skippedRecords, in: account)
        }
        let days = aggregator.dayTotals()
        outcome.daysParsed = days.count
        outcome.firstDay = days.first?.date
        outcome.lastDay = days.last?.date
        outcome.totalSteps = days.reduce(0) { $0 + $1.steps }
        return days
    }

    /// Posts, plans or dry-runs the days; fills in what the server was sent and wrote.
    private func upload(_ days: [DayTotal], _ configuration: UploadConfiguration?,
                        _ account: BatchAccount, into outcome: inout AccountOutcome) throws(AccountFailure) {
        let today = UploadRules.today(in: account.zone)
        guard let configuration, let post = settings.action.upload else {
            let plan = UploadPlan(days: days, today: today, sendAll: settings.action.sendsAll)
            outcome.daysToSend = plan.daysToSend.count
            outcome.daysNotSent = plan.held.count
            outcome.requests = plan.batches.count
            return
        }
        var report = UploadReport()
        do throws(UploadError) {
            let api = try TraineeHealthAPI(configuration: configuration, timeout: .seconds(post.timeoutSeconds))
            let observer = self.observer
            let uploader = Uploader(api: api, policy: RetryPolicy(maxAttempts: post.retries + 1),
                                    isInterrupted: isInterrupted,
                                    log: { observer.uploadLog($0, for: account) })
            let prepared = try PreparedUpload.prepare(days: days, today: today, sendAll: post.sendAll,
                                                      keepExisting: post.keepExisting, readServer: settings.action.readsServer,
                                                      uploader: uploader)
            report = prepared.report
            outcome.daysToSend = report.daysToSend
            outcome.daysNotSent = prepared.plan.held.count
            if settings.action.readsServer {
                outcome.plan = PlanCounts(prepared)
                return
            }
            defer {
                outcome.daysSent = report.daysSent
                outcome.daysWritten = report.daysWritten
                outcome.requests = report.batches.filter { $0.written != nil }.count
            }
            try uploader.send(prepared.plan, report: &report)
        } catch {
            throw .upload(error)
        }
    }
}
