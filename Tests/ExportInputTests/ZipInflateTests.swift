import Foundation
import HealthDays
import Testing
@testable import ExportInput

/// Deflated zip entries inflated by ISA-L (`ZipInflateStream`) against libzip's own zlib path, on
/// the zips `scripts/make_damaged_zips.py` writes: the same bytes at every read size, and the same
/// failure, in the same words, for every damage.
@Suite struct ZipInflateTests {
    /// The generated zips' folder, written once for the suite (the script takes a fraction of a second).
    static let folder: Result<String, ScriptFailure> = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ZipInflateTests-\(UUID().uuidString)", isDirectory: true).path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root + "/scripts/make_damaged_zips.py", folder]
        do {
            try process.run()
        } catch {
            return .failure(ScriptFailure(description: "cannot run python3: \(error)"))
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(ScriptFailure(description: "make_damaged_zips.py exited with \(process.terminationStatus)"))
        }
        return .success(folder)
    }()

    struct ScriptFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// What reading an entry to its end gave: the bytes, then the failure that ended it (if any).
    struct Outcome: Equatable, CustomStringConvertible {
        var bytes: [UInt8] = []
        var failure: ExportError?
        var description: String { "\(bytes.count) bytes, " + (failure.map { "then \($0)" } ?? "no failure") }
    }

    static func content() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try folder.get() + "/content.xml")))
    }

    /// The zip's only entry, opened with `inflater`.
    static func open(_ zip: String, with inflater: ZipInflater) throws -> ByteStream {
        let path = try folder.get() + "/" + zip
        let archive = try ZipArchive(path: path, location: InputLocation(path: zip))
        let entry = try #require(archive.entries.first)
        return try archive.open(entry, inflater: inflater)
    }

    /// Reads `stream` to its end (or its failure) `size` bytes at a time.
    static func read(_ stream: ByteStream, size: Int) -> Outcome {
        var outcome = Outcome()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        do {
            while true {
                let count = try stream.read(into: buffer)
                if count == 0 { break }
                outcome.bytes += buffer[0..<count]
            }
            // The end stays the end.
            #expect(try stream.read(into: buffer) == 0)
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    static let readSizes = [7, 4096, 65_536, 256 * 1024, 2 * 1024 * 1024]

    /// Zips whose entry reads whole: data descriptors and Zip64, a wrong declared size (libzip does
    /// not check it, the CRC-32 vouches for the bytes), bytes after the stream's final block.
    @Test(arguments: ["whole.zip", "descriptor-zip64.zip", "size-too-large.zip", "size-too-small.zip", "trailing-bytes.zip"],
          readSizes)
    func inflatesTheSameBytesAsZlib(_ zip: String, readSize: Int) throws {
        let stream = try Self.open(zip, with: .isal)
        #expect(stream is ZipInflateStream, "a deflated entry is inflated by ISA-L")
        let isal = Self.read(stream, size: readSize)
        let zlib = Self.read(try Self.open(zip, with: .zlib), size: readSize)
        #expect(isal.failure == nil, "\(isal)")
        #expect(isal.bytes == (try Self.content()))
        #expect(isal == zlib)
    }

    @Test func anEmptyDeflatedEntryReadsAsNoBytes() throws {
        let stream = try Self.open("empty.zip", with: .isal)
        #expect(stream is ZipInflateStream)
        #expect(Self.read(stream, size: 4096) == Outcome())
        #expect(Self.read(try Self.open("empty.zip", with: .zlib), size: 4096) == Outcome())
    }

    /// A stored entry has nothing to inflate, and an encrypted one is refused by libzip, as before.
    @Test func storedAndEncryptedEntriesKeepLibzipsPath() throws {
        let stored = try Self.open("stored.zip", with: .isal)
        #expect(stored is ZipEntryStream)
        #expect(Self.read(stored, size: 65_536) == Outcome(bytes: try Self.content()))
        let location = InputLocation(path: "encrypted.zip").entering("export.xml")
        #expect(throws: ExportError.badArchive(location, reason: "No password provided")) {
            try Self.open("encrypted.zip", with: .isal)
        }
    }

    /// Each damage fails as libzip's zlib path fails, with its words, after the same bytes.
    @Test(arguments: [
        ("bad-crc.zip", "CRC error"),
        ("truncated-stream.zip", "CRC error"),
        ("corrupt-stream.zip", "Zlib error: data error"),
        ("corrupt-middle.zip", "CRC error"),  // garbage out of valid codes, as zlib decodes them too
    ], [4096, 256 * 1024])
    func aDamagedEntryFailsAsWithZlib(_ damage: (zip: String, reason: String), readSize: Int) throws {
        let stream = try Self.open(damage.zip, with: .isal)
        #expect(stream is ZipInflateStream)
        let isal = Self.read(stream, size: readSize)
        let location = InputLocation(path: damage.zip).entering("export.xml")
        #expect(isal.failure == .badArchive(location, reason: damage.reason), "\(isal)")
        let content = try Self.content()
        let zlib = Self.read(try Self.open(damage.zip, with: .zlib), size: readSize)
        #expect(isal.failure == zlib.failure)
        #expect(isal.bytes == zlib.bytes, "\(isal) against zlib's \(zlib)")
        if damage.zip == "bad-crc.zip" {
            #expect(isal.bytes == content, "every byte is handed over before the CRC-32 is found wrong")
        }
    }
}
