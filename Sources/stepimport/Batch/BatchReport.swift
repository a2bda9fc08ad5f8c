import BackendUpload
import Batch
import ExportParsers
import Foundation
import HealthDays
import Outputs

/// The whole batch, for `--report FILE` (JSON) and the closing lines.
struct BatchReport: Encodable {
    struct Counts: Encodable {
        var accounts = 0
        var done = 0
        var doneEarlier = 0
        /// Posted, with no day inside the server's window: nothing written (this run or earlier).
        var nothingInWindow = 0
        var nothingInWindowEarlier = 0
        var failed = 0
        var interrupted = 0
        var notRun = 0
    }

    struct Plan: Encodable {
        let write: Int
        let overwrite: Int
        let same: Int
        let keep: Int
        /// Sent with `--send-all`, older than the server's window: it would skip them.
        let skip: Int
    }

    /// Records of one source left out of an account (`--exclude-source`, `exclude_sources`).
    struct Excluded: Encodable {
        let source: String
        let pattern: String
        let records: Int
    }

    /// One account's line of the report.
    struct Account: Encodable {
        let account: String
        let line: Int
        let file: String
        let zone: String
        let kind: String
        let status: String
        let format: String?
        let daysParsed: Int
        let firstDay: String?
        let lastDay: String?
        let totalSteps: Int?
        let skippedRecords: Int
        /// Records left out by source: `{"source","pattern","records"}`.
        let excludedSources: [Excluded]
        /// Records typed in by hand: left out with `--exclude-manual`, else counted.
        let recordsEnteredByHand: Int
        let daysToSend: Int
        let daysSent: Int
        let daysWritten: Int
        let daysNotSent: Int
        let requests: Int
        let plan: Plan?
        /// Where its days were written (`--output`): its file, or the database.
        let output: String?
        let error: String?
        let exitStatus: Int32?
        let seconds: Double
        let finishedAt: String?
    }

    let manifest: String
    let shard: String
    let journal: String?
    /// `--output` as given, and its format (json, csv or sqlite); nil without it.
    let output: String?
    let outputFormat: String?
    /// `summary` (no --post), `post`, `plan` or `dry-run`.
    let mode: String
    let jobs: Int
    let startedAt: String
    let finishedAt: String
    let seconds: Double
    /// Accounts finished per minute in this run (not counting those done earlier).
    let accountsPerMinute: Double
    /// `complete`, `nothing-written` (no account failed, some had no day inside the server's
    /// window), `failed` (some accounts), `interrupted` or `stopped`.
    let outcome: String
    let stopReason: String?
    let exitStatus: Int32
    let counts: Counts
    let accounts: [Account]

    init(manifest: String, options: BatchOptions, journal: String?, started: Date, outcomes: [AccountOutcome],
         ranThisTime: Int, stop: BatchScheduler.Stop?, exitStatus: ExitStatus) {
        let finished = Date()
        self.manifest = manifest
        shard = options.shard.description
        self.journal = journal
        output = options.read.output
        outputFormat = options.read.output.map { _ in options.read.format.rawValue }
        if let post = options.post {
            mode = post.plan ? "plan" : post.dryRun ? "dry-run" : "post"
        } else {
            mode = "summary"
        }
        jobs = options.jobs
        startedAt = started.formatted(.iso8601)
        finishedAt = finished.formatted(.iso8601)
        seconds = (finished.timeIntervalSince(started) * 100).rounded() / 100
        let minutes = finished.timeIntervalSince(started) / 60
        accountsPerMinute = minutes > 0 ? (Double(ranThisTime) / minutes * 10).rounded() / 10 : 0
        switch stop {
        case .interrupted: outcome = "interrupted"; stopReason = "interrupted by Ctrl-C"
        case .serverTrouble: outcome = "stopped"; stopReason = stop?.serverTroubleMessage
        case .journal(let error): outcome = "stopped"; stopReason = error.description
        case nil:
            outcome = exitStatus == .success ? "complete" : exitStatus == .nothingWritten ? "nothing-written" : "failed"
            stopReason = nil
        }
        self.exitStatus = exitStatus.rawValue
        var counts = Counts()
        counts.accounts = outcomes.count
        for outcome in outcomes {
            switch outcome.status {
            case .done: counts.done += 1
            case .doneEarlier where outcome.wroteNothing:
                counts.nothingInWindow += 1
                counts.nothingInWindowEarlier += 1
            case .doneEarlier: counts.doneEarlier += 1
            case .nothingInWindow: counts.nothingInWindow += 1
            case .failed: counts.failed += 1
            case .interrupted: counts.interrupted += 1
            case .notRun: counts.notRun += 1
            }
        }
        self.counts = counts
        let summarizing = options.post == nil
        accounts = outcomes.map { outcome in
            Account(account: outcome.account.account, line: outcome.account.line, file: outcome.account.relativeFile,
                    zone: outcome.account.zoneName, kind: outcome.kind ?? outcome.account.kind.word,
                    status: outcome.status == .doneEarlier && outcome.wroteNothing ? "nothing-in-window-earlier" : outcome.status.rawValue, format: outcome.format, daysParsed: outcome.daysParsed,
                    firstDay: outcome.firstDay?.description, lastDay: outcome.lastDay?.description,
                    totalSteps: summarizing && outcome.status == .done ? outcome.totalSteps : nil,
                    skippedRecords: outcome.skippedRecords,
                    excludedSources: outcome.excludedSources.map {
                        Excluded(source: $0.source, pattern: $0.pattern.text, records: $0.records)
                    },
                    recordsEnteredByHand: outcome.handEntries.reduce(0) { $0 + $1.records },
                    daysToSend: outcome.daysToSend, daysSent: outcome.daysSent,
                    daysWritten: outcome.daysWritten, daysNotSent: outcome.daysNotSent, requests: outcome.requests,
                    plan: outcome.plan.map { Plan(write: $0.write, overwrite: $0.overwrite, same: $0.same, keep: $0.keep, skip: $0.skip) },
                    output: outcome.output, error: outcome.error, exitStatus: outcome.errorStatus?.rawValue,
                    seconds: (outcome.seconds * 100).rounded() / 100, finishedAt: outcome.finishedAt?.formatted(.iso8601))
        }
    }

