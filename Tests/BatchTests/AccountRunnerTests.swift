import Foundation
import ExportParsers
import HealthDays
import Testing
@testable import Batch

/// The runner and the scheduler without a process: what they read, the typed failures, the
/// journal lines and what the observer hears.
@Suite struct AccountRunnerTests {
    /// The package's `samples/` folder.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    static func account(_ label: String, file: String, kind: ExportChoice = .family(.appleHealth),
                        token: BatchAccount.TokenSource = .environment("STEPIMPORT_TEST_TOKEN"),
                        zone: String = "Europe/Berlin") -> BatchAccount {
        BatchAccount(line: 2, account: label, file: file, relativeFile: file, kind: kind, token: token,
                     zone: TimeZone(identifier: zone)!)
    }

    static func runner(_ action: BatchSettings.Action = .summarize, observer: RecordingObserver,
                       environment: [String: String] = [:], interrupted: Bool = false) -> AccountRunner {
        AccountRunner(settings: BatchSettings(action: action), environment: environment, observer: observer,
                      isInterrupted: { interrupted })
    }

    @Test func summarizingReadsTheExportInTheAccountsZone() throws {
        let data = try Data(contentsOf: Self.samples.appendingPathComponent("export.expected.json"))
        let expected = try JSONDecoder().decode(Expected.self, from: data).tz
        #expect(expected.zone == "Europe/Berlin")
        let observer = RecordingObserver()
        let outcome = Self.runner(observer: observer)
            .run(Self.account("anna", file: Self.samples.appendingPathComponent("export.zip").path))
        #expect(outcome.status == .done)
        #expect(outcome.failure == nil)
        #expect(outcome.kind == "apple")
        #expect(outcome.daysParsed == expected.days.count)
        #expect(outcome.firstDay?.description == expected.days.first?.date)
        #expect(outcome.lastDay?.description == expected.days.last?.date)
        #expect(outcome.totalSteps == expected.days.reduce(0) { $0 + $1.steps })
        #expect(outcome.journalEntry(error: nil)?.status == .done)
        #expect(observer.events.isEmpty, "nothing skipped, nothing posted")
    }

    /// A writer of days that records what it was given, or fails.
    final class RecordingDaysWriter: AccountDaysWriter, @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String: [DayTotal]] = [:]
        let failure: AccountFailure?

        init(failure: AccountFailure? = nil) {
            self.failure = failure
        }

        var accounts: [String: [DayTotal]] { lock.withLock { written } }

        func place(of account: BatchAccount) -> String { "out/\(account.account).json" }

        func write(_ days: [DayTotal], of outcome: AccountOutcome) throws(AccountFailure) {
            if let failure { throw failure }
            lock.withLock { written[outcome.account.account] = days }
        }
    }

    /// The days are written last: all of them for a summary or a dry run, nothing for an account
    /// whose export or token failed, and a failure to write fails the account.
    @Test func theDaysAreWrittenLastAndOnlyForAnAccountThatDidNotFail() {
        let export = Self.samples.appendingPathComponent("export.zip").path
        let writer = RecordingDaysWriter()
        for action in [BatchSettings.Action.summarize, .dryRun(sendAll: false)] {
            let runner = AccountRunner(settings: BatchSettings(action: action), environment: [:], observer: RecordingObserver(),
                                       daysWriter: writer, isInterrupted: { false })
            let outcome = runner.run(Self.account("anna", file: export))
            #expect(outcome.status == .done)
            #expect(outcome.output == "out/anna.json")
            #expect(outcome.journalEntry(error: nil)?.output == "out/anna.json")
            #expect(writer.accounts["anna"]?.count == outcome.daysParsed && outcome.daysParsed > 40)
        }
        let upload = BatchSettings.Upload(apiURL: "https://127.0.0.1:9/v1", caCertificateFile: nil, retries: 0,
                                          timeoutSeconds: 1, sendAll: false, keepExisting: false)
        let posting = AccountRunner(settings: BatchSettings(action: .post(upload)), environment: [:], observer: RecordingObserver(),
                                    daysWriter: writer, isInterrupted: { false })
        let noToken = posting.run(Self.account("ben", file: export))
        let missing = AccountRunner(settings: BatchSettings(), environment: [:], observer: RecordingObserver(), daysWriter: writer,
                                    isInterrupted: { false }).run(Self.account("carla", file: "/nonexistent/export.zip"))
        #expect(noToken.status == .failed && missing.status == .failed)
        #expect(noToken.output == nil && missing.output == nil)
        #expect(Set(writer.accounts.keys) == ["anna"])

        let failing = AccountRunner(settings: BatchSettings(), environment: [:], observer: RecordingObserver(),
                                    daysWriter: RecordingDaysWriter(failure: .output("disk full")), isInterrupted: { false })
        let outcome = failing.run(Self.account("dana", file: export))
        #expect(outcome.status == .failed)
        #expect(outcome.failure == .output("disk full"))
        #expect(outcome.output == nil)
    }

    @Test func aMissingExportIsAnExportFailure() {
        let outcome = Self.runner(observer: RecordingObserver()).run(Self.account("gone", file: "/nonexistent/export.zip"))
        #expect(outcome.status == .failed)
        #expect(outcome.failure == .export(.notFound(path: "/nonexistent/export.zip")))
        #expect(outcome.kind == "apple", "the manifest's kind, even when the export cannot be opened")
        #expect(outcome.isServerTrouble == false)
        #expect(outcome.journalEntry(error: "words")?.error == "words")
    }

    @Test func theTokenIsReadBeforeTheExport() {
        let upload = BatchSettings.Upload(apiURL: "https://127.0.0.1:9/v1", caCertificateFile: nil, retries: 0,
                                          timeoutSeconds: 1, sendAll: false, keepExisting: false)
        let outcome = Self.runner(.post(upload), observer: RecordingObserver())
            .run(Self.account("no-token", file: "/nonexistent/export.zip"))
        guard case .token(.configuration(let message))? = outcome.failure else {
            Issue.record("expected a token failure, got \(String(describing: outcome.failure))")
            return
        }
        #expect(message.contains("STEPIMPORT_TEST_TOKEN"))
        #expect(outcome.kind == nil, "no export work before the token is there")
    }

    @Test func aDryRunNeedsNoTokenAndCountsRequests() {
        let observer = RecordingObserver()
        let outcome = Self.runner(.dryRun(sendAll: true), observer: observer)
            .run(Self.account("dry", file: Self.samples.appendingPathComponent("export.zip").path))
        #expect(outcome.status == .done)
        #expect(outcome.daysToSend == outcome.daysParsed, "--send-all sends every day")
        #expect(outcome.requests >= 1)
        #expect(outcome.daysSent == 0)
    }

    @Test func theSchedulerJournalsEveryAccountInTheFrontEndsWords() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("stepimport-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try BatchJournal(path: folder.appendingPathComponent("journal.jsonl").path)
        let accounts = [Self.account("anna", file: Self.samples.appendingPathComponent("export.zip").path),
                        Self.account("gone", file: "/nonexistent/export.zip")]
        let observer = RecordingObserver()
        let scheduler = BatchScheduler(pending: accounts, runner: Self.runner(observer: observer), journal: journal,
                                       jobs: 2, journalText: { failure, account in "\(account.account): \(failure)" })
        let (outcomes, stop) = scheduler.run(jobs: 2)
        #expect(stop == nil)
        #expect(Set(outcomes.map(\.account.account)) == ["anna", "gone"])
        #expect(journal.latest(for: "anna")?.status == .done)
        #expect(journal.latest(for: "anna")?.error == nil)
        #expect(journal.latest(for: "gone")?.status == .failed)
        #expect(journal.latest(for: "gone")?.error?.hasPrefix("gone: export(") == true)
        let events = observer.events
        #expect(events.filter { $0.hasPrefix("started ") }.count == 2)
        #expect(Set(events.filter { $0.hasPrefix("finished ") }) == ["finished anna done", "finished gone failed"])
        #expect(events.last == "ended")
    }

    @Test func anInterruptedBatchStartsNoAccount() {
        let observer = RecordingObserver()
        let scheduler = BatchScheduler(pending: [Self.account("anna", file: "/nonexistent/export.zip")],
                                       runner: Self.runner(observer: observer, interrupted: true), journal: nil,
                                       jobs: 1, journalText: { _, _ in "" })
        let (outcomes, stop) = scheduler.run(jobs: 1)
        #expect(outcomes.isEmpty)
        guard case .interrupted? = stop else {
            Issue.record("expected the batch to stop as interrupted, got \(String(describing: stop))")
            return
        }
        #expect(!observer.events.contains { $0.hasPrefix("started ") })
    }
}

/// `samples/export.expected.json`: the totals in the sample manifest's zone.
private struct Expected: Decodable {
    struct Day: Decodable {
        let date: String
        let steps: Int
    }
    struct Zoned: Decodable {
        let zone: String
        let days: [Day]
    }
    let tz: Zoned
}

/// Records what the batch reports, one line per call, in order.
final class RecordingObserver: BatchObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    private func record(_ event: String) {
        lock.lock()
        recorded.append(event)
        lock.unlock()
    }

    func accountStarted(_ account: BatchAccount) { record("started \(account.account)") }
    func accountFinished(_ outcome: AccountOutcome, position: Int, of total: Int) {
        record("finished \(outcome.account.account) \(outcome.status.rawValue)")
    }
    func skippedRecords(_ count: Int, in account: BatchAccount) { record("skipped \(count) in \(account.account)") }
    func uploadLog(_ line: String, for account: BatchAccount) { record("log \(account.account): \(line)") }
    func progress(_ tally: BatchTally) {}
    func batchEnded() { record("ended") }
}
