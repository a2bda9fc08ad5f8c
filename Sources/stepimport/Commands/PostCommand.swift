import BackendUpload
import ExportParsers
import Foundation
import Synchronization
import HealthDays
import Outputs
import Platform

/// `--post`: checks, batches and posts the day totals, or shows the plan or the batches.
struct PostCommand {
    let options: PostOptions
    let configuration: UploadConfiguration
    /// The trainee's zone (`--tz`), which the server files days in: the days are counted in it,
    /// and the server's window is today in it.
    let traineeZone: TimeZone
    let diagnostics: Diagnostics
    let quiet: Bool
    /// `--report`'s file, made when the command starts.
    let reportFile: ReportFile?

    /// Resolves the configuration before any parsing work, so that a missing token fails at once;
    /// and makes `--report`'s file, so that a folder it cannot be written in fails at once too.
    static func prepare(_ options: PostOptions, zone: ZoneRule, diagnostics: Diagnostics,
                        quiet: Bool) throws(CommandError) -> PostCommand {
        // The server files each day in the trainee's zone: days counted in another (the samples'
        // own offsets, or this machine's zone for the window) land on the wrong dates.
        var zoneProblem: [String] = []
        if case .recordedOffset = zone {
            zoneProblem.append("--post needs the trainee's time zone: pass --tz ZONE (as in --tz Europe/Berlin); "
                               + "the server files each day in that zone, and days counted in another land on the wrong dates")
        }
        let configuration: UploadConfiguration
        do {
            configuration = try UploadConfiguration.resolve(
                apiURL: options.apiURL, tokenFile: options.tokenFile, caCertificateFile: options.caCertificateFile,
                proxy: options.proxy, environment: ProcessInfo.processInfo.environment, others: zoneProblem)
        } catch {
            throw .upload(error)
        }
        guard case .zone(let traineeZone) = zone else { throw .upload(.configuration(zoneProblem[0])) }
        let reportFile = try options.reportFile.map { (path) throws(CommandError) in try ReportFile(path: path) }
        return PostCommand(options: options, configuration: configuration, traineeZone: traineeZone,
                           diagnostics: diagnostics, quiet: quiet, reportFile: reportFile)
    }

    /// Before the export is read: a post that writes checks its token with one cheap request,
    /// so that a refused token stops it at once (`--plan` and `--dry-run` do not).
    func checkToken() throws(CommandError) {
        guard !options.plan && !options.dryRun else { return }
        do throws(UploadError) {
            try makeUploader().checkToken(today: UploadRules.today(in: traineeZone))
        } catch {
            throw .upload(error)
        }
    }

    private func makeUploader() throws(UploadError) -> Uploader {
        let api = try TraineeHealthAPI(configuration: configuration, timeout: .seconds(options.timeoutSeconds))
        return Uploader(api: api, policy: RetryPolicy(maxAttempts: options.retries + 1),
                        isInterrupted: { interruptRequested.load(ordering: .relaxed) },
                        log: { diagnostics.note("post: \($0)") })
    }

    /// Posts `days`, or writes the plan or the batches to `destination` (`--plan`, `--dry-run`).
    func run(_ days: [DayTotal], to destination: ResultsDestination) throws(CommandError) {
        let uploader: Uploader
        do {
            uploader = try makeUploader()
        } catch {
            throw .upload(error)
        }
        InterruptSignal.install(message: "\nstepimport: stopping after the current request (Ctrl-C again to stop at once)\n")

        let prepared: PreparedUpload
        do throws(UploadError) {
            prepared = try PreparedUpload.prepare(
                days: days, today: UploadRules.today(in: traineeZone), sendAll: options.sendAll,
                keepExisting: options.keepExisting, readServer: options.plan, uploader: uploader)
        } catch {
            throw .upload(error)
        }
        var report = prepared.report
        if options.plan || options.dryRun {
            report.outcome = options.plan ? .plan : .dryRun
            let (plan, zone) = (options.plan, traineeZone)
            try destination.write { (writer, sink) throws(OutputError) in
                if plan {
                    try writer.writePlan(prepared, zone: zone, to: sink)
                } else {
                    try writer.writeBatches(prepared.plan, to: sink)
                }
            }
            summarize(report, plan: prepared.plan, posting: false)
            try writeReport(report)
            let what = plan ? "the plan of \(Plural.count(report.daysParsed, "day"))"
                : Plural.count(prepared.plan.batches.count, "request")
            if !quiet, let line = destination.wrote(what) {
                diagnostics.note(line)
            }
            return
        }
        summarize(report, plan: prepared.plan)
        do throws(UploadError) {
            try uploader.send(prepared.plan, report: &report)
        } catch {
            finish(report)
            // The post's own failure is the one to tell; the report says how far it got.
            try? writeReport(report)
            throw .upload(error)
        }
        finish(report)
        try writeReport(report)
    }

