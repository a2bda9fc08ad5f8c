import Foundation
import Platform
import Testing

@Suite struct TemporaryCleanupTests {
    private func makeParent() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cleanup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func aPrivateFolderIsModeSevenHundredAndGoesWithItsFiles() throws {
        let parent = try makeParent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        var folder: PrivateFolder? = try PrivateFolder.create(in: parent, prefix: "stepimport-db-")
        let path = folder!.path
        #expect(path.hasPrefix(parent + "/stepimport-db-"))
        #expect(try FileStatus.of(path: path).kind == .directory)
        #expect(try FileStatus.of(path: path).permissions == 0o700)
        let database = folder!.file(named: "copy.db")
        _ = folder!.file(named: "copy.db-wal") // registered, never made
        FileManager.default.createFile(atPath: database, contents: Data([1, 2, 3]))
        #expect(entries(parent).count == 1)
        folder = nil
        #expect(entries(parent).isEmpty)
    }

    @Test func everyNameOfAPrivateFolderIsRegisteredUntilItIsRemoved() throws {
        let parent = try makeParent()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let kept = parent + "/kept"
        let keptRegistration = try #require(TemporaryCleanup.registerFile(kept))
        #expect(TemporaryCleanup.registeredPaths.contains(kept))
        TemporaryCleanup.release(keptRegistration)
        #expect(!TemporaryCleanup.registeredPaths.contains(kept))
        let folder = try PrivateFolder.create(in: parent, prefix: "x-")
        let a = folder.file(named: "a")
        let b = folder.file(named: "b")
        // (TemporaryCleanup.removeAll() would remove every test's names: the CLI tests send real signals.)
        #expect(Set([folder.path, a, b]).isSubset(of: Set(TemporaryCleanup.registeredPaths)))
        folder.remove()
        #expect(Set([folder.path, a, b]).isDisjoint(with: Set(TemporaryCleanup.registeredPaths)))
    }

    @Test func aPathTooLongIsNotRegistered() {
        #expect(TemporaryCleanup.registerFile("/" + String(repeating: "a", count: TemporaryCleanup.maxPathBytes)) == nil)
        #expect(TemporaryCleanup.registerFile("") == nil)
    }

    @Test func roomOfTheTemporaryFolderIsKnown() throws {
        let room = try FileStatus.room(inFolder: NSTemporaryDirectory())
        #expect(room.available > 0)
        #expect(room.total >= room.available)
        #expect(throws: SystemError.self) { try FileStatus.room(inFolder: "/no/such/folder-\(UUID().uuidString)") }
    }
}
