import Foundation
import Testing
import TestSupport

/// `batch --output` (issue 34): every account's file, or its rows of the one database, equal what
/// `stepimport KIND FILE --tz ZONE --format json|csv` prints for its export; a broken account writes
/// nothing; a run killed with SIGKILL and run again loses nothing and duplicates nothing.
///
/// The manifest: 20 generated accounts (`scripts/make_batch.py`) and 2 broken ones (a truncated
/// zip, malformed JSON), the three samples under labels that are no safe file names, and with
/// ../shared the real de_DE Apple export, the Fitbit Takeout folder and a Google Fit daily summary.
@Suite(.serialized) struct BatchOutputTests {
    typealias Account = BatchTests.Account

    /// The batch's folder and its accounts, made once for the suite.
    final class Batch: Sendable {
        let folder: String
        let accounts: [Account]

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-batch-output-\(UUID().uuidString)").path
            let fixtures = TestPaths.sharedFixtures.path
            let extra = TestPaths.sharedFixturesPresent ? """
                fixture-de_DE,\(fixtures)/apple/de_DE-2015-2018-Export.zip,apple,,,Europe/Berlin
                fixture fitbit,\(fixtures)/fitbit,hc,,,America/New_York
                fixture-takeout,\(fixtures)/hc/takeout-2025-daily-activity-metrics.csv,auto,,,Asia/Kolkata

                """ : ""
            let result = try CommandRunner.run("""
                python3 "$SCRIPTS/make_batch.py" --out '\(folder)' --accounts 20 --broken 2 --days 30 --synth "$SYNTH" > /dev/null || exit 1
                cd '\(folder)'
                cp "$OLDPWD/samples/export.zip" "$OLDPWD/samples/Health Connect.zip" "$OLDPWD/samples/hc-react-native.json" exports/
                cat >> manifest.csv <<'EOF'
                Sample/Anna Ø,exports/export.zip,apple,,,Europe/Berlin
                .ben,exports/Health Connect.zip,hc,,,Europe/Berlin
                carla rn,exports/hc-react-native.json,auto,,,America/New_York
                \(extra)EOF
                """)
            try #require(result.status == 0, "\(result.stderr)")
            var accounts = try JSONDecoder().decode([Account].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/accounts.json")))
            let rows = try String(contentsOfFile: folder + "/manifest.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            for row in rows.dropFirst(accounts.count) {
                let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                accounts.append(Account(account: cells[0], kind: cells[2], file: cells[1], tz: cells[5], trainee: cells[0], good: true,
                                        problem: nil, oracle: nil, expected: nil, key: nil))
            }
            self.accounts = accounts
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        var good: [Account] { accounts.filter(\.good) }
        var broken: [Account] { accounts.filter { !$0.good } }

        /// Runs a bash script in the batch's folder.
        func run(_ script: String) throws -> CommandRunner.Result {
            try CommandRunner.run("cd '\(folder)'\n" + script)
        }
    }

    static let batch = Result { try Batch() }

    /// The file name a label gets: unsafe characters and a leading `.` made `_`.
    static func fileName(_ label: String, _ format: String) -> String {
        var name = String(label.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name + "." + format
    }

    /// Each good account's single run, `stepimport KIND FILE --tz ZONE --format json` and `csv`, into
    /// `single/NAME.json` and `.csv` of the batch's folder (once), KIND as the report of a batch named
    /// it (`auto` decided by content).
    static func singleRuns(_ batch: Batch, of accounts: [Account]? = nil, kinds: [String: String]) throws {
        var script = "mkdir -p single\n"
        for account in accounts ?? batch.good {
            let kind = try #require(kinds[account.account], "no kind for \(account.account)")
            for format in ["json", "csv"] {
                script += "[ -e 'single/\(fileName(account.account, format))' ] || $STEPIMPORT \(kind) '\(account.file)' --tz \(account.tz) "
                    + "--format \(format) -q > 'single/\(fileName(account.account, format))' || echo 'failed: \(account.account)'\n"
            }
        }
        let result = try batch.run(script)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(String(decoding: result.stdout, as: UTF8.self)) \(result.stderr)")
    }

    /// The report's accounts by label.
    static func report(_ path: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let accounts = try #require(object["accounts"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: accounts.map { ($0["account"] as! String, $0) })
    }

    /// Checks a folder of files against the single runs: one file per good account, equal to its
    /// single run; nothing for a broken one; nothing else but the journal.
    static func checkFolder(_ batch: Batch, _ folder: String, _ format: String) throws {
        var script = ""
        for account in batch.good {
            let name = fileName(account.account, format)
            script += "cmp -s 'single/\(name)' '\(folder)/\(name)' || echo 'differs: \(name)'\n"
        }
        script += "ls -A '\(folder)'\n"
        let result = try batch.run(script)
        let listing = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!listing.contains { $0.hasPrefix("differs") }, "\(listing)")
        let expected = batch.good.map { fileName($0.account, format) } + [".stepimport.journal.jsonl"]
        #expect(listing.sorted() == expected.sorted(), "\(folder): \(listing)")
    }

