import Foundation
import Testing

/// `batch --post` with an account whose days all lie before the server's window: its own status,
/// counted in the summary and report, recorded in the journal, and never a silent exit 0.
@Suite(.serialized) struct BatchWindowTests {
    @Test func anAccountWithNothingInsideTheWindowIsNotDone() throws {
        let server = try ContractServer(["--token", "\(PostTests.token)=Europe/Berlin"])
        let folder = server.folder.appendingPathComponent("batch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let root = GoldenTests.packageRoot.path
        try FileManager.default.copyItem(atPath: root + "/samples/export.zip", toPath: folder.appendingPathComponent("old.zip").path)
        try FileManager.default.copyItem(atPath: PostTests.export("half-year.zip"), toPath: folder.appendingPathComponent("recent.zip").path)
        try Data("account,file,kind,token_env,tz\nold,old.zip,apple,T,Europe/Berlin\nrecent,recent.zip,apple,T,Europe/Berlin\n".utf8)
            .write(to: folder.appendingPathComponent("m.csv"))
        let run = "cd '\(folder.path)' && env T=\(PostTests.token) \"$STEPIMPORT\" batch m.csv --post --api-url \(server.url) --report r.json"
        let first = try CommandRunner.run(run)
        #expect(first.status == 3, "\(first.stderr)")
        let table = String(decoding: first.stdout, as: UTF8.self)
        #expect(table.contains("nothing-in-window"), "\(table)")
        #expect(table.contains("1 done, 1 with nothing written (no day inside the server's window)"), "\(table)")
        #expect(first.stderr.contains("old: nothing written: apple, 46 days with steps (2024-03-15 to 2024-04-29), none inside the server's window"))
        #expect(first.stderr.contains("warning: 1 account wrote nothing"))
        let report = try BatchTests.json(folder.appendingPathComponent("r.json").path)
        #expect(report["outcome"] as? String == "nothing-written")
        #expect(report["exitStatus"] as? Int == 3)
        #expect((report["counts"] as? [String: Any])?["nothingInWindow"] as? Int == 1)
        let accounts = try BatchTests.reportAccounts(folder.appendingPathComponent("r.json").path)
        #expect(accounts["old"]?["status"] as? String == "nothing-in-window")
        #expect(accounts["recent"]?["status"] as? String == "done")
        let journal = try String(contentsOf: folder.appendingPathComponent("m.journal.jsonl"), encoding: .utf8)
        #expect(journal.contains(#"{"account":"old","status":"nothing-in-window""#), "\(journal)")

        // The journal makes a re-run skip both, and the outcome stays what it was.
        let second = try CommandRunner.run(run)
        #expect(second.status == 3, "\(second.stderr)")
        #expect(second.stderr.contains("says 2 are finished already; 0 to run"))
        #expect(String(decoding: second.stdout, as: UTF8.self).contains("nothing-in-window earlier"))
        #expect(try server.requestCount("POST /v1/trainee/health/days") == 2)
    }
}
