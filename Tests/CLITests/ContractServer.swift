import Foundation

/// The contract server (scripts/contract_server.py) on 127.0.0.1, started for one test.
///
/// It implements the backend's API over SQLite and can inject faults; tests read back what it
/// stored through its loopback-only admin route, not just the client's exit status.
final class ContractServer {
    let url: String
    let folder: URL
    private let process: Process

    init(_ arguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ready = folder.appendingPathComponent("ready")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", GoldenTests.packageRoot.appendingPathComponent("scripts/contract_server.py").path,
                             "--port", "0", "--ready-file", ready.path,
                             "--db", folder.appendingPathComponent("server.db").path,
                             "--log", folder.appendingPathComponent("server.log").path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready.path) {
            guard process.isRunning, Date() < deadline else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the contract server did not start"])
            }
            usleep(20_000)
        }
        url = try String(contentsOf: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// `GET /_admin/state`: stored rows, request counts, the last requests.
    func state() throws -> [String: Any] {
        let result = try CommandRunner.run("""
        python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())' '\(url)/_admin/state'
        """)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no state: \(result.stderr)"])
        }
        return object
    }

    /// The rows stored for the default trainee, as date -> (steps, source).
    func rows(trainee: String = "trainee-1") throws -> [String: (steps: Int, source: String)] {
        let rows = ((try state()["rows"] as? [String: Any])?[trainee] as? [[String: Any]]) ?? []
        var result: [String: (steps: Int, source: String)] = [:]
        for row in rows {
            if let date = row["date"] as? String, let steps = row["steps"] as? Int, let source = row["source"] as? String {
                result[date] = (steps, source)
            }
        }
        return result
    }

    /// How many requests the server answered on `route` (e.g. "POST /v1/trainee/health/days").
    func requestCount(_ route: String) throws -> Int {
        let counts = (try state()["requests"] as? [String: Any])?[route] as? [String: Any] ?? [:]
        return counts.values.compactMap { $0 as? Int }.reduce(0, +)
    }

    /// Everything the server wrote to its log.
    var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }
}
