import ExportParsers
import Foundation
import Testing
@testable import Batch

/// A fresh folder under the system's temporary folder, for tests that need real files.
struct BatchTestFolder {
    let path: String

    init() throws {
        path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("stepimport-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite struct BatchManifestTests {
    private let secret = "s3cr3t-TOKEN-value"

    /// A folder with two exports and a private token file.
    private func folder() throws -> BatchTestFolder {
        let folder = try BatchTestFolder()
        try folder.write("exports/ann.zip", "zip")
        try folder.write("exports/bob.json", "{}")
        try folder.write("tokens/ann", secret + "\n")
        return folder
    }

    private func manifest(_ folder: BatchTestFolder, _ text: String,
                          environment: [String: String] = [:]) throws(BatchError) -> BatchManifest {
        let path = try! folder.write("accounts.csv", text)
        return try BatchManifest(contentsOf: path, environment: environment)
    }

    private func problems(_ folder: BatchTestFolder, _ text: String,
                          environment: [String: String] = [:]) -> [ManifestProblem] {
        do {
            _ = try manifest(folder, text, environment: environment)
            Issue.record("the manifest was accepted")
            return []
        } catch {
            guard case .invalidManifest(_, let problems) = error else {
                Issue.record("unexpected error \(error)")
                return []
            }
            return problems
        }
    }

    @Test func aValidManifestGivesOneAccountPerRowWithPathsResolvedAgainstItsFolder() throws {
        let folder = try folder()
        defer { folder.remove() }
        let result = try manifest(folder, """
            Account,FILE,Kind,notes,token_file,token_env,TZ
            ann,exports/ann.zip,apple,"first, trial",tokens/ann,,Europe/Berlin
            " bob ",./exports/../exports/bob.json,HC,,,BOB_TOKEN,UTC

            """, environment: ["BOB_TOKEN": secret])
        #expect(result.warnings.isEmpty)
        #expect(result.accounts.count == 2)
        let ann = result.accounts[0], bob = result.accounts[1]
        #expect(ann.line == 2)
        #expect(ann.account == "ann")
        #expect(ann.file == folder.path + "/exports/ann.zip")
        #expect(ann.relativeFile == "exports/ann.zip")
        #expect(ann.kind == .family(.appleHealth))
        #expect(ann.token == .file(folder.path + "/tokens/ann"))
        #expect(ann.zone.identifier == "Europe/Berlin")
        #expect(bob.line == 3)
        #expect(bob.account == "bob")
        #expect(bob.file == folder.path + "/exports/bob.json")
        #expect(bob.kind == .family(.android))
        #expect(bob.token == .environment("BOB_TOKEN"))
        #expect(bob.zone == TimeZone(identifier: "UTC"))
    }

    @Test func autoKindAndAbsolutePathsAreAccepted() throws {
        let folder = try folder()
        defer { folder.remove() }
        let result = try manifest(folder, "account,file,kind,token_file,tz\r\nann,\(folder.path)/exports/ann.zip,auto,\(folder.path)/tokens/ann,Asia/Kolkata\r\n")
        #expect(result.accounts.map(\.kind) == [.auto])
        #expect(result.accounts[0].file == folder.path + "/exports/ann.zip")
        #expect(result.accounts[0].relativeFile == folder.path + "/exports/ann.zip")
    }

    @Test func everyProblemIsListedWithItsLineAndColumn() throws {
        let folder = try folder()
        defer { folder.remove() }
        let found = problems(folder, """
            account,file,kind,token_file,token_env,tz
            ann,exports/ann.zip,applee,tokens/ann,,Europe/Berlin
            bob,exports/missing.zip,hc,,BOB_TOKEN,UTC
            cat,exports/bob.json,hc,tokens/ann,BOB_TOKEN,UTC
            dan,exports/bob.json,hc,,,UTC
            eve,exports/bob.json,hc,,BOB_TOKEN,Europe/Berln
            ,exports/bob.json,hc,,BOB_TOKEN,UTC
            ann,exports/bob.json,hc,,BOB_TOKEN,UTC
            fay,exports/bob.json,hc,,BOB_TOKEN
            gil,exports/bob.json,hc,,UNSET_TOKEN,UTC
            hal,exports/bob.json,hc,tokens/nobody,,PST
            ivy,exports/bob.json,hc,,BOB_TOKEN,
            """, environment: ["BOB_TOKEN": secret])
        #expect(found.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12])
        #expect(found.map(\.column) == ["kind", "file", "token_file/token_env", "token_file/token_env", "tz",
                                        "account", "account", nil, "token_env", "token_file", "tz", "tz"])
        #expect(found[0].message.contains("\"applee\" is not a kind"))
        #expect(found[6].message.contains("line 2"))
        #expect(found[7].message.contains("5 fields where the header has 6"))
        #expect(found[8].message.contains("UNSET_TOKEN is not set"))
    }

