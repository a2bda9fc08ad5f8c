import BackendUpload
import Batch
import ExportParsers
import Foundation
import HealthDays
import HTTPClient
import Platform

/// `stepimport batch MANIFEST`: every account of a manifest (or of one shard of it), read in its
/// own zone and printed, planned or posted, on `--jobs` threads, with a journal that makes a
/// re-run take only what is not done yet.
struct BatchCommand {
    let manifestPath: String
    let options: BatchOptions
    let diagnostics: Diagnostics

    func run() -> ExitStatus {
        let started = Date()
        let environment = ProcessInfo.processInfo.environment
        // Configuration first: a missing API URL fails before any work, as for one export.
        var apiURL: String?
        var proxy: HTTPProxy?
        if let post = options.post, !post.dryRun {
            var problems: [String] = []
            do { apiURL = try UploadConfiguration.apiURL(post.apiURL, environment: environment) } catch { problems.append(error.description) }
            do { proxy = try UploadConfiguration.proxy(post.proxy, environment: environment) } catch { problems.append(error.description) }
            do { try UploadConfiguration.checkCACertificate(post.caCertificateFile) } catch { problems.append(error.description) }
            if !problems.isEmpty {
                diagnostics.error(UploadConfiguration.words(problems))
                return .configuration
            }
        }
        let manifest: BatchManifest
        do {
            manifest = try BatchManifest(contentsOf: manifestPath, environment: environment, needsTokens: options.needsTokens)
        } catch {
            diagnostics.error(error.description)
            return ExitStatus(for: error)
        }
        for warning in manifest.warnings {
            diagnostics.warn(warning)
        }
        let accounts = manifest.accounts.filter { options.shard.contains($0.account) }
        // --output: the folder or the database is made, and every account's file checked, before any account runs.
        var daysOutput: BatchDaysOutput?
        if let output = options.read.output {
            do throws(BatchDaysOutput.Problem) {
                daysOutput = try BatchDaysOutput(path: output, format: options.read.format, accounts: manifest.accounts)
            } catch {
                switch error {
                case .clashingLabels(let problems):
                    diagnostics.error(BatchError.invalidManifest(path: manifestPath, problems: problems).description)
                    return .dataError
                case .unusable(let words):
                    diagnostics.error(words)
                    return .ioError
                }
            }
        }
        // --report's file is made now, so that a folder it cannot be written in fails before any account runs.
        var reportFile: ReportFile?
        if let path = options.reportFile {
            do throws(CommandError) {
                reportFile = try ReportFile(path: path)
            } catch {
                diagnostics.error(error.description)
                return .ioError
            }
        }
        var journal: BatchJournal?
        if options.keepsJournal {
            let path = options.journalPath(manifest: manifestPath)
            do {
                journal = try BatchJournal(path: path)
            } catch {
                diagnostics.error(error.description)
                return ExitStatus(for: error)
            }
            if let journal, journal.repairedBytes > 0 {
                diagnostics.warn("journal \(journal.path): removed a torn last line (\(journal.repairedBytes) bytes) left by a run that was killed; that account is taken again")
            }
        }
        // With the journal's lock held, no other batch writes these accounts' files.
        daysOutput?.removeLeftovers(of: accounts)
        // What the journal says is done is skipped, unless --redo; with --output, only when its days
        // went where this run writes them.
        var earlier: [AccountOutcome] = []
        var pending: [BatchAccount] = []
        for account in accounts {
            if !options.redo, let entry = journal?.latest(for: account.account), entry.status.isFinal,
               daysOutput.map({ entry.output == $0.place(of: account) }) ?? true {
                earlier.append(AccountOutcome(account: account, journal: entry))
            } else {
                pending.append(account)
            }
        }
        let console = BatchConsole(diagnostics: diagnostics, options: options)
        announce(manifest, accounts: accounts, earlier: earlier.count, pending: pending.count, journal: journal, console: console)

        ExportParsersLibrary.prepareForThreads()
        if options.post != nil {
            InterruptSignal.install(message: "\nstepimport: stopping: no new accounts are started, and the ones running stop after their current request (Ctrl-C again to stop at once)\n")
        }
        let runner = AccountRunner(settings: options.settings(apiURL: apiURL, proxy: proxy, tuning: Tuning(environment: environment)),
                                   environment: environment, observer: console, daysWriter: daysOutput,
                                   isInterrupted: { interruptRequested.load(ordering: .relaxed) })
        let scheduler = BatchScheduler(pending: pending, runner: runner, journal: journal, jobs: options.jobs,
                                       journalText: { failure, account in failure.message(for: account) })
        let (outcomes, stop) = scheduler.run(jobs: options.jobs)
        daysOutput?.close()
        journal?.close()

        // Every account of the shard appears once, in manifest order.
        var byAccount: [String: AccountOutcome] = [:]
        for outcome in earlier + outcomes { byAccount[outcome.account.account] = outcome }
        let all = accounts.map { byAccount[$0.account] ?? AccountOutcome(account: $0, status: .notRun) }
        let status = exitStatus(all, stop: stop)
        let report = BatchReport(manifest: manifestPath, options: options, journal: journal?.path, started: started,
                                 outcomes: all, ranThisTime: outcomes.count, stop: stop, exitStatus: status)
        do {
            try StandardStreams.writeOutput(BatchTable.render(all, options: options) + report.footer + "\n")
        } catch {
            diagnostics.error("cannot write the results to standard output: \(error)")
            return .ioError
        }
        finish(report, all, stop: stop, journal: journal)
        if let reportFile {
            do throws(CommandError) {
                try reportFile.write(report.json)
            } catch {
                diagnostics.error(error.description)
                return status == .success ? .ioError : status
            }
        }
        return status
    }

