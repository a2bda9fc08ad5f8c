import Foundation
import Testing
import TestSupport

/// Temporary copies on the command line (issue 11): a zip bomb is refused with nothing left in
/// `$TMPDIR`, and SIGTERM or SIGINT in the middle of a database copy leaves nothing either.
@Suite(.serialized) struct TemporaryFileTests {
    /// A folder for one test (the input, and `TMPDIR` below it), removed at the end.
    final class Folder {
        let path: String
        init(_ name: String) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var listing: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    struct Outcome {
        let status: Int32
        let reason: Process.TerminationReason
        let stdout: String
        let stderr: String
    }

    static var binary: String { CommandRunner.productsFolder.appendingPathComponent("stepimport").path }
    static var synth: String { CommandRunner.productsFolder.appendingPathComponent("stepimport-synth").path }

    static func python(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Starts `stepimport` with `TMPDIR` set; `whileRunning` gets the process and its standard
    /// input (a pipe) before it is waited for.
    static func run(_ arguments: [String], temporary: String,
                    whileRunning: (Process, FileHandle) throws -> Void = { _, input in try input.close() }) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let captures = try Folder("captures")
        let out = captures.path + "/stdout", err = captures.path + "/stderr"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let input = Pipe()
        process.standardInput = input
        try process.run()
        try whileRunning(process, input.fileHandleForWriting)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, reason: process.terminationReason,
                       stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }

    /// Waits until a database copy in `temporary` holds at least `bytes`; false after 20 s.
    static func waitForCopy(in temporary: String, atLeast bytes: Int64) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("stepimport-hc-") {
                let copy = temporary + "/" + name + "/health_connect_export.db"
                if let size = (try? FileManager.default.attributesOfItem(atPath: copy))?[.size] as? Int64, size >= bytes {
                    return true
                }
            }
            usleep(500)
        }
        return false
    }

    /// 300 MB of zeros behind SQLite's magic in a 300 kB zip: past the 256 MiB floor and 100
    /// times the compressed size, so refused before a byte is copied (the standard caps).
    @Test func aZipBombIsRefusedWithNothingLeftInTMPDIR() throws {
        let work = try Folder("zip-bomb")
        let temporary = try Folder("zip-bomb-tmp")
        let zip = work.path + "/Health Connect.zip"
        try Self.python("""
            import sys, zipfile, zlib
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                with z.open("health_connect_export.db", "w", force_zip64=True) as entry:
                    entry.write(b"SQLite format 3\\0")
                    block = bytes(1 << 20)
                    for _ in range(300):
                        entry.write(block)
            """, [zip])
        let outcome = try Self.run(["hc", zip], temporary: temporary.path)
        #expect(outcome.reason == .exit)
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("Health Connect.zip: health_connect_export.db: refused to copy it to a temporary file"))
        #expect(outcome.stderr.contains("is more than 100 times its compressed size (a zip bomb?)"))
        #expect(outcome.stderr.contains("hint: if you trust it, unpack it yourself"))
        #expect(temporary.listing.isEmpty)
    }

    struct Stop: Sendable, CustomTestStringConvertible {
        let signal: Int32
        let status: Int32
        let words: String
        var testDescription: String { words }
    }

    static let stops = [
        Stop(signal: SIGTERM, status: 143, words: "terminated (SIGTERM); temporary files removed"),
        Stop(signal: SIGINT, status: 130, words: "interrupted (SIGINT); temporary files removed"),
    ]

    /// A database on standard input is copied as it arrives: the copy is certainly under way
    /// when the signal comes, because the rest has not been written yet.
    @Test(arguments: stops)
    func aSignalDuringTheCopyOfADatabaseOnStandardInputLeavesNothing(_ stop: Stop) throws {
        let temporary = try Folder("signal-stdin-tmp")
        var caught = false
        let outcome = try Self.run(["hc", "-"], temporary: temporary.path) { process, input in
            try input.write(contentsOf: Data("SQLite format 3\0".utf8) + Data(count: 2 << 20))
            caught = Self.waitForCopy(in: temporary.path, atLeast: 1 << 20)
            kill(process.processIdentifier, stop.signal)
            process.waitUntilExit()
            try? input.close()
        }
        #expect(caught)
        #expect(outcome.reason == .exit)
        #expect(outcome.status == stop.status)
        #expect(outcome.stderr.contains("stepimport: " + stop.words))
        #expect(outcome.stdout.isEmpty)
        #expect(temporary.listing.isEmpty)
    }

    /// `Health Connect.zip` with a real database padded to 200 MB (a table of one zero blob):
    /// the signal comes as soon as the copy out of the zip has begun.
    @Test(arguments: stops)
    func aSignalDuringTheCopyOutOfAZipLeavesNothing(_ stop: Stop) throws {
        let work = try Folder("signal-zip")
        let temporary = try Folder("signal-zip-tmp")
        let database = work.path + "/health_connect_export.db"
        let zip = work.path + "/Health Connect.zip"
        let synth = Process()
        synth.executableURL = URL(fileURLWithPath: Self.synth)
        synth.arguments = ["hc-db", "--out", database, "--days", "30"]
        synth.standardError = FileHandle.nullDevice
        try synth.run()
        synth.waitUntilExit()
        #expect(synth.terminationStatus == 0)
        try Self.python("""
            import sqlite3, sys, zipfile
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE padding (b BLOB)")
            db.execute("INSERT INTO padding VALUES (zeroblob(200 * 1000 * 1000))")
            db.commit()
            db.close()
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                z.write(sys.argv[1], "health_connect_export.db")
            """, [database, zip])
        var caught = false
        let outcome = try Self.run(["hc", zip], temporary: temporary.path) { process, input in
            try input.close()
            caught = Self.waitForCopy(in: temporary.path, atLeast: 1)
            kill(process.processIdentifier, stop.signal)
        }
        #expect(caught)
        #expect(outcome.reason == .exit)
        #expect(outcome.status == stop.status)
        #expect(outcome.stderr.contains("stepimport: " + stop.words))
        #expect(temporary.listing.isEmpty)
    }
}