    /// Python reads the database: for every good account, its one import and its days equal the
    /// single run's JSON; no rows for a broken one.
    static func checkDatabase(_ batch: Batch, _ database: String) throws {
        let good = batch.good.map { [$0.account, "single/" + fileName($0.account, "json")] }
        let broken = batch.broken.map(\.account)
        let arguments = try String(decoding: JSONSerialization.data(withJSONObject: ["good": good, "broken": broken]), as: UTF8.self)
        let result = try batch.run("""
            python3 - '\(database)' <<'EOF'
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            accounts = json.loads('''\(arguments)''')
            problems = []
            for account, single in accounts["good"]:
                imports = db.execute("SELECT count(*) FROM imports WHERE account = ?", (account,)).fetchone()[0]
                days = [{"date": d, "steps": v} for d, v in db.execute(
                    "SELECT date, value FROM days WHERE account = ? AND metric = 'steps' ORDER BY date", (account,))]
                if imports != 1 or days != json.load(open(single))["days"]:
                    problems.append("%s: %d imports, %d days" % (account, imports, len(days)))
            for account in accounts["broken"]:
                if db.execute("SELECT count(*) FROM imports WHERE account = ?", (account,)).fetchone()[0]:
                    problems.append("broken %s has rows" % account)
            total = db.execute("SELECT count(*) FROM imports").fetchone()[0]
            if total != len(accounts["good"]):
                problems.append("%d imports for %d good accounts" % (total, len(accounts["good"])))
            print("\\n".join(problems) or "same")
            EOF
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "same\n", "\(result.stderr)")
    }

    /// JSON files, CSV files and one database: each good account's output equals its single run,
    /// a broken account writes nothing and fails with its own status, and the report names where
    /// every account's days went.
    @Test func everyAccountsOutputEqualsItsSingleRun() throws {
        let batch = try Self.batch.get()
        #expect(batch.accounts.count >= 25)
        let json = try batch.run("$STEPIMPORT batch manifest.csv --output out-json --jobs 2 --report report-json.json -q")
        #expect(json.status == 1, "broken accounts fail: \(json.stderr)")
        let report = try Self.report(batch.folder + "/report-json.json")
        try Self.singleRuns(batch, kinds: report.mapValues { $0["kind"] as? String ?? "" })
        try Self.checkFolder(batch, "out-json", "json")
        for account in batch.good {
            #expect(report[account.account]?["output"] as? String == "out-json/" + Self.fileName(account.account, "json"))
        }
        for account in batch.broken {
            #expect(report[account.account]?["status"] as? String == "failed")
            #expect(report[account.account]?["output"] == nil)
            #expect(report[account.account]?["exitStatus"] as? Int == 65)
        }

        let csv = try batch.run("$STEPIMPORT batch manifest.csv --output out-csv --format csv --jobs 2 -q")
        #expect(csv.status == 1, "\(csv.stderr)")
        try Self.checkFolder(batch, "out-csv", "csv")

        let database = try batch.run("$STEPIMPORT batch manifest.csv --output all.sqlite --jobs 2 -q")
        #expect(database.status == 1, "\(database.stderr)")
        try Self.checkDatabase(batch, "all.sqlite")
        #expect(FileManager.default.fileExists(atPath: batch.folder + "/all.sqlite.journal.jsonl"))
    }

    /// SIGKILL once a few accounts are in the journal, then the same command again: the accounts of
    /// the killed run are done earlier, every account is written once, and all equal their single runs.
    @Test(arguments: ["out-killed", "killed.sqlite"])
    func killedMidRunAndRunAgainLosesNothingAndDuplicatesNothing(_ output: String) throws {
        let batch = try Self.batch.get()
        let journal = output.hasSuffix(".sqlite") ? output + ".journal.jsonl" : output + "/.stepimport.journal.jsonl"
        let killed = try batch.run(CommandRunner.killScript("$STEPIMPORT batch manifest.csv --output \(output) --jobs 1 -q > /dev/null 2>&1",
                                                            onceJournal: journal, holds: 4))
        let killedOutput = String(decoding: killed.stdout, as: UTF8.self).split(separator: "\n")
        #expect(killedOutput.first == "status 137", "killed mid-run: \(killedOutput) \(killed.stderr)")
        let linesAtKill = Int(killedOutput.last ?? "") ?? 0
        #expect(linesAtKill >= 4 && linesAtKill < batch.accounts.count, "killed after \(linesAtKill) accounts")

        let report = "report-\(output).json"
        let rerun = try batch.run("$STEPIMPORT batch manifest.csv --output \(output) --jobs 2 --report \(report) -q")
        #expect(rerun.status == 1, "\(rerun.stderr)")
        let accounts = try Self.report(batch.folder + "/" + report)
        let earlier = accounts.values.filter { $0["status"] as? String == "done-earlier" }
        #expect(earlier.count >= 1 && earlier.count <= linesAtKill, "\(earlier.count) done earlier, \(linesAtKill) journaled")
        for account in batch.good {
            #expect(["done", "done-earlier"].contains(accounts[account.account]?["status"] as? String ?? ""), "\(account.account)")
        }
        try Self.singleRuns(batch, kinds: accounts.mapValues { $0["kind"] as? String ?? "" })
        if output.hasSuffix(".sqlite") {
            try Self.checkDatabase(batch, output)
        } else {
            try Self.checkFolder(batch, output, "json")
        }
    }

    /// With `--post`, the journal beside the manifest says what was posted; an account posted
    /// before by a run without `--output` is taken again so that its days are written, then skipped.
    @Test func postingAndWritingShareTheJournal() throws {
        let batch = try Self.batch.get()
        let serverTokens = try String(contentsOfFile: batch.folder + "/server-tokens.txt", encoding: .utf8).split(separator: "\n")
        let server = try ContractServer(serverTokens.flatMap { ["--token", String($0)] })
        let generated = batch.accounts.prefix(22)
        let post = "set -a; . ./token-env.txt; set +a\n$STEPIMPORT batch post.csv --post --api-url \(server.url) --jobs 2 -q"
        let result = try batch.run("""
            head -n 23 manifest.csv > post.csv
            \(post) > /dev/null; echo "post $?"
            \(post) --output post-out --report post-report.json > /dev/null; echo "post and output $?"
            \(post) --output post-out --report again.json > /dev/null; echo "again $?"
            grep -c '"output":"post-out/' post.journal.jsonl
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "post 1\npost and output 1\nagain 1\n20\n", "\(result.stderr)")
        let first = try Self.report(batch.folder + "/post-report.json")
        let again = try Self.report(batch.folder + "/again.json")
        for account in generated where account.good {
            #expect(first[account.account]?["status"] as? String == "done", "\(account.account) posted again, and written")
            #expect(again[account.account]?["status"] as? String == "done-earlier")
            #expect(again[account.account]?["output"] as? String == "post-out/\(account.account).json")
        }
        try Self.singleRuns(batch, of: generated.filter(\.good), kinds: first.mapValues { $0["kind"] as? String ?? "" })
        let compare = try batch.run(generated.filter(\.good).map { "cmp single/\($0.account).json post-out/\($0.account).json || exit 1" }
            .joined(separator: "\n") + "\nls post-out | wc -l")
        #expect(String(decoding: compare.stdout, as: UTF8.self) == "20\n", "\(compare.stderr)")
    }

    /// Labels that would write the same file are refused before anything runs (65), naming both lines.
    @Test func labelsThatWouldShareAFileAreRefused() throws {
        let batch = try Self.batch.get()
        let result = try batch.run("""
            printf 'account,file,kind,tz\\nanna b,exports/export.zip,apple,UTC\\nANNA_B,exports/export.zip,apple,UTC\\n' > clash.csv
            $STEPIMPORT batch clash.csv --output out-clash
            echo "status $?"
            ls -d out-clash 2> /dev/null
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "status 65\n")
        #expect(result.stderr.contains("line 3, account: 'ANNA_B' and 'anna b' (line 2) would both write ANNA_B.json"), "\(result.stderr)")
    }
}
