import Foundation
import Testing

/// `stepimport batch` end to end: generated accounts (scripts/make_batch.py), the contract
/// server with faults, and what the server stored per trainee checked against each account's
/// expected days.
@Suite(.serialized) struct BatchTests {
    /// One account as `make_batch.py` describes it in accounts.json.
    struct Account: Decodable {
        let account: String
        let kind: String
        let file: String
        let tz: String
        let trainee: String
        let good: Bool
        let problem: String?
        let oracle: String?
        let expected: String?
        let key: String?
    }

    /// A generated batch in its own folder: 50 good accounts and 8 broken ones.
    struct Batch {
        let folder: URL
        let accounts: [Account]
        /// `--token NAME:TOKEN=ZONE` for every account the server knows.
        let serverArguments: [String]
        let tokens: [String]

        var good: [Account] { accounts.filter(\.good) }
        /// Shell lines that enter the folder and export the token variables (never on a command
        /// line, where the shell would print them when a job is killed).
        var setUp: String { "cd '\(folder.path)'\nset -a\n. ./token-env.txt\nset +a" }
        var broken: [Account] { accounts.filter { !$0.good } }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static let goodAccounts = 50
    static let brokenAccounts = 8

    /// Writes a fresh batch (a few seconds: the exports are shared by the accounts).
    static func makeBatch(good: Int = goodAccounts, broken: Int = brokenAccounts) throws -> Batch {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-batch-\(UUID().uuidString)")
        let result = try CommandRunner.run("""
        python3 "$SCRIPTS/make_batch.py" --out '\(folder.path)' --accounts \(good) --broken \(broken) --synth "$SYNTH"
        """)
        try #require(result.status == 0, "\(result.stderr)")
        let accounts = try JSONDecoder().decode([Account].self, from: Data(contentsOf: folder.appendingPathComponent("accounts.json")))
        let serverTokens = try String(contentsOf: folder.appendingPathComponent("server-tokens.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let tokens = serverTokens.map { String($0.split(separator: ":", maxSplits: 1)[1].split(separator: "=")[0]) }
        return Batch(folder: folder, accounts: accounts, serverArguments: serverTokens.flatMap { ["--token", $0] },
                     tokens: tokens)
    }

    /// Runs `stepimport batch` in the batch's folder with its token variables set.
    static func batch(_ batch: Batch, _ arguments: String) throws -> CommandRunner.Result {
        try CommandRunner.run("\(batch.setUp)\n\"$STEPIMPORT\" batch manifest.csv \(arguments)")
    }

    /// Successful (201) posts of days the server answered.
    static func writes(_ server: ContractServer) throws -> Int {
        let counts = (try server.state()["requests"] as? [String: Any])?["POST /v1/trainee/health/days"] as? [String: Any]
        return counts?["201"] as? Int ?? 0
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// The report's accounts by label.
    static func reportAccounts(_ path: String) throws -> [String: [String: Any]] {
        let accounts = try #require(try json(path)["accounts"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: accounts.map { ($0["account"] as! String, $0) })
    }

    /// Every trainee's stored rows (date -> steps), from one read of the server's state.
    static func storedDays(_ server: ContractServer) throws -> [String: [String: Int]] {
        let rows = try #require(try server.state()["rows"] as? [String: Any])
        var result: [String: [String: Int]] = [:]
        for (trainee, list) in rows {
            for row in list as? [[String: Any]] ?? [] {
                if let date = row["date"] as? String, let steps = row["steps"] as? Int {
                    result[trainee, default: [:]][date] = steps
                }
            }
        }
        return result
    }

    /// The server's window for a trainee in `zone` today: today - 90 ... today + 1.
    static func window(_ zone: String) -> ClosedRange<String> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let today = calendar.startOfDay(for: Date())
        func text(_ offset: Int) -> String {
            let day = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: today)!)
            return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
        }
        return text(-90)...text(1)
    }