    @Test func theErrorDescriptionListsEveryProblemAndNeverAToken() throws {
        let folder = try folder()
        defer { folder.remove() }
        do {
            _ = try manifest(folder, """
                account,file,kind,token_file,token_env,tz
                ann,exports/ann.zip,applee,tokens/ann,,Europe/Berlin
                bob,exports/bob.json,hc,tokens/ann,BOB_TOKEN,Mars/Olympus
                """, environment: ["BOB_TOKEN": secret])
            Issue.record("accepted")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("manifest \(folder.path)/accounts.csv: 3 problems"))
            #expect(text.contains("line 2, kind: \"applee\" is not a kind: write apple, hc or auto"))
            #expect(text.contains("line 3, token_file/token_env: both token_file and token_env are given"))
            #expect(text.contains("line 3, tz: \"Mars/Olympus\" is not a zone this system knows"))
            #expect(!text.contains(secret))
        }
    }

    @Test func missingColumnsAreProblemsOfTheHeader() throws {
        let folder = try folder()
        defer { folder.remove() }
        let found = problems(folder, "Account,File,file\nann,exports/ann.zip,x\n")
        #expect(found.allSatisfy { $0.line == 1 })
        #expect(found.map(\.column) == ["file", "kind", "tz", "token_file/token_env"])
    }

    @Test func anEmptyManifestAndOneWithoutRowsAreRejected() throws {
        let folder = try folder()
        defer { folder.remove() }
        #expect(problems(folder, "").map(\.message).first?.contains("empty") == true)
        #expect(problems(folder, "account,file,kind,token_env,tz\n").map(\.message) == ["the manifest has a header but no accounts"])
    }

    @Test func brokenCSVIsAProblemAndEarlierRowsAreStillChecked() throws {
        let folder = try folder()
        defer { folder.remove() }
        let found = problems(folder, "account,file,kind,token_env,tz\nann,exports/ann.zip,nope,T,UTC\nbob,\"exports/bob.json,hc,T,UTC\n",
                             environment: ["T": "x"])
        #expect(found.map(\.line) == [2, 3])
        #expect(found[1].message.hasPrefix("not valid CSV"))
    }

    @Test func aTokenFileOthersCanReadIsAWarningNotAProblem() throws {
        let folder = try folder()
        defer { folder.remove() }
        try folder.write("tokens/shared", secret, mode: 0o644)
        let result = try manifest(folder, """
            account,file,kind,token_file,tz
            ann,exports/ann.zip,apple,tokens/shared,UTC
            bob,exports/bob.json,hc,tokens/shared,UTC
            cat,exports/bob.json,hc,tokens/ann,UTC
            """)
        #expect(result.accounts.count == 3)
        #expect(result.warnings.count == 1, "one warning per file, not per row")
        let warning = try #require(result.warnings.first)
        #expect(warning.contains(folder.path + "/tokens/shared"))
        #expect(warning.contains("644"))
        #expect(warning.contains("chmod 600"))
        #expect(!warning.contains(secret))
    }

    @Test func aZoneThatIsNoPlaceIsTakenWithOneWarningANameAndTheCitiesMeant() throws {
        let folder = try folder()
        defer { folder.remove() }
        let result = try manifest(folder, """
            account,file,kind,token_file,tz
            ann,exports/ann.zip,apple,tokens/ann,EST
            bob,exports/bob.json,hc,tokens/ann,EST
            cat,exports/bob.json,hc,tokens/ann,Europe/Berlin
            """)
        #expect(result.accounts.count == 3)
        #expect(result.warnings.count == 1, "one warning per zone name, not per row: \(result.warnings)")
        let warning = try #require(result.warnings.first)
        #expect(warning.contains("EST is UTC-05:00 all year") && warning.contains("America/New_York"))
        #expect(warning.contains("line 2"))
    }

    @Test func anEmptyTokenVariableIsAProblem() throws {
        let folder = try folder()
        defer { folder.remove() }
        let found = problems(folder, "account,file,kind,token_env,tz\nann,exports/ann.zip,apple,T,UTC\n",
                             environment: ["T": "  "])
        #expect(found.map(\.message) == ["the environment variable T is empty"])
    }

    @Test func withoutTheServerNoTokenIsNeeded() throws {
        let folder = try folder()
        let path = try folder.write("accounts.csv", """
            account,file,kind,token_env,tz
            ann,exports/ann.zip,apple,UNSET_TOKEN,Europe/Berlin
            bob,exports/bob.json,hc,,UTC

            """)
        // Summaries and --dry-run: an unset variable and an empty cell are fine.
        let summary = try BatchManifest(contentsOf: path, environment: [:], needsTokens: false)
        #expect(summary.accounts.map(\.token) == [.environment("UNSET_TOKEN"), nil])
        // --post and --plan: both are problems.
        do {
            _ = try BatchManifest(contentsOf: path, environment: [:], needsTokens: true)
            Issue.record("a manifest without tokens was accepted for posting")
        } catch {
            guard case .invalidManifest(_, let problems) = error else { throw error }
            #expect(problems.map(\.line) == [2, 3])
        }
        // No token column at all.
        let bare = try folder.write("bare.csv", "account,file,kind,tz\nann,exports/ann.zip,apple,Europe/Berlin\n")
        #expect(try BatchManifest(contentsOf: bare, environment: [:], needsTokens: false).accounts.count == 1)
    }

    @Test func aMissingManifestIsUnreadable() {
        #expect(throws: BatchError.unreadableManifest(path: "/nonexistent/accounts.csv",
                                                      reason: "No such file or directory")) {
            try BatchManifest(contentsOf: "/nonexistent/accounts.csv", environment: [:])
        }
    }
}

