import Foundation
import Platform
import Testing

@Suite struct SystemFileTests {
    /// A private folder for one test, removed at the end.
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("platform-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var entries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
    }

    @Test func writesReadsSeeksAndTruncates() throws {
        let folder = try Folder()
        let path = folder.path + "/data"
        let file = try SystemFile.open(path, .readWriteCreating(mode: 0o600))
        try Array("hello, world".utf8).withUnsafeBytes { try file.writeAll($0) }
        try Array("W".utf8).withUnsafeBytes { try file.writeAll($0, at: 7) }
        try file.sync()
        try file.seek(to: 0)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try file.readFully(into: $0) }
        #expect(String(decoding: buffer[0..<count], as: UTF8.self) == "hello, World")
        var two = [UInt8](repeating: 0, count: 2)
        _ = try two.withUnsafeMutableBytes { try file.read(at: 3, into: $0) }
        #expect(two == Array("lo".utf8))
        try file.truncate(to: 5)
        #expect(try file.status().kind == .regular)
        #expect(try file.status().size == 5)
        #expect(try file.status().permissions == 0o600)
        try file.close()
        #expect(try FileStatus.of(path: path).size == 5)
    }

    @Test func anAnonymousFileLeavesNoNameBehind() throws {
        let folder = try Folder()
        let file = try SystemFile.anonymous(in: folder.path, prefix: "spool-")
        try Array(repeating: UInt8(7), count: 1000).withUnsafeBytes { try file.writeAll($0) }
        #expect(folder.entries.isEmpty)
        #expect(try file.status().size == 1000)
    }

    @Test func aNamedTemporaryFileIsPrivateUntilItsNameIsRemoved() throws {
        let folder = try Folder()
        let (_, path) = try SystemFile.createTemporary(in: folder.path, prefix: "copy-")
        #expect(folder.entries == [(path as NSString).lastPathComponent])
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        SystemFile.unlinkName(path)
        #expect(folder.entries.isEmpty)
    }

    @Test func aSecondExclusiveLockIsRefusedUntilTheFirstIsGone() throws {
        let folder = try Folder()
        let path = folder.path + "/journal"
        var first: SystemFile? = try SystemFile.open(path, .readWriteCreating(mode: 0o600))
        #expect(try first?.tryLockExclusive() == true)
        let second = try SystemFile.open(path, .readWriteCreating(mode: 0o600))
        #expect(try second.tryLockExclusive() == false)
        first = nil
        #expect(try second.tryLockExclusive() == true)
    }

    @Test func errorsSayWhatAndWhetherThePathIsMissing() throws {
        let folder = try Folder()
        #expect(throws: SystemError.self) { try SystemFile.open(folder.path + "/absent") }
        do {
            _ = try SystemFile.open(folder.path + "/absent")
        } catch {
            #expect(error.isNotFound)
            #expect(error.isNoEntry)
            #expect(error.description == "No such file or directory")
        }
        do {
            _ = try FileStatus.of(path: folder.path + "/absent/below")
        } catch {
            #expect(error.isNotFound)
        }
        #expect(try FileStatus.of(path: folder.path).kind == .directory)
        #expect(try FileStatus.of(path: "/dev/null").kind == .other)
    }

    @Test func theTemporaryFolderIsTMPDIRUnlessEmpty() {
        #expect(SystemFile.temporaryFolder(["TMPDIR": "/scratch"]) == "/scratch")
        #expect(SystemFile.temporaryFolder(["TMPDIR": ""]) == "/tmp")
        #expect(SystemFile.temporaryFolder([:]) == "/tmp")
    }
}
