import Foundation
import Testing

/// `--post` when days lie outside the server's window (the last 90 days in the trainee's zone):
/// what the server will do, and did, is said in those words, and a post that writes nothing is
/// never a success.
@Suite(.serialized) struct PostWindowTests {
    /// samples/export.zip: 46 days in 2024, all older than any window of today.
    static let oldExport = "samples/export.zip"

    private func stepimport(_ arguments: String) throws -> CommandRunner.Result {
        try PostTests.stepimport(arguments)
    }

    private func lastLine(_ result: CommandRunner.Result) -> String {
        result.stderr.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func everyDayOlderThanTheWindowWritesNothingAndSaysSoWithItsOwnStatus() throws {
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin"])
        let reportFile = server.folder.appendingPathComponent("report.json").path
        let result = try stepimport("apple \(Self.oldExport) --post --api-url \(server.url) --tz Europe/Berlin --report '\(reportFile)'")
        #expect(result.status == 3, "\(result.stderr)")
        #expect(lastLine(result).hasPrefix("stepimport: error: nothing was written: all 46 days with steps (2024-03-15 to 2024-04-29) are older than the server's window"),
                "\(result.stderr)")
        #expect(lastLine(result).contains("the API takes only the last 90 days"))
        #expect(result.stdout.isEmpty)
        let report = try PostTests.report(result, file: reportFile)
        #expect(report["outcome"] as? String == "nothing-in-window")
        #expect(report["heldTooOld"] as? Int == 46)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0)
    }

    @Test func sendAllOfOnlyOldDaysIsSentAndStillWritesNothing() throws {
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin"])
        let result = try stepimport("apple \(Self.oldExport) --post --send-all --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 3, "\(result.stderr)")
        #expect(lastLine(result).contains("nothing was written"))
        #expect(lastLine(result).contains("the 46 sent with --send-all were skipped by the server, as its contract says"))
        #expect(!result.stderr.contains("is --tz the trainee's zone"), "the window explains it: \(result.stderr)")
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 1)
        #expect(try server.rows().isEmpty)
    }

    @Test func daysWrittenAndOlderOnesLeftIsSuccessWithOneWarning() throws {
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin"])
        let result = try stepimport("apple '\(PostTests.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("stepimport: warning:") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("not sent: the API takes only the last 90 days in the trainee's zone") == true)
        #expect(try server.rows().count > 80)
    }

    @Test func planWithSendAllSaysPerDayWhatTheServerWillDo() throws {
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin"])
        // --plan stands for --post: it needs no --post of its own.
        let table = try stepimport("apple \(Self.oldExport) --plan --send-all --api-url \(server.url) --tz Europe/Berlin")
        #expect(table.status == 0, "\(table.stderr)")
        let text = String(decoding: table.stdout, as: UTF8.self)
        #expect(text.contains("2024-04-29       -   4631  skip: older than the server's window, the server will not write it"), "\(text)")
        #expect(text.contains("0 to write, 0 to overwrite, 0 the same, 46 the server would skip (older than its window)"))
        let json = try stepimport("apple \(Self.oldExport) --plan --send-all --format json --api-url \(server.url) --tz Europe/Berlin")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.count == 46 && days.allSatisfy { $0["action"] as? String == "skip" })
        #expect((object["counts"] as? [String: Any])?["skip"] as? Int == 46)
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 0)
    }

    @Test func theZoneIsNamedOnlyWhenTheWindowCannotExplainTheCount() throws {
        // The server's today two days behind this machine's: it skips the last days sent, which
        // lie inside the window stepimport worked out, so the count is not the window's doing.
        let today = try CommandRunner.run("TZ=Europe/Berlin date -d '-2 days' +%F")
        let day = String(decoding: today.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin", "--today", day])
        let result = try stepimport("apple '\(PostTests.export("half-year.zip"))' --post --api-url \(server.url) --tz Europe/Berlin")
        #expect(result.status == 76, "\(result.stderr)")
        #expect(lastLine(result).contains("(is --tz the trainee's zone?)"), "\(result.stderr)")
    }
}

/// `--post` on a network that needs a proxy: `https_proxy` and `--proxy`, as a CONNECT tunnel.
@Suite struct PostProxyTests {
    @Test func httpsProxyFromTheEnvironmentOrTheFlagIsATunnelAndNeverSeesTheToken() throws {
        let result = try CommandRunner.run("""
            python3 "$SCRIPTS/connect_proxy.py" proxy.log proxy.port < <(sleep 6) > /dev/null &
            for i in $(seq 50); do [ -s proxy.port ] && break; sleep 0.1; done
            port=$(cat proxy.port)
            env STEPIMPORT_TOKEN=tok-7f3a https_proxy=http://127.0.0.1:$port "$STEPIMPORT" apple samples/export.zip --post --tz UTC --api-url https://127.0.0.1:9 --retries 0; echo "env exit $?"
            env STEPIMPORT_TOKEN=tok-7f3a "$STEPIMPORT" apple samples/export.zip --post --tz UTC --api-url https://127.0.0.1:8 --retries 0 --proxy http://127.0.0.1:$port; echo "flag exit $?"
            env STEPIMPORT_TOKEN=tok-7f3a https_proxy=http://127.0.0.1:$port "$STEPIMPORT" apple samples/export.zip --post --tz UTC --api-url https://127.0.0.1:7 --retries 0 --proxy ""; echo "off exit $?"
            env STEPIMPORT_TOKEN=tok-7f3a "$STEPIMPORT" apple samples/export.zip --post --tz UTC --api-url https://127.0.0.1:7 --proxy socks5://x:1; echo "bad exit $?"
            cat proxy.log
            """)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("env exit 69") && text.contains("flag exit 69") && text.contains("off exit 69"), "\(text) \(result.stderr)")
        #expect(text.contains("bad exit 78"))
        #expect(result.stderr.contains("--proxy: not a proxy URL stepimport can use"))
        // The proxy was asked for tunnels to the first two only, and never saw the token.
        #expect(text.contains("\"target\": \"127.0.0.1:9\"") && text.contains("\"target\": \"127.0.0.1:8\""))
        #expect(!text.contains("127.0.0.1:7") && !text.contains("tok-7f3a") && !text.contains("\"plain\""), "\(text)")
    }
}
