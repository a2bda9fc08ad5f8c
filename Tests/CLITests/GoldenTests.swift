import Foundation
import Testing
import TestSupport

/// Command-line cases run against the built `stepimport` binary, in the xcbeautify layout:
/// one folder per case under `Golden/` holding `cmd` (a bash line; `$STEPIMPORT` is the binary)
/// and the expected `stdout`, `stderr` and `status`.
///
/// Each case runs in a fresh scratch folder where `fixtures` links to ../shared/fixtures and
/// `samples` to the repository's samples. Timings on stderr are replaced by `<t>`.
/// Cases whose `cmd` reads `fixtures/` run as `goldenOnRealExports`, which is skipped (the
/// reason names them) in a clone with no ../shared/fixtures beside it; the others as `golden`.
/// `UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the expected files: read the diff.
@Suite struct GoldenTests {
    static let packageRoot = TestPaths.packageRoot
    static let goldenRoot = packageRoot.appendingPathComponent("Tests/CLITests/Golden")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: goldenRoot.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: goldenRoot.appendingPathComponent("\($0)/cmd").path) }.sorted()
    }

    @Test func thereAreGoldenCases() {
        #expect(Self.caseNames.count >= 20)
    }

    /// Whether a case's command reads the real exports (`fixtures/`, the link to ../shared/fixtures).
    static func readsFixtures(_ name: String) -> Bool {
        let command = try? String(contentsOf: goldenRoot.appendingPathComponent("\(name)/cmd"), encoding: .utf8)
        return command?.contains("fixtures/") ?? false
    }

    static let fixtureCaseNames = caseNames.filter(readsFixtures)

    @Test(arguments: caseNames.filter { !readsFixtures($0) })
    func golden(_ name: String) throws {
        try check(name)
    }

    @Test(.enabled(if: TestPaths.sharedFixturesPresent, Comment(rawValue:
            "needs ../shared/fixtures (real exports), absent in this clone: \(fixtureCaseNames.count) cases read fixtures/: "
            + fixtureCaseNames.joined(separator: ", "))),
          arguments: fixtureCaseNames)
    func goldenOnRealExports(_ name: String) throws {
        try check(name)
    }

    /// Runs one case and compares its stdout, stderr and status with the expected files.
    func check(_ name: String) throws {
        let folder = Self.goldenRoot.appendingPathComponent(name)
        let command = try String(contentsOf: folder.appendingPathComponent("cmd"), encoding: .utf8)
        let result = try CommandRunner.run(command)
        let stdout = result.stdout
        let stderr = CommandRunner.normalize(result.stderr)
        let status = "\(result.status)\n"

        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try stdout.write(to: folder.appendingPathComponent("stdout"))
            try Data(stderr.utf8).write(to: folder.appendingPathComponent("stderr"))
            try Data(status.utf8).write(to: folder.appendingPathComponent("status"))
            return
        }
        let expectedOut = try Data(contentsOf: folder.appendingPathComponent("stdout"))
        let expectedErr = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)
        let expectedStatus = try String(contentsOf: folder.appendingPathComponent("status"), encoding: .utf8)
        #expect(status == expectedStatus, "exit status of \(name)")
        #expect(stderr == expectedErr, "stderr of \(name)")
        if stdout != expectedOut {
            Issue.record("stdout of \(name) differs:\n\(String(decoding: stdout.prefix(2000), as: UTF8.self))")
        }
    }
}

/// Runs a bash command line with the built binary, in a scratch folder.
enum CommandRunner {
    struct Result {
        let stdout: Data
        let stderr: String
        let status: Int32
    }

    /// The folder holding the built products (the test bundle sits beside `stepimport`).
    static var productsFolder: URL {
        Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func run(_ command: String) throws -> Result {
        let binary = productsFolder.appendingPathComponent("stepimport")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: binary.path])
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let root = GoldenTests.packageRoot
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("fixtures"), withDestinationURL: TestPaths.sharedFixtures)
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("samples"), withDestinationURL: root.appendingPathComponent("samples"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -o pipefail\n" + command]
        process.currentDirectoryURL = scratch
        var environment = ProcessInfo.processInfo.environment
        // Tests in this process may set proxy variables for a moment (the HTTP client's proxy
        // test); the commands run here talk to 127.0.0.1 only and must never go through one.
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            environment[name] = nil
        }
        environment["STEPIMPORT"] = binary.path
        environment["SYNTH"] = productsFolder.appendingPathComponent("stepimport-synth").path
        environment["NO_COLOR"] = "1"
        // Output goes to a file and no case sets a terminal, so help pages and `inspect`'s chart are
        // 80 columns wide unless a case sets COLUMNS.
        environment["COLUMNS"] = nil
        environment["LC_ALL"] = "C.UTF-8"
        environment["TZ"] = "UTC"
        environment["SCRIPTS"] = root.appendingPathComponent("scripts").path
        process.environment = environment
        // Output goes to files, not pipes, so that neither can fill up and block the process.
        let captures = scratch.appendingPathExtension("out")
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: captures) }
        let outURL = captures.appendingPathComponent("stdout")
        let errURL = captures.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return Result(stdout: outData, stderr: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
    }

    /// Shell lines that start `command` in the background, kill it with SIGKILL once `journal`
    /// holds `lines` lines (or after `seconds`), and print `status N` (137 when killed) and the
    /// journal's line count.
    static func killScript(_ command: String, onceJournal journal: String, holds lines: Int, seconds: Int = 30) -> String {
        """
        \(command) &
        pid=$!
        for i in $(seq 1 \(seconds * 20)); do
            if [ -f '\(journal)' ] && [ "$(wc -l < '\(journal)')" -ge \(lines) ]; then break; fi
            sleep 0.05
        done
        kill -9 $pid
        wait $pid
        echo "status $?"
        wc -l < '\(journal)'
        """
    }

    /// Replaces what changes from run to run (timings, rates) with `<t>`.
    static func normalize(_ text: String) -> String {
        text.replacingOccurrences(of: #"in [0-9.]+ s, [0-9.]+ [kMG]?B/s\)"#, with: "in <t>)", options: .regularExpression)
            .replacingOccurrences(of: #"in [0-9.]+ s\)"#, with: "in <t>)", options: .regularExpression)
    }
}
