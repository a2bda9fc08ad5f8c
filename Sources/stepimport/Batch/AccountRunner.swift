import BackendUpload
import Batch
import ExportParsers
import Foundation
import HealthDays
import ExportInput

/// Does one account of a batch from start to end: read its export in its zone, then print,
/// plan or post, exactly as `stepimport apple|hc <file> --tz <zone> [--post]` would. Safe to use
/// from several threads: each call works on its own aggregator and connection.
struct AccountRunner: Sendable {
    let options: BatchOptions
    /// The checked API URL; nil when nothing is sent or read from the server.
    let apiURL: String?
    let environment: [String: String]
    let console: BatchConsole

    func run(_ account: BatchAccount) -> AccountOutcome {
        let started = Date()
        var outcome = AccountOutcome(account: account, status: .failed)
        do throws(CommandError) {
            // The token is read first: a missing one fails before any parsing work.
            let configuration = try configuration(for: account)
            let days = try read(account, into: &outcome)
            if let post = options.post {
                try upload(days, post, configuration, account, into: &outcome)
            }
            outcome.status = .done
        } catch {
            outcome.error = Self.message(error, account)
            outcome.errorStatus = ExitStatus(for: error)
            if case .upload(.interrupted) = error { outcome.status = .interrupted }
        }
        outcome.seconds = Date().timeIntervalSince(started)
        outcome.finishedAt = Date()
        return outcome
    }

    private func configuration(for account: BatchAccount) throws(CommandError) -> UploadConfiguration? {
        guard let apiURL, let post = options.post else { return nil }
        do {
            let token = try account.readToken(environment: environment)
            return UploadConfiguration(apiURL: apiURL, token: token, caCertificateFile: post.caCertificateFile,
                                       tokenOrigin: account.token.description)
        } catch {
            throw .upload(error)
        }
    }

    /// How to read an account's export. With several jobs, the jobs already keep the cores busy,
    /// and one Apple parser per export (beside its reader thread) keeps memory per job lowest.
    private var importOptions: ImportOptions {
        let tuning = Tuning(environment: environment)
        return ImportOptions(invalidRecords: options.read.skipInvalid ? .skip : .fail,
                             parseWorkers: tuning.parseWorkers ?? (options.jobs > 1 ? 0 : nil), pieceSize: tuning.pieceSize)
    }

    /// The account's day totals in its zone; fills in what was read.
    private func read(_ account: BatchAccount, into outcome: inout AccountOutcome) throws(CommandError) -> [DayTotal] {
        let aggregator = DayAggregator(rule: account.zoneRule)
        let summary: ImportSummary
        do throws(ExportError) {
            // The manifest's kind is the account's, even when its export cannot be opened; auto is known once opened.
            if account.kind != .auto { outcome.kind = account.kind.rawValue }
            let importer = try ExportImporter.open(path: account.file, as: account.kind.choice)
            outcome.kind = importer.kind == .appleHealth ? "apple" : "hc"
            summary = try importer.read(into: aggregator, options: importOptions).summary
            try aggregator.finish()
        } catch {
            throw .export(error)
        }
        outcome.format = summary.format
        outcome.skippedRecords = summary.skippedRecords
        if summary.skippedRecords > 0 {
            // Skipped data is always reported, even with --quiet.
            console.warn(account, "skipped \(Plural.count(summary.skippedRecords, "invalid step record")) (--skip-invalid); the totals of their days are low")
        }
        let days = aggregator.dayTotals()
        outcome.daysParsed = days.count
        outcome.firstDay = days.first?.date
        outcome.lastDay = days.last?.date
        outcome.totalSteps = days.reduce(0) { $0 + $1.steps }
        return days
    }

    /// Posts, plans or dry-runs the days; fills in what the server was sent and wrote.
    private func upload(_ days: [DayTotal], _ post: PostOptions, _ configuration: UploadConfiguration?,
                        _ account: BatchAccount, into outcome: inout AccountOutcome) throws(CommandError) {
        let today = UploadRules.today(in: account.zone)
        guard let configuration, !post.dryRun else {
            let plan = UploadPlan(days: days, today: today, sendAll: post.sendAll)
            outcome.daysToSend = plan.daysToSend.count
            outcome.daysNotSent = plan.held.count
            outcome.requests = plan.batches.count
            return
        }
        var report = UploadReport()
        do throws(UploadError) {
            let api = try TraineeHealthAPI(configuration: configuration, timeout: .seconds(post.timeoutSeconds))
            let uploader = Uploader(api: api, policy: RetryPolicy(maxAttempts: post.retries + 1),
                                    isInterrupted: { interruptRequested.load(ordering: .relaxed) },
                                    log: { console.note(account, "post: \($0)") })
            let prepared = try PreparedUpload.prepare(days: days, today: today, sendAll: post.sendAll,
                                                      keepExisting: post.keepExisting, readServer: post.plan,
                                                      uploader: uploader)
            report = prepared.report
            outcome.daysToSend = report.daysToSend
            outcome.daysNotSent = prepared.plan.held.count
            if post.plan {
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

    /// The error in the words of a batch: a refused token is the account's token, not STEPIMPORT_TOKEN.
    private static func message(_ error: CommandError, _ account: BatchAccount) -> String {
        if case .upload(.unauthorized(let status, let text)) = error {
            return "the server refused the account's token (\(status))\(text.isEmpty ? "" : ": \(text)"); check its \(account.token)"
        }
        return error.description
    }
}

extension BatchAccount.Kind {
    /// The reader a manifest's `kind` column asks for.
    var choice: ExportChoice {
        switch self {
        case .apple: return .apple
        case .hc: return .healthConnect(nil)
        case .auto: return .auto
        }
    }
}