    /// The days the server must hold for a good account: its day totals in its zone, inside the
    /// window. From the generator's own model where it has the account's zone, else from
    /// `stepimport apple|hc FILE --tz ZONE` on that one file.
    static func expectedDays(_ account: Account, in batch: Batch) throws -> [String: Int] {
        var days: [String: Int] = [:]
        if account.oracle == "synth", let expected = account.expected, let key = account.key {
            let object = try json(batch.path(expected))
            let list = key == "tz" ? (object["tz"] as? [String: Any])?["days"] as? [[String: Any]] : object["days"] as? [[String: Any]]
            for day in try #require(list) { days[day["date"] as! String] = day["steps"] as? Int }
        } else {
            let reader = account.kind == "apple" ? "apple" : "hc"
            let result = try CommandRunner.run("\"$STEPIMPORT\" \(reader) '\(batch.path(account.file))' --tz \(account.tz) --format json -q")
            try #require(result.status == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            for day in object["days"] as? [[String: Any]] ?? [] { days[day["date"] as! String] = day["steps"] as? Int }
        }
        let window = Self.window(account.tz)
        return days.filter { window.contains($0.key) && (1...100_000).contains($0.value) }
    }

    static func assertTokensNeverShown(_ batch: Batch, _ results: [CommandRunner.Result], _ server: ContractServer, report: String) throws {
        let reportText = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let journal = (try? String(contentsOfFile: batch.path("manifest.journal.jsonl"), encoding: .utf8)) ?? ""
        for token in batch.tokens {
            for result in results {
                #expect(!String(decoding: result.stdout, as: UTF8.self).contains(token))
                #expect(!result.stderr.contains(token))
            }
            #expect(!server.log.contains(token))
            #expect(!reportText.contains(token))
            #expect(!journal.contains(token))
        }
    }

    /// A server that echoes each account's Authorization header with terminal escapes in its 401s:
    /// no token and no raw control character in the console, the table, the report or the journal.
    @Test func serverTextIsRedactedAndEscapedInEveryOutputOfABatch() throws {
        let batch = try Self.makeBatch(good: 4, broken: 0)
        let server = try ContractServer(batch.serverArguments + ["--fail-first", "100", "--fail-status", "401",
                                                                 "--fail-body", "refused {authorization}\u{1B}[2J\u{07} again"])
        let report = batch.path("report.json")
        let result = try Self.batch(batch, "--post --api-url \(server.url) --jobs 2 --report report.json")
        #expect(result.status == 1, "\(result.stderr)")
        try Self.assertTokensNeverShown(batch, [result], server, report: report)
        let journal = try Data(contentsOf: URL(fileURLWithPath: batch.path("manifest.journal.jsonl")))
        let outputs = [("stdout", result.stdout), ("stderr", Data(result.stderr.utf8)), ("journal", journal),
                       ("report", try Data(contentsOf: URL(fileURLWithPath: report)))]
        for (name, bytes) in outputs {
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "raw control characters in the \(name)")
        }
        #expect(result.stderr.contains("refused [redacted]\\u{1b}[2J\\u{7} again"), "\(result.stderr)")
        let accounts = try Self.reportAccounts(report)
        #expect(accounts.count == 4)
        for account in accounts.values {
            let error = try #require(account["error"] as? String)
            #expect(error.contains("refused [redacted]\\u{1b}[2J\\u{7} again"), "\(error)")
            #expect(account["exitStatus"] as? Int == 77)
        }
    }

    @Test func killedMidRunAndRunAgainTheServerHoldsExactlyTheExpectedDays() throws {
        let batch = try Self.makeBatch()
        #expect(batch.accounts.count >= 50 + 6)
        #expect(Set(batch.good.map(\.kind)).isSuperset(of: ["apple", "hc", "auto"]))
        // Faults: the first POSTs fail with 503, every 9th connection is reset, and every
        // request is slowed down so that the kill lands mid-run.
        let server = try ContractServer(batch.serverArguments + ["--fail-first", "3", "--retry-after", "1",
                                                                 "--drop-every", "9", "--delay", "0.04"])
        let report = batch.path("report.json")
        let journal = batch.path("manifest.journal.jsonl")

        // The first run is killed with SIGKILL once 15 accounts are in the journal.
        let killed = try CommandRunner.run(batch.setUp + "\n" + CommandRunner.killScript(
            "\"$STEPIMPORT\" batch manifest.csv --post --api-url \(server.url) --jobs 2 > first.out 2> first.err",
            onceJournal: journal, holds: 15))
        let killedOutput = String(decoding: killed.stdout, as: UTF8.self)
        #expect(killedOutput.hasPrefix("status 137"), "the first run must have been killed mid-run: \(killedOutput) \(killed.stderr)")
        let linesAtKill = Int(killedOutput.split(separator: "\n").last ?? "") ?? 0
        #expect(linesAtKill >= 15 && linesAtKill < batch.accounts.count, "killed after \(linesAtKill) accounts")

        let rerun = try Self.batch(batch, "--post --api-url \(server.url) --jobs 2 --report '\(report)'")
        #expect(rerun.status == 1, "some accounts are broken, so the batch ends with status 1: \(rerun.stderr)")
        #expect(rerun.stderr.contains("says \(linesAtKill - batch.broken.count)") || rerun.stderr.contains("is finished already")
            || rerun.stderr.contains("are finished already"), "\(rerun.stderr)")