    private func writeReport(_ report: UploadReport) throws(CommandError) {
        guard let reportFile else { return }
        var report = report
        report.error = report.failure?.reportText
        try reportFile.write(report.json)
    }

    /// What will be sent and what not, before any request. `posting`: a post, not `--plan` or `--dry-run`.
    private func summarize(_ report: UploadReport, plan: UploadPlan, posting: Bool = true) {
        var held: [String] = []
        if report.heldTooOld > 0 { held.append("\(report.heldTooOld) older than the server's 90-day window") }
        if report.heldInFuture > 0 { held.append("\(report.heldInFuture) more than a day ahead") }
        if !report.heldInvalid.isEmpty { held.append("\(report.heldInvalid.count) invalid") }
        if report.heldKeptExisting > 0 { held.append("\(report.heldKeptExisting) already on the server (--keep-existing)") }
        if !quiet {
            let window = plan.window.map { " (window \($0.lowerBound) to \($0.upperBound) in \(traineeZone.identifier))" } ?? " (--send-all)"
            diagnostics.note("post: \(report.daysParsed) days with steps; \(report.daysToSend) to send in \(report.batches.count) request\(report.batches.count == 1 ? "" : "s")\(window)"
                             + (held.isEmpty ? "" : "; not sent: " + held.joined(separator: ", ")))
        }
        for day in report.heldInvalid {
            diagnostics.warn("post: \(day.date) (\(day.steps) steps) not sent: \(day.reason)")
        }
        if plan.nothingInWindow {
            // A post ends with the error that says so; a plan or a dry run says it here.
            if !posting {
                diagnostics.warn("post: none of the \(Plural.count(plan.daysGiven, "day")) with steps is inside the server's "
                                 + "window (the last \(UploadRules.windowPastDays) days in the trainee's zone): a post would write nothing")
            }
        } else if report.heldTooOld > 0 {
            // Some days written, older ones left: what the API could not take, in one line.
            diagnostics.warn("post: \(Plural.count(report.heldTooOld, "day")) older than the server's window not sent: "
                             + "the API takes only the last \(UploadRules.windowPastDays) days in the trainee's zone")
        } else if report.sentOutsideWindow > 0 {
            diagnostics.warn("post: \(Plural.count(report.sentOutsideWindow, "day")) older than the server's window sent "
                             + "(--send-all): the server skips \(report.sentOutsideWindow == 1 ? "it" : "them"), as its contract says")
        }
    }

    /// The account of what the server kept; always printed, even with --quiet.
    private func finish(_ report: UploadReport) {
        let retried = report.batchesRetried > 0 ? ", \(report.batchesRetried) retried" : ""
        let answered = report.batches.filter { $0.written != nil }.count
        let skipped = report.sentOutsideWindow > 0 && report.outcome == .complete
            ? " (it skipped the \(report.sentOutsideWindow) older than its window)" : ""
        diagnostics.note("post: \(report.outcome.rawValue): sent \(report.daysSent) of \(report.daysToSend) days in \(answered) of \(report.batches.count) requests\(retried); the server wrote \(report.daysWritten)\(skipped)")
        if report.outcome == .interrupted || report.outcome == .failed, let next = report.batches.first(where: { $0.written == nil }) {
            diagnostics.note("post: days from \(next.first) on were not sent; running the same command again is safe (the server replaces each day)")
        }
    }
}
