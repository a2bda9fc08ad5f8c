import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// A stream that says what a hostile zip entry would (its sizes) and then gives `produces`
/// bytes, the first 16 of them SQLite's magic, the rest zeros.
private final class LyingEntry: ByteStream {
    let location = InputLocation(path: "bomb.zip", entries: ["health_connect_export.db"])
    let totalBytes: Int64?
    let compressedBytes: Int64?
    private var left: Int64
    private(set) var handedOut: Int64 = 0

    init(declares: Int64?, compressed: Int64?, produces: Int64) {
        totalBytes = declares
        compressedBytes = compressed
        left = produces
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        let count = Int(min(Int64(buffer.count), left))
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        if handedOut == 0 {
            for (index, byte) in Array("SQLite format 3\0".utf8).enumerated() where index < count { buffer[index] = byte }
        }
        left -= Int64(count)
        handedOut += Int64(count)
        return count
    }
}

@Suite struct TemporaryCopyLimitTests {
    private final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("copy-limits-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var listing: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    private func copyError(_ stream: LyingEntry, _ limits: TemporaryCopyLimits) -> ExportError? {
        do {
            _ = try HealthConnectDatabase(copying: stream, location: stream.location, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aDeclaredSizeBeyondTheRatioIsRefusedBeforeAnyByteIsWritten() throws {
        let temporary = try Folder()
        let stream = LyingEntry(declares: 50_000_000, compressed: 50_000, produces: 50_000_000)
        let limits = TemporaryCopyLimits(compressionRatio: 100, ratioFloor: 1_000_000, folder: temporary.path)
        let error = copyError(stream, limits)
        #expect(error == .copyRefused(stream.location, size: 50_000_000,
                                      limit: .compressionRatio(compressed: 50_000, ratio: 100, floor: 1_000_000)))
        #expect(error?.remedy == .unpackYourself)
        #expect(error?.description.contains("zip bomb") == true)
        #expect(stream.handedOut == 0)
        #expect(temporary.listing.isEmpty)
    }

    @Test func anEntryUnderTheFloorPassesWhateverItsRatio() throws {
        let temporary = try Folder()
        // 2 MB of zeros from 2 kB: a ratio of 1000, but under the floor; SQLite then finds it no database.
        let stream = LyingEntry(declares: 2_000_000, compressed: 2_000, produces: 2_000_000)
        let error = copyError(stream, TemporaryCopyLimits(compressionRatio: 100, ratioFloor: 4_000_000, folder: temporary.path))
        guard case .malformed? = error else {
            Issue.record("expected the copy to be made and refused by SQLite, got \(String(describing: error))")
            return
        }
        #expect(stream.handedOut == 2_000_000)
        #expect(temporary.listing.isEmpty)
    }

    @Test func anEntryThatInflatesPastItsDeclaredSizeIsStoppedAndItsCopyRemoved() throws {
        let temporary = try Folder()
        let stream = LyingEntry(declares: 100_000, compressed: 100_000, produces: 300_000_000)
        let error = copyError(stream, TemporaryCopyLimits(folder: temporary.path))
        guard case .copyRefused(_, let size, .declaredSize(declared: 100_000))? = error else {
            Issue.record("expected the declared size to stop it, got \(String(describing: error))")
            return
        }
        #expect(size > 100_000)
        #expect(stream.handedOut < 4_000_000) // stopped at the first chunk past it
        #expect(temporary.listing.isEmpty)
    }

    @Test func aStreamOfUnknownSizeIsStoppedByTheRatioWhileItIsWritten() throws {
        let temporary = try Folder()
        let stream = LyingEntry(declares: nil, compressed: 10_000, produces: 100_000_000)
        let error = copyError(stream, TemporaryCopyLimits(compressionRatio: 100, ratioFloor: 0, folder: temporary.path))
        guard case .copyRefused(_, _, .compressionRatio(compressed: 10_000, ratio: 100, floor: 0))? = error else {
            Issue.record("expected the ratio to stop it, got \(String(describing: error))")
            return
        }
        #expect(stream.handedOut < 4_000_000)
        #expect(temporary.listing.isEmpty)
    }

    @Test func aCopyBiggerThanTheRoomLeftIsRefusedWithTheFolderNamed() throws {
        let temporary = try Folder()
        let stream = LyingEntry(declares: Int64.max / 4, compressed: nil, produces: 0)
        let error = copyError(stream, TemporaryCopyLimits(folder: temporary.path))
        guard case .copyRefused(_, Int64.max / 4, .room(let folder, let available, _))? = error else {
            Issue.record("expected no room, got \(String(describing: error))")
            return
        }
        #expect(folder == temporary.path)
        #expect(available > 0)
        #expect(error?.remedy == .useRoomierTemporaryFolder)
        #expect(temporary.listing.isEmpty)
    }

    /// A real zip: a zip inside a zip whose database inflates a thousand times, read by the
    /// importer with small caps: refused, nothing left in the temporary folder.
    @Test func aNestedZipBombIsRefusedByTheImporter() throws {
        let work = try Folder()
        let temporary = try Folder()
        let zip = work.path + "/outer.zip"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import io, sys, zipfile
            inner = io.BytesIO()
            with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("health_connect_export.db", b"SQLite format 3\\0" + bytes(20_000_000))
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
                z.writestr("Health Connect.zip", inner.getvalue())
            """, zip]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let limits = TemporaryCopyLimits(compressionRatio: 100, ratioFloor: 1_000_000, folder: temporary.path)
        do {
            _ = try ExportImporter.open(path: zip, as: .family(.android), limits: limits).read(into: SampleCollector())
            Issue.record("a zip bomb was read")
        } catch {
            guard case .copyRefused(let location, 20_000_016, .compressionRatio) = error else {
                Issue.record("expected the ratio cap, got \(error)")
                return
            }
            #expect(location == InputLocation(path: zip, entries: ["Health Connect.zip", "health_connect_export.db"]))
        }
        #expect(temporary.listing.isEmpty)
    }
}
