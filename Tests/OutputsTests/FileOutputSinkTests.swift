import Foundation
import Glibc
import HealthDays
import Outputs
import Platform
import Testing

/// `-o FILE`: the file is whole or not there; the one that was there stays until the new one is
/// complete; the temporary file never outlives the sink.
@Suite struct FileOutputSinkTests {
    /// A folder for one test, removed at the end.
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var listing: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func contents(_ name: String) -> String? { try? String(contentsOfFile: path + "/" + name, encoding: .utf8) }
    }

    @Test func theFileAppearsWholeOnlyWhenFinished() throws {
        let folder = try Folder()
        let target = folder.path + "/days.csv"
        let sink = try FileOutputSink(path: target)
        let big = String(repeating: "x", count: StandardOutputSink.flushSize + 10)
        try sink.write("date,steps\n")
        try sink.write(big)
        // Written beyond the buffer, but only under the temporary name.
        #expect(folder.listing.count == 1)
        #expect(folder.listing.first?.hasPrefix(".days.csv.") == true)
        #expect(!FileManager.default.fileExists(atPath: target))
        try sink.finish()
        #expect(folder.listing == ["days.csv"])
        #expect(folder.contents("days.csv") == "date,steps\n" + big)
        #expect(try FileStatus.of(path: target).permissions == UInt32(FileReplacement.newFileMode))
    }

    @Test func theFileThatWasThereStaysUntilTheNewOneIsCompleteAndKeepsItsMode() throws {
        let folder = try Folder()
        let target = folder.path + "/days.json"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o640)
        let failed = try FileOutputSink(path: target)
        try failed.write("half of something")
        failed.discard()
        #expect(folder.listing == ["days.json"])
        #expect(folder.contents("days.json") == "old\n")

        let replaced = try FileOutputSink(path: target)
        try replaced.write("new\n")
        #expect(folder.contents("days.json") == "old\n")
        try replaced.finish()
        #expect(folder.listing == ["days.json"])
        #expect(folder.contents("days.json") == "new\n")
        #expect(try FileStatus.of(path: target).permissions == 0o640)
    }

    @Test func aSinkThatGoesAwayUnfinishedLeavesNothing() throws {
        let folder = try Folder()
        do {
            let sink = try FileOutputSink(path: folder.path + "/days.csv")
            try sink.write("date,steps\n")
            #expect(folder.listing.count == 1)
            #expect(TemporaryCleanup.registeredPaths.contains { $0.hasPrefix(folder.path + "/.days.csv.") })
        }
        #expect(folder.listing.isEmpty)
        #expect(!TemporaryCleanup.registeredPaths.contains { $0.hasPrefix(folder.path + "/") })
    }

    @Test func aFolderThatDoesNotExistFailsAtOnce() throws {
        let folder = try Folder()
        let target = folder.path + "/no/such/days.csv"
        #expect(throws: OutputError.file(path: target, .create(folder: folder.path + "/no/such"), SystemError(code: ENOENT))) {
            try FileOutputSink(path: target)
        }
        #expect(throws: OutputError.self) { try FileOutputSink(path: folder.path) }
        #expect(folder.listing.isEmpty)
    }

    @Test func aSymbolicLinkIsReplacedWhereItPoints() throws {
        let folder = try Folder()
        try FileManager.default.createDirectory(atPath: folder.path + "/real", withIntermediateDirectories: false)
        // A relative link to a file not there yet, and one to a file that is.
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/new.csv", withDestinationPath: "real/new.csv")
        try "old".write(toFile: folder.path + "/real/old.csv", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/old.csv", withDestinationPath: folder.path + "/real/old.csv")
        for name in ["new.csv", "old.csv"] {
            let sink = try FileOutputSink(path: folder.path + "/" + name)
            try sink.write("rows of \(name)")
            try sink.finish()
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/" + name).hasSuffix("real/\(name)"))
            #expect(folder.contents("real/" + name) == "rows of \(name)")
        }
        #expect(folder.listing == ["new.csv", "old.csv", "real"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/real")) ?? []).sorted() == ["new.csv", "old.csv"])
    }

    @Test(arguments: [("days.json", OutputFormat.json), ("out/Days.CSV", .csv), ("a.sqlite", .sqlite), ("a.sqlite3", .sqlite),
                      ("/x/a.db", .sqlite), ("days.txt", nil), ("days", nil), (".json", nil), ("dir.json/days", nil)])
    func theFormatAFileNameAsksFor(_ name: String, _ format: OutputFormat?) {
        #expect(OutputFormat(fileExtensionOf: name) == format)
    }
}