/// Manifests as spreadsheets save them in many locales.
@Suite struct ManifestSeparatorTests {
    @Test(arguments: [";", "\t"])
    func semicolonsOrTabsAreReadAsTheSeparator(_ separator: String) throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        try folder.write("ann.zip", "zip")
        let rows = [["account", "file", "kind", "token_env", "tz", "exclude_sources"],
                    ["ann", "ann.zip", "apple", "T", "Europe/Berlin", "\"Mi Fit;Health\""],
                    ["bob, the second", "ann.zip", "apple", "T", "UTC", "Anna, her phone"]]
        let text = rows.map { $0.joined(separator: separator) }.joined(separator: "\n") + "\n"
        let path = try folder.write("accounts.csv", text)
        let manifest = try BatchManifest(contentsOf: path, environment: ["T": "token"])
        #expect(manifest.accounts.map(\.account) == ["ann", "bob, the second"])
        #expect(manifest.accounts[0].excludedSources.map(\.text) == ["Mi Fit", "Health"])
        #expect(manifest.accounts[1].excludedSources.map(\.text) == ["Anna, her phone"])
        #expect(manifest.warnings.first?.contains("separated by \(separator == ";" ? "semicolons" : "tabs"), not commas") == true)
    }

    @Test func commasStayTheSeparatorWhenTheHeaderHasThem() {
        #expect(BatchManifest.separator(of: Array("account,file;x\n".utf8)) == UInt8(ascii: ","))
        #expect(BatchManifest.separator(of: Array("account\n".utf8)) == UInt8(ascii: ","))
    }
}