        // The server holds exactly the expected days for every good account.
        let stored = try Self.storedDays(server)
        for account in batch.good {
            let expected = try Self.expectedDays(account, in: batch)
            #expect(expected.count >= 85, "\(account.account): a generated account has about 90 days in the window")
            #expect(stored[account.trainee] ?? [:] == expected, "\(account.account) (\(account.file), \(account.tz))")
        }
        // And nothing for the broken ones.
        for account in batch.broken {
            #expect(stored[account.trainee] == nil, "\(account.account): \(account.problem ?? "")")
        }

        // The report accounts for every account: good ones done (in this run or the killed one),
        // every broken one failed with its reason.
        let accounts = try Self.reportAccounts(report)
        #expect(accounts.count == batch.accounts.count)
        for account in batch.good {
            let status = accounts[account.account]?["status"] as? String
            #expect(status == "done" || status == "done-earlier", "\(account.account): \(status ?? "missing")")
        }
        #expect(batch.good.contains { accounts[$0.account]?["status"] as? String == "done-earlier" })
        let reasons = [
            "truncated-zip": "damaged zip archive",
            "malformed-json": "malformed JSON",
            "apple-as-hc": "found an Apple Health export",
            "unknown-token": "refused the account's token (401)",
            "bad-token-file": "the first line is empty or holds characters a bearer token cannot have",
            "auto-junk": "none of the accepted formats",
            "huge-count": "is more steps than one record can hold",
            "deep-xml": "elements nested more than 256 deep",
        ]
        for account in batch.broken {
            let entry = try #require(accounts[account.account])
            #expect(entry["status"] as? String == "failed")
            let error = entry["error"] as? String ?? ""
            #expect(error.contains(reasons[account.problem ?? ""] ?? "?"), "\(account.account): \(error)")
            #expect(rerun.stderr.contains("\(account.account) (manifest line"), "the closing list names \(account.account)")
            #expect(String(decoding: rerun.stdout, as: UTF8.self).contains("\(account.account) "))
        }
        let full = try Self.json(report)
        #expect((full["counts"] as? [String: Any])?["failed"] as? Int == batch.broken.count)
        #expect(full["exitStatus"] as? Int == 1)