    /// The last line of the table: the accounts by outcome.
    var footer: String {
        var parts = ["\(counts.done + counts.doneEarlier) done" + (counts.doneEarlier > 0 ? " (\(counts.doneEarlier) in earlier runs)" : "")]
        if counts.nothingInWindow > 0 {
            let earlier = counts.nothingInWindowEarlier > 0 ? ", \(counts.nothingInWindowEarlier) in earlier runs" : ""
            parts.append("\(counts.nothingInWindow) with nothing written (no day inside the server's window\(earlier))")
        }
        if counts.failed > 0 { parts.append("\(counts.failed) failed") }
        if counts.interrupted > 0 { parts.append("\(counts.interrupted) interrupted") }
        if counts.notRun > 0 { parts.append("\(counts.notRun) not run") }
        return "\n\(Plural.count(counts.accounts, "account")): " + parts.joined(separator: ", ") + "."
    }

    /// How long it took; with `rate` (`-v`), how fast it went.
    func timing(rate: Bool) -> String {
        let took = String(format: "batch %@ in %.1f s", outcome, seconds)
        guard rate else { return took }
        return took + String(format: ": %.1f accounts/min on %@", accountsPerMinute, Plural.count(jobs, "job"))
    }

    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// The table on standard output at the end of a batch: one row per account, in manifest order.
enum BatchTable {
    static func render(_ outcomes: [AccountOutcome], options: BatchOptions) -> String {
        var table: TextTable
        let post = options.post
        if post == nil {
            table = TextTable(["Account", "Kind", "Days", "First", "Last", "Steps", "Status"],
                              rightAligned: [2, 5])
            for outcome in outcomes {
                let ok = outcome.status == .done
                table.add([outcome.account.shownLabel, outcome.kind ?? outcome.account.kind.word,
                           ok ? String(outcome.daysParsed) : "-", outcome.firstDay?.description ?? "-",
                           outcome.lastDay?.description ?? "-", ok ? String(outcome.totalSteps) : "-", status(outcome)])
            }
        } else if let post, post.plan {
            table = TextTable(["Account", "Days", "Write", "Overwrite", "Same", "Keep", "Not sent", "Status"],
                              rightAligned: [1, 2, 3, 4, 5, 6])
            for outcome in outcomes {
                let plan = outcome.plan
                table.add([outcome.account.shownLabel, String(outcome.daysParsed), plan.map { String($0.write) } ?? "-",
                           plan.map { String($0.overwrite) } ?? "-", plan.map { String($0.same) } ?? "-",
                           plan.map { String($0.keep) } ?? "-", String(outcome.daysNotSent), status(outcome)])
            }
        } else if let post, post.dryRun {
            table = TextTable(["Account", "Days", "To send", "Requests", "Not sent", "Status"], rightAligned: [1, 2, 3, 4])
            for outcome in outcomes {
                table.add([outcome.account.shownLabel, String(outcome.daysParsed), String(outcome.daysToSend),
                           String(outcome.requests), String(outcome.daysNotSent), status(outcome)])
            }
        } else {
            table = TextTable(["Account", "Parsed", "Sent", "Written", "Not sent", "Status"], rightAligned: [1, 2, 3, 4])
            for outcome in outcomes {
                table.add([outcome.account.shownLabel, String(outcome.daysParsed), String(outcome.daysSent),
                           String(outcome.daysWritten), String(outcome.daysNotSent), status(outcome)])
            }
        }
        return table.rendered
    }

    /// The status column: the status, and for a failure the first line of its error.
    private static func status(_ outcome: AccountOutcome) -> String {
        switch outcome.status {
        case .failed:
            let first = (outcome.error ?? "").split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
            return "failed: " + first
        case .doneEarlier: return outcome.wroteNothing ? "nothing-in-window earlier" : "done earlier"
        default: return outcome.status.rawValue
        }
    }
}