    private func announce(_ manifest: BatchManifest, accounts: [BatchAccount], earlier: Int, pending: Int,
                          journal: BatchJournal?, console: BatchConsole) {
        var line = "batch: \(manifestPath): \(Plural.count(manifest.accounts.count, "account"))"
        if options.shard.count > 1 {
            line += ", \(accounts.count) in shard \(options.shard)"
        }
        if let journal {
            line += "; journal \(journal.path)"
            if options.redo {
                line += " (--redo: what it says is done is done again)"
            } else if earlier > 0 {
                line += " says \(earlier) \(earlier == 1 ? "is" : "are") finished already"
            }
        }
        if let output = options.read.output {
            line += "; days to \(output.escapingControlCharacters()) (\(options.read.format.rawValue))"
        }
        line += "; \(pending) to run on \(Plural.count(min(options.jobs, max(pending, 1)), "job"))"
        console.note(line)
    }

    private func exitStatus(_ outcomes: [AccountOutcome], stop: BatchScheduler.Stop?) -> ExitStatus {
        switch stop {
        case .journal: return .ioError
        case .interrupted: return .interrupted
        case .serverTrouble(let error, _, _): return ExitStatus(for: error)
        case nil: break
        }
        let unfinished = outcomes.contains { $0.status == .failed || $0.status == .interrupted || $0.status == .notRun }
        if unfinished { return .accountsFailed }
        return outcomes.contains { $0.wroteNothing } ? .nothingWritten : .success
    }

    /// The closing lines on standard error: why it stopped, which accounts failed and how to retry.
    private func finish(_ report: BatchReport, _ outcomes: [AccountOutcome], stop: BatchScheduler.Stop?,
                        journal: BatchJournal?) {
        switch stop {
        case .journal(let error):
            diagnostics.error("\(error.description); the batch stopped, because what it does could no longer be recorded")
        case .serverTrouble:
            diagnostics.error("batch stopped: \(stop?.serverTroubleMessage ?? "")")
        case .interrupted:
            diagnostics.note("batch interrupted")
        case nil:
            break
        }
        let failed = outcomes.filter { $0.status == .failed }
        if !failed.isEmpty {
            diagnostics.write("stepimport: \(Plural.count(failed.count, "account")) failed:\n")
            for outcome in failed {
                let error = (outcome.error ?? "").replacingOccurrences(of: "\n", with: "\n    ")
                diagnostics.write("  \(outcome.account.shownLabel) (manifest line \(outcome.account.line), \(outcome.account.shownFile)): \(error)\n")
            }
        }
        let nothing = outcomes.filter { $0.wroteNothing }
        if !nothing.isEmpty {
            let labels = nothing.prefix(5).map(\.account.shownLabel).joined(separator: ", ") + (nothing.count > 5 ? ", ..." : "")
            diagnostics.warn("\(Plural.count(nothing.count, "account")) wrote nothing, every day older than the server's "
                             + "window (the API takes only the last \(UploadRules.windowPastDays) days in the trainee's zone): \(labels)")
        }
        let unfinished = outcomes.filter { $0.status != .done && $0.status != .doneEarlier && $0.status != .nothingInWindow }.count
        if unfinished > 0 {
            if journal != nil {
                diagnostics.note("running the same command again takes the \(Plural.count(unfinished, "account")) not done and skips the rest (the journal remembers them)")
            } else {
                diagnostics.note("\(Plural.count(unfinished, "account")) not done")
            }
        }
        if !options.read.quiet {
            diagnostics.note(report.timing(rate: options.read.verbose))
        }
    }
}