        // A third run has only the broken accounts left to try, and changes nothing stored.
        let writes = try Self.writes(server)
        let third = try Self.batch(batch, "--post --api-url \(server.url)")
        #expect(third.status == 1)
        #expect(third.stderr.contains("\(batch.broken.count) to run"), "\(third.stderr)")
        #expect(try Self.storedDays(server) == stored)
        #expect(try Self.writes(server) == writes)
        try Self.assertTokensNeverShown(batch, [killed, rerun, third], server, report: report)
    }

    @Test func redoPostsEveryAccountAgainAndAShardTakesOnlyItsShare() throws {
        let batch = try Self.makeBatch(good: 12, broken: 0)
        let server = try ContractServer(batch.serverArguments)
        let first = try Self.batch(batch, "--post --api-url \(server.url) -q")
        #expect(first.status == 0, "\(first.stderr)")
        let posts = try Self.writes(server)
        #expect(posts >= 12)

        let again = try Self.batch(batch, "--post --api-url \(server.url) -q")
        #expect(again.status == 0)
        #expect(try Self.writes(server) == posts, "done accounts are skipped")

        let redo = try Self.batch(batch, "--post --api-url \(server.url) -q --redo")
        #expect(redo.status == 0)
        #expect(try Self.writes(server) == 2 * posts)

        // The shards of one manifest take every account exactly once, each with its own journal.
        var seen: [String] = []
        for index in 1...3 {
            let report = batch.path("shard-\(index).json")
            let result = try Self.batch(batch, "--post --api-url \(server.url) -q --redo --shard \(index)/3 --report '\(report)'")
            #expect(result.status == 0, "\(result.stderr)")
            seen += try Self.reportAccounts(report).keys
            #expect(FileManager.default.fileExists(atPath: batch.path("manifest.shard-\(index)-of-3.journal.jsonl")))
        }
        #expect(seen.sorted() == batch.accounts.map(\.account).sorted())
    }

    @Test func planCountsPerAccountAndKeepExistingKeepsHandTypedDays() throws {
        let batch = try Self.makeBatch(good: 4, broken: 0)
        let first = try #require(batch.good.first)
        let expected = try Self.expectedDays(first, in: batch)
        let days = expected.keys.sorted()
        // The trainee typed two days by hand; one of them also differs from the export.
        let manual = [days[10]: 1234, days[20]: expected[days[20]]!]
        let server = try ContractServer(batch.serverArguments + manual.flatMap { ["--seed-manual", "\(first.trainee):\($0.key)=\($0.value)"] })

        let report = batch.path("plan.json")
        let plan = try Self.batch(batch, "--post --api-url \(server.url) --plan --keep-existing --report '\(report)'")
        #expect(plan.status == 0, "\(plan.stderr)")
        let planned = try #require(try Self.reportAccounts(report)[first.account]?["plan"] as? [String: Any])
        #expect(planned["keep"] as? Int == 2)
        #expect(planned["write"] as? Int == expected.count - 2)
        #expect(try Self.writes(server) == 0, "--plan writes nothing")
        #expect(!FileManager.default.fileExists(atPath: batch.path("manifest.journal.jsonl")), "--plan keeps no journal")

        let post = try Self.batch(batch, "--post --api-url \(server.url) --keep-existing -q")
        #expect(post.status == 0, "\(post.stderr)")
        let stored = try Self.storedDays(server)[first.trainee] ?? [:]
        #expect(stored == expected.merging(manual) { _, typed in typed })
        #expect(stored[days[10]] == 1234, "the hand-typed value is kept")
    }

    @Test func withoutPostEveryAccountIsSummarizedAndNothingIsWritten() throws {
        let batch = try Self.makeBatch(good: 8, broken: 2)
        let report = batch.path("summary.json")
        let result = try Self.batch(batch, "--report '\(report)'")
        #expect(result.status == 1)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        #expect(stdout.hasPrefix("Account "))
        #expect(stdout.contains("10 accounts: 8 done, 2 failed."))
        let accounts = try Self.reportAccounts(report)
        for account in batch.good {
            let entry = try #require(accounts[account.account])
            #expect(entry["status"] as? String == "done")
            #expect(entry["daysParsed"] as? Int ?? 0 >= 99)
            #expect(entry["totalSteps"] as? Int ?? 0 > 0)
            #expect(entry["zone"] as? String == account.tz, "the zone as the manifest names it")
        }
        #expect(!FileManager.default.fileExists(atPath: batch.path("manifest.journal.jsonl")), "no journal without --post")
    }

    /// With several jobs, each Apple export is still read as a single run reads it: a defect
    /// inside a record nobody asked for (an undefined entity in a heart-rate record) fails an
    /// account only with `--strict-xml`, as it fails `stepimport apple` only with it.
    @Test func withSeveralJobsAnAccountFailsWhenAndOnlyWhenItFailsAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-04-01 08:00:00 +0200" endDate="2024-04-01 08:10:00 +0200" value="1200"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch &bogus;" unit="count/min" startDate="2024-04-01 08:00:00 +0200" endDate="2024-04-01 08:00:00 +0200" value="70"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-04-02 08:00:00 +0200" endDate="2024-04-02 08:10:00 +0200" value="800"/>
        </HealthData>

        """.write(to: folder.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        try "account,file,kind,tz\nann,export.xml,apple,Europe/Berlin\nben,export.xml,apple,Europe/Berlin\n"
            .write(to: folder.appendingPathComponent("manifest.csv"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run("""
        cd '\(folder.path)'
        "$STEPIMPORT" apple export.xml -q > /dev/null; echo "alone $?"
        "$STEPIMPORT" apple export.xml -q --strict-xml > /dev/null 2>&1; echo "alone strict $?"
        "$STEPIMPORT" batch manifest.csv --jobs 2 -q --report batch.json > /dev/null; echo "batch $?"
        "$STEPIMPORT" batch manifest.csv --jobs 2 -q --strict-xml --report strict.json > /dev/null 2>&1; echo "batch strict $?"
        """)
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(output == "alone 0\nalone strict 65\nbatch 0\nbatch strict 1\n", "\(output) \(result.stderr)")
        let read = try Self.reportAccounts(folder.appendingPathComponent("batch.json").path)
        let strict = try Self.reportAccounts(folder.appendingPathComponent("strict.json").path)
        for account in ["ann", "ben"] {
            #expect(read[account]?["status"] as? String == "done")
            #expect(read[account]?["totalSteps"] as? Int == 2000)
            #expect(strict[account]?["status"] as? String == "failed")
            #expect((strict[account]?["error"] as? String)?.contains("Entity 'bogus' not defined") == true)
        }
    }

    @Test func aManifestWithMistakesIsRefusedWithEveryProblemListed() throws {
        let batch = try Self.makeBatch(good: 3, broken: 0)
        try """
        account,file,kind,token_file,tz
        a,exports/01-apple.zip,apple,tokens/trainee-001.token,Europe/Berlin
        a,exports/01-apple.zip,apple,tokens/trainee-001.token,Europe/Berlin
        b,exports/missing.zip,apple,tokens/trainee-001.token,Europe/Berlin
        c,exports/01-apple.zip,android,tokens/trainee-001.token,Mars/Olympus
        d,exports/01-apple.zip,apple,,UTC

        """.write(toFile: batch.path("bad.csv"), atomically: true, encoding: .utf8)
        let server = try ContractServer(batch.serverArguments)
        let result = try CommandRunner.run("cd '\(batch.folder.path)' && \"$STEPIMPORT\" batch bad.csv --post --api-url \(server.url)")
        #expect(result.status == 65)
        for expected in ["line 3, account", "line 4, file", "line 5, kind", "line 5, tz", "line 6, token_file/token_env"] {
            #expect(result.stderr.contains(expected), "\(expected) in \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0)
        #expect(!FileManager.default.fileExists(atPath: batch.path("bad.journal.jsonl")))
    }

    @Test func anUnreachableServerStopsTheBatchInsteadOfFailingEveryAccount() throws {
        let batch = try Self.makeBatch(good: 12, broken: 0)
        let report = batch.path("down.json")
        let result = try Self.batch(batch, "--post --api-url http://127.0.0.1:9 --retries 0 --jobs 2 --report '\(report)'")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("batch stopped"))
        let counts = try #require(try Self.json(report)["counts"] as? [String: Any])
        #expect(counts["notRun"] as? Int ?? 0 > 0, "accounts after the breaker are not run")
        #expect(counts["done"] as? Int == 0)
    }

    @Test func twoBatchesCannotShareAJournal() throws {
        let batch = try Self.makeBatch(good: 4, broken: 0)
        let server = try ContractServer(batch.serverArguments + ["--delay", "1"])
        let result = try CommandRunner.run("""
        \(batch.setUp)
        "$STEPIMPORT" batch manifest.csv --post --api-url \(server.url) -q > first.out 2> first.err &
        pid=$!
        for i in $(seq 1 100); do [ -f manifest.journal.jsonl ] && break; sleep 0.05; done
        sleep 0.2
        "$STEPIMPORT" batch manifest.csv --post --api-url \(server.url) -q
        echo "second $?"
        wait $pid
        echo "first $?"
        """)
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(output.contains("second 75"), "\(output) \(result.stderr)")
        #expect(output.contains("first 0"))
        #expect(result.stderr.contains("another stepimport batch is using it"))
    }

    @Test func ctrlCStopsStartingAccountsAndTheNextRunFinishes() throws {
        let batch = try Self.makeBatch(good: 10, broken: 0)
        let server = try ContractServer(batch.serverArguments + ["--delay", "0.3"])
        let report = batch.path("interrupted.json")
        let result = try CommandRunner.run("""
        \(batch.setUp)
        "$STEPIMPORT" batch manifest.csv --post --api-url \(server.url) --jobs 2 --report '\(report)' -q > first.out 2> first.err &
        pid=$!
        for i in $(seq 1 200); do [ -s manifest.journal.jsonl ] && break; sleep 0.05; done
        kill -INT $pid
        wait $pid
        echo "status $?"
        """)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("status 130"))
        let first = try Self.json(report)
        #expect(first["outcome"] as? String == "interrupted")
        let counts = try #require(first["counts"] as? [String: Any])
        #expect(counts["notRun"] as? Int ?? 0 > 0)

        let rerun = try Self.batch(batch, "--post --api-url \(server.url) -q")
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let stored = try Self.storedDays(server)
        for account in batch.good {
            #expect(stored[account.trainee] ?? [:] == (try Self.expectedDays(account, in: batch)), "\(account.account)")
        }
    }
}
