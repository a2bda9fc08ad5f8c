import Foundation
import Testing

/// `--post` against the contract server: what the server stored is checked, not only exit codes.
@Suite(.serialized) struct PostTests {
    static let token = "test-token-7f3a9c"

    /// Exports generated once for the suite, ending today, so the server's window falls in them.
    static let exports: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-post-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try? CommandRunner.run("""
        "$SYNTH" apple --out '\(folder.path)/two-years.zip' --days 730 --seed 21 --start "$(date -u -d '-728 days' +%F)" 2> /dev/null
        "$SYNTH" apple --out '\(folder.path)/half-year.zip' --days 150 --seed 22 --start "$(date -u -d '-148 days' +%F)" 2> /dev/null
        """)
        precondition(result?.status == 0, "cannot generate the exports: \(result?.stderr ?? "")")
        return folder
    }()

    static func export(_ name: String) -> String { exports.appendingPathComponent(name).path }

    /// Runs stepimport with the token in the environment, as a user would.
    static func stepimport(_ arguments: String, env: String = "STEPIMPORT_TOKEN=\(token)") throws -> CommandRunner.Result {
        try CommandRunner.run("env \(env) \"$STEPIMPORT\" \(arguments)")
    }

    static func report(_ result: CommandRunner.Result, file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The printed `--format json` totals, as date -> steps.
    static func printedTotals(_ path: String, tz: String) throws -> [String: Int] {
        let result = try stepimport("apple '\(path)' --format json -q --tz \(tz)")
        try #require(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var totals: [String: Int] = [:]
        for day in object["days"] as? [[String: Any]] ?? [] {
            totals[day["date"] as! String] = day["steps"] as? Int
        }
        return totals
    }

    static func assertTokenNeverShown(_ result: CommandRunner.Result, _ server: ContractServer, report: String? = nil) throws {
        #expect(!String(decoding: result.stdout, as: UTF8.self).contains(token))
        #expect(!result.stderr.contains(token))
        #expect(!server.log.contains(token))
        if let report, let text = try? String(contentsOfFile: report, encoding: .utf8) {
            #expect(!text.contains(token))
        }
    }

    @Test func withFaultsTheServerStoresExactlyThePrintedTotalsInsideTheWindow() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--fail-first", "2", "--retry-after", "1",
                                         "--drop-every", "3"])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try Self.stepimport("apple '\(Self.export("two-years.zip"))' --post --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.report(result, file: reportFile)
        let from = try #require(report["windowFrom"] as? String)
        let to = try #require(report["windowTo"] as? String)

        let printed = try Self.printedTotals(Self.export("two-years.zip"), tz: "Europe/Berlin").filter { $0.key >= from && $0.key <= to }
        let stored = try server.rows()
        #expect(stored.count >= 90)
        #expect(stored.mapValues(\.steps) == printed)
        #expect(stored.values.allSatisfy { $0.source == "import" })
        #expect(report["outcome"] as? String == "complete")
        #expect(report["daysWritten"] as? Int == stored.count)
        #expect(report["daysSent"] as? Int == stored.count)
        #expect((report["batchesRetried"] as? Int ?? 0) >= 1)
        #expect((report["heldTooOld"] as? Int ?? 0) > 600)
        #expect(try server.state()["retired_samples_calls"] as? Int == 0)
        #expect(result.stderr.contains("the server wrote \(stored.count)"))
        try Self.assertTokenNeverShown(result, server, report: reportFile)
    }

    @Test func aRepeatedRunIsHarmless() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin"])
        let first = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin -q")
        let rowsAfterFirst = try server.rows().mapValues(\.steps)
        let second = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin -q")
        #expect(first.status == 0 && second.status == 0)
        #expect(try server.rows().mapValues(\.steps) == rowsAfterFirst)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 4)
    }

    @Test func planShowsTheServersAndTheNewValuesAndWritesNothing() throws {
        let today = try CommandRunner.run("TZ=Europe/Berlin date +%F")
        let day = String(decoding: today.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--seed-manual", "\(Self.token):\(day)=12345"])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --plan --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 0, "\(result.stderr)")
        let table = String(decoding: result.stdout, as: UTF8.self)
        let line = try #require(table.split(separator: "\n").first { $0.hasPrefix(day) })
        #expect(line.contains("12345"))
        #expect(line.contains("overwrite"))
        #expect(table.contains("Nothing was written."))
        #expect(try server.rows().mapValues(\.steps) == [day: 12345])
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0)
    }

    @Test func planAndDryRunPrintJSONAndCSVForPrograms() throws {
        let today = try CommandRunner.run("TZ=Europe/Berlin date +%F")
        let day = String(decoding: today.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--seed-manual", "\(Self.token):\(day)=12345"])
        let export = "apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin -q"
        let json = try Self.stepimport(export + " --plan --format json")
        #expect(json.status == 0, "\(json.stderr)")
        let plan = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let window = try #require(plan["window"] as? [String: Any])
        #expect(window["today"] as? String == day && window["zone"] as? String == "Europe/Berlin")
        let days = try #require(plan["days"] as? [[String: Any]])
        let seeded = try #require(days.first { $0["date"] as? String == day })
        #expect(seeded["server"] as? Int == 12345 && seeded["action"] as? String == "overwrite")
        #expect(days.filter { $0["action"] as? String == "write" }.count == days.count - 1)
        #expect((plan["counts"] as? [String: Any])?["write"] as? Int == days.count - 1)

        let csv = try Self.stepimport(export + " --plan --format csv")
        let lines = String(decoding: csv.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "date,local_steps,server_steps,action,reason")
        #expect(lines.count == days.count + 1)
        #expect(lines.contains { $0.hasPrefix("\(day),") && $0.hasSuffix(",12345,overwrite,") })

        // --dry-run --format json: each request's exact body, one per line.
        let dry = try Self.stepimport(export + " --dry-run --format json")
        let bodies = String(decoding: dry.stdout, as: UTF8.self).split(separator: "\n")
        #expect(bodies.count == 2, "91 days in the window: 2 requests")
        let sent = try bodies.flatMap { body in
            try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["days"] as? [[String: Any]])
        }
        #expect(sent.count == days.count)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0, "nothing was written")
    }

    @Test func keepExistingPostsOnlyTheDaysTheServerLacks() throws {
        let yesterday = String(decoding: try CommandRunner.run("TZ=Europe/Berlin date -d yesterday +%F").stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--seed-manual", "\(Self.token):\(yesterday)=4321"])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --keep-existing --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        #expect(result.status == 0, "\(result.stderr)")
        let stored = try server.rows()
        #expect(stored[yesterday]?.steps == 4321)
        #expect(stored[yesterday]?.source == "manual")
        #expect(stored.count > 80)
        let report = try Self.report(result, file: reportFile)
        #expect(report["heldKeptExisting"] as? Int == 1)
        #expect(report["daysWritten"] as? Int == stored.count - 1)
    }

    @Test func aRefusedTokenStopsWithTheAuthCodeAndStoresNothing() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--unauthorized"])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 77)
        #expect(result.stderr.contains("refused the token"))
        #expect(try server.rows().isEmpty)
        // Checked with one summary request before the export is read: nothing read, nothing posted.
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0)
        #expect(try server.requestCount("GET /v1/trainee/health/summary") == 1)
        #expect(!result.stderr.contains("stepimport: read "), "\(result.stderr)")
        try Self.assertTokenNeverShown(result, server)
    }

    @Test func aRejectedRequestStopsWithTheServersMessage() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--fail-first", "1", "--fail-status", "400"])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 65)
        #expect(result.stderr.contains("rejected the request (400)"))
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 1)
    }

    /// Error bodies of a careless server: the Authorization header echoed (`{authorization}`, which the
    /// contract server fills in), terminal escapes in a JSON string and as raw bytes, and the token
    /// alone in another case.
    static let echoingBodies: [(status: Int, body: String)] = [
        (400, #"{"error":"bad header Authorization: {authorization} \u001b[31m\u0007 token \#(token) \u001b]0;pwned\u0007"}"#),
        (401, "not json: {authorization}\u{1B}[2J\u{07}\r\nWWW-Authenticate: x \u{9B}31m token \(token)"),
    ]

    /// No raw control character other than the line break on stderr or in a text.
    static func hasRawControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test(arguments: echoingBodies)
    func serverTextIsShownWithTheTokenRedactedAndControlCharactersEscaped(_ answer: (status: Int, body: String)) throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--fail-first", "10",
                                         "--fail-status", String(answer.status), "--fail-body", answer.body])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        #expect(result.status == (answer.status == 400 ? 65 : 77), "\(result.stderr)")
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 1)
        try Self.assertTokenNeverShown(result, server, report: reportFile)
        #expect(!Self.hasRawControlCharacters(result.stderr), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("[redacted]"))
        #expect(result.stderr.contains("\\u{1b}"))
        let report = try Self.report(result, file: reportFile)
        let error = try #require(report["error"] as? String)
        #expect(!error.contains(Self.token))
        #expect(error.contains("[redacted]"))
        #expect(!Self.hasRawControlCharacters(error), "\(error.debugDescription)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: reportFile))
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
    }

    @Test func retryLinesShowServerTextRedactedAndEscaped() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--fail-first", "10",
                                         "--fail-body", #"{"error":"overloaded {authorization} \u001b[5m\u0007"}"#])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --retries 1 --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 75)
        #expect(result.stderr.contains("HTTP 503: overloaded [redacted] \\u{1b}[5m\\u{7}; attempt 2 of 2"), "\(result.stderr)")
        #expect(!Self.hasRawControlCharacters(result.stderr))
        try Self.assertTokenNeverShown(result, server)
    }

    @Test func retriesRunOutWithTheTemporaryFailureCode() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--fail-first", "10"])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --retries 2 --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 75)
        #expect(result.stderr.contains("3 attempts"))
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 3)
        #expect(try server.rows().isEmpty)
    }

    @Test func aSlowServerTimesOutAndIsRetried() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--delay", "3"])
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --timeout 1 --retries 1 --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 69)
        #expect(result.stderr.contains("2 attempts"))
    }

    @Test func anUnreachableServerGivesTheUnavailableCode() throws {
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --retries 1 --api-url http://127.0.0.1:9 --tz Europe/Berlin")
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot be reached"))
    }

    @Test func sendAllShowsWhatTheServerSkipped() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin"])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --send-all --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        // The server skips the days older than its window, as its contract says: not a shortfall.
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.report(result, file: reportFile)
        #expect(report["outcome"] as? String == "complete")
        let sent = try #require(report["daysSent"] as? Int)
        let written = try #require(report["daysWritten"] as? Int)
        let outside = try #require(report["sentOutsideWindow"] as? Int)
        #expect(sent > written && outside == sent - written)
        #expect(written == (try server.rows().count))
        #expect(result.stderr.contains("\(outside) days older than the server's window sent (--send-all): the server skips them"))
        #expect(result.stderr.contains("it skipped the \(outside) older than its window"))
        #expect(!result.stderr.contains("--tz"), "the window explains the count: \(result.stderr)")
    }

    /// The contract: `{"days": N}`, N the days written, which can never exceed the days sent.
    @Test(arguments: [99999, 91, -1])
    func aDaysCountOtherThanTheDaysSentExitsWithTheProtocolCode(_ claimed: Int) throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--claim-days", String(claimed)])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        #expect(result.status == 76, "\(result.stderr)")
        #expect(result.stderr.contains("says \(claimed) days were written, but the request held 90"), "\(result.stderr)")
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 1, "no further request after an answer against the contract")
        let report = try Self.report(result, file: reportFile)
        #expect(report["outcome"] as? String == "failed")
        #expect(report["daysWritten"] as? Int == 0)
        #expect((report["error"] as? String)?.contains("\(claimed) days were written") == true)
    }

    @Test func dryRunShowsTheBatchesAndSendsNothing() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin"])
        let result = try Self.stepimport("apple '\(Self.export("two-years.zip"))' --post --dry-run --send-all --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 0)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("request 1: 90 days"))
        #expect(text.contains("9 requests"))
        #expect(try server.state()["requests_total"] as? Int == 0)
    }

    @Test func ctrlCStopsBetweenRequestsAndSaysHowFarItGot() throws {
        // Each answer takes a second, so that the nine requests take longer than the shell needs
        // to see the first one answered even on a loaded machine. The shell waits up to two
        // minutes for it: a debug build reading this export on a loaded machine took 20 s, and
        // a SIGINT before the upload starts is lost (a job started with `&` by a shell without
        // job control ignores it), so the old 10 s wait let all nine requests go out.
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin", "--delay", "1"])
        let result = try CommandRunner.run("""
        env STEPIMPORT_TOKEN=\(Self.token) "$STEPIMPORT" apple '\(Self.export("two-years.zip"))' --post --send-all --api-url \(server.url) --tz Europe/Berlin &
        pid=$!
        # Wait until the first request has been answered, then press Ctrl-C.
        for i in $(seq 1 1200); do grep -q ' 201 ' '\(server.folder.path)/server.log' 2>/dev/null && break; sleep 0.1; done
        kill -INT $pid
        wait $pid
        """)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("stopping after the current request"))
        #expect(result.stderr.contains("were not sent; running the same command again is safe"))
        let posts = try server.requestCount("POST /v1/trainee/health/days")
        #expect(posts >= 1 && posts < 9)
    }

    @Test func configurationIsCheckedBeforeAnyParsing() throws {
        // No zone, and an export that does not exist: the configuration error comes first.
        for command in ["--post --send-all", "--post --plan", "--post --dry-run"] {
            let noZone = try Self.stepimport("apple no-such-export.zip \(command) --api-url http://127.0.0.1:9")
            #expect(noZone.status == 78, "\(command): \(noZone.stderr)")
            #expect(noZone.stderr.contains("--post needs the trainee's time zone: pass --tz ZONE"))
            #expect(noZone.stdout.isEmpty)
        }
        // No token, and an export that does not exist: the configuration error comes first.
        let noToken = try Self.stepimport("apple no-such-export.zip --post --tz UTC --api-url http://127.0.0.1:9", env: "-u STEPIMPORT_TOKEN")
        #expect(noToken.status == 78)
        #expect(noToken.stderr.contains("no token"))
        let insecure = try Self.stepimport("apple no-such-export.zip --post --tz UTC --api-url http://api.example.com")
        #expect(insecure.status == 78)
        let noURL = try Self.stepimport("apple no-such-export.zip --post --tz UTC", env: "-u STEPIMPORT_API_URL STEPIMPORT_TOKEN=x")
        #expect(noURL.status == 78)
        let tokenFlag = try Self.stepimport("apple x.zip --post --token abc --api-url http://127.0.0.1:9")
        #expect(tokenFlag.status == 64)
        #expect(!tokenFlag.stderr.contains("abc"))
    }

    @Test func everyConfigurationProblemIsSaidAtOnce() throws {
        let result = try Self.stepimport("apple no-such-export.zip --post --cacert /no/such/ca.pem",
                                         env: "-u STEPIMPORT_API_URL -u STEPIMPORT_TOKEN")
        #expect(result.status == 78)
        #expect(result.stderr.contains("--post cannot start, 4 problems:"), "\(result.stderr)")
        for problem in ["--post needs the trainee's time zone", "no API URL", "no token", "--cacert /no/such/ca.pem"] {
            #expect(result.stderr.contains("  - " + problem), "\(problem)")
        }
    }

    @Test func theTokenFileWorksAndIsNeverShown() throws {
        let server = try ContractServer(["--token", "\(Self.token)=Europe/Berlin"])
        let tokenFile = server.folder.appendingPathComponent("token").path
        try Data("\(Self.token)\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        let result = try Self.stepimport("hc samples/hc-react-native.json --post --tz Europe/Berlin --send-all --token-file '\(tokenFile)' --api-url \(server.url)",
                                         env: "-u STEPIMPORT_TOKEN")
        // The sample's days are in 2025: far outside the window, so the server skips them all.
        #expect(result.status == 3)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 1)
        try Self.assertTokenNeverShown(result, server)
    }

    /// libcurl is loaded when sending needs it, not linked: without it, `--post` fails at the
    /// configuration check (exit 78, before any parsing) with the loader's words and the remedy,
    /// `--version` says so, and a run that sends nothing works.
    @Test func withoutLibcurlSendingFailsClearlyAndTheRestWorks() throws {
        let missing = "STEPIMPORT_LIBCURL=/nonexistent/libcurl.so.4"
        let post = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url http://127.0.0.1:9 --tz Europe/Berlin",
                                       env: "STEPIMPORT_TOKEN=\(Self.token) \(missing)")
        #expect(post.status == 78)
        #expect(post.stdout.isEmpty)
        #expect(post.stderr.contains("libcurl could not be loaded (/nonexistent/libcurl.so.4: cannot open shared object file"),
                "\(post.stderr)")
        #expect(post.stderr.contains("install Debian's libcurl4"))
        #expect(!post.stderr.contains("API URL"), "not the URL's fault: \(post.stderr)")

        let notCurl = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --post --api-url http://127.0.0.1:9 --tz Europe/Berlin",
                                          env: "STEPIMPORT_TOKEN=\(Self.token) STEPIMPORT_LIBCURL=libz.so.1")
        #expect(notCurl.status == 78)
        #expect(notCurl.stderr.contains("libz.so.1 has no curl_global_init"), "\(notCurl.stderr)")

        let version = try Self.stepimport("--version", env: missing)
        #expect(version.status == 0)
        #expect(String(decoding: version.stdout, as: UTF8.self).contains("libcurl: not loaded (/nonexistent/libcurl.so.4"))

        let read = try Self.stepimport("apple '\(Self.export("half-year.zip"))' --format json -q", env: missing)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.count > 1000)

        // The binary itself names no libcurl among the libraries it needs.
        let needed = try CommandRunner.run("readelf -d \"$STEPIMPORT\" | grep NEEDED")
        #expect(needed.status == 0)
        let names = String(decoding: needed.stdout, as: UTF8.self)
        #expect(names.contains("libxml2"), "\(names)")
        #expect(!names.contains("libcurl"), "\(names)")
    }
}
