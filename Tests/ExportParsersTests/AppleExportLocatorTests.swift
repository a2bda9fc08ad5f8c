import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// Finds (or refuses) the export XML in every shape users hand over, end to end through
/// `AppleHealthImport.read(path:into:)`, on the zips that `scripts/make_test_zips.py` writes.
///
/// The zips are made once for the suite, in a temporary folder removed when it ends.
@Suite(.appleExportZips)
struct AppleExportLocatorTests {

    // MARK: - Zips that hold one export

    /// A zip that holds the generator's export, and where in it the XML is.
    struct ReadableZip: Sendable, CustomTestStringConvertible {
        let file: String
        /// The zip entries leading to the XML, outermost first.
        let entries: [String]
        let variant: XMLVariant
        var testDescription: String { file }
    }

    /// Which form of the generator's XML a zip holds; all must give the same totals.
    enum XMLVariant: String, Sendable {
        case clean
        case brokenDTD = "broken-dtd"
        case controlChars = "control-chars"
    }

    static let readableZips: [ReadableZip] = [
        ReadableZip(file: "localized-ru.zip", entries: ["apple_health_export/экспорт.xml"], variant: .clean),
        ReadableZip(file: "localized-tr-noflag.zip", entries: ["apple_health_export/dışa aktarılan.xml"], variant: .clean),
        // libzip converts a name without the UTF-8 flag that is not valid UTF-8 from CP437.
        ReadableZip(file: "cp437-name.zip", entries: ["apple_health_export/Exportación.xml"], variant: .clean),
        ReadableZip(file: "capitalised.zip", entries: ["apple_health_export/Export.xml"], variant: .clean),
        ReadableZip(file: "zip64-descriptor.zip", entries: ["apple_health_export/export.xml"], variant: .clean),
        ReadableZip(file: "nested.zip", entries: ["export.zip", "apple_health_export/export.xml"], variant: .clean),
        ReadableZip(file: "control-chars.zip", entries: ["apple_health_export/export.xml"], variant: .controlChars),
        ReadableZip(file: "broken-dtd.zip", entries: ["apple_health_export/export.xml"], variant: .brokenDTD),
    ]

    @Test("reads the export in the zip and gives the expected day totals", arguments: readableZips)
    func readsZip(_ zip: ReadableZip) throws {
        let zips = try Self.generated()
        let path = zips.path(zip.file)
        let aggregator = DayAggregator(rule: .recordedOffset)
        let summary = try AppleHealthImport.read(path: path, into: aggregator)

        #expect(summary.location == InputLocation(path: path, entries: zip.entries))
        // String equality is canonical equivalence; the names must also be the same bytes (NFC, as written).
        #expect(summary.location.entries.map { Array($0.utf8) } == zip.entries.map { Array($0.utf8) })
        #expect(aggregator.dayTotals().map(ExpectedDay.init) == zips.expected.days)
        try Self.checkCounts(summary, variant: zip.variant, expected: zips.expected)
    }

    // MARK: - Zips that must be refused

    @Test("two different exports in one zip are ambiguous, and both are named")
    func twoExportsAreAmbiguous() throws {
        let zips = try Self.generated()
        let path = zips.path("two-exports.zip")
        let error = try #require(Self.failure(reading: path))
        #expect(error == .ambiguous(InputLocation(path: path), expected: .appleHealth, candidates: ["a/export.xml", "b/export.xml"]))
    }

    /// A zip that holds no Apple export, with what the error must say.
    struct RefusedZip: Sendable, CustomTestStringConvertible {
        let file: String
        /// Entry names the message must list, so that the user sees what the zip held.
        let listed: [String]
        /// The remedy the error must name; nil when there must be none.
        let remedy: Remedy?
        var testDescription: String { file }
    }

    static let refusedZips: [RefusedZip] = [
        RefusedZip(file: "no-export.zip", listed: ["notes.txt", "workout-routes/route_1.gpx"], remedy: nil),
        RefusedZip(file: "health-connect.zip", listed: ["health_connect_export.db"], remedy: .useReader(for: .healthConnectDatabase, inArchive: true)),
        // Both entries carry `HealthData` in their first KiB: only skipping them by name refuses this zip.
        RefusedZip(file: "decoys-only.zip",
                   listed: ["__MACOSX/apple_health_export/._export.xml", "apple_health_export/export_cda.xml"],
                   remedy: nil),
    ]

    @Test("a zip without an Apple export is refused as not an export", arguments: refusedZips)
    func refusesZip(_ zip: RefusedZip) throws {
        let zips = try Self.generated()
        let path = zips.path(zip.file)
        let error = try #require(Self.failure(reading: path))
        guard case .notAnExport(let location, _, let found, let remedy) = error else {
            Issue.record("expected .notAnExport, got \(error)")
            return
        }
        #expect(location == InputLocation(path: path))
        for name in zip.listed {
            #expect(found.contains(name), "\(found)")
        }
        #expect(remedy == zip.remedy)
    }

    // MARK: - The unpacked folder and the bare XML

    /// A zip unpacked into a folder, and the export's path relative to that folder.
    struct UnpackedZip: Sendable, CustomTestStringConvertible {
        let file: String
        let relativePath: String
        let variant: XMLVariant
        var testDescription: String { file }
    }

    static let unpackedZips: [UnpackedZip] = [
        // Also unpacks `__MACOSX/apple_health_export/._экспорт.xml` and `export_cda.xml` beside it.
        UnpackedZip(file: "localized-ru.zip", relativePath: "apple_health_export/экспорт.xml", variant: .clean),
        UnpackedZip(file: "capitalised.zip", relativePath: "apple_health_export/Export.xml", variant: .clean),
        // Python decodes the flagless CP437 name as CP437, so the file on disk is `Exportación.xml`.
        UnpackedZip(file: "cp437-name.zip", relativePath: "apple_health_export/Exportación.xml", variant: .clean),
        UnpackedZip(file: "control-chars.zip", relativePath: "apple_health_export/export.xml", variant: .controlChars),
        UnpackedZip(file: "broken-dtd.zip", relativePath: "apple_health_export/export.xml", variant: .brokenDTD),
    ]

    @Test("reads the unpacked folder, its apple_health_export folder and the bare XML", arguments: unpackedZips)
    func readsUnpacked(_ zip: UnpackedZip) throws {
        let zips = try Self.generated()
        let folder = try Self.unpack(zips.path(zip.file))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let xmlPath = folder + "/" + zip.relativePath
        let inner = (xmlPath as NSString).deletingLastPathComponent

        for path in [folder, inner, xmlPath] {
            let aggregator = DayAggregator(rule: .recordedOffset)
            let summary = try AppleHealthImport.read(path: path, into: aggregator)
            #expect(summary.location == InputLocation(path: xmlPath), "reading \(path)")
            #expect(aggregator.dayTotals().map(ExpectedDay.init) == zips.expected.days, "reading \(path)")
            try Self.checkCounts(summary, variant: zip.variant, expected: zips.expected)
        }
    }

    @Test("an unpacked folder with two exports is ambiguous")
    func unpackedTwoExportsAreAmbiguous() throws {
        let zips = try Self.generated()
        let folder = try Self.unpack(zips.path("two-exports.zip"))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = try #require(Self.failure(reading: folder))
        #expect(error == .ambiguous(InputLocation(path: folder), expected: .appleHealth, candidates: ["a/export.xml", "b/export.xml"]))
    }

    @Test("an unpacked folder with only decoys is not an export")
    func unpackedDecoysAreNotAnExport() throws {
        let zips = try Self.generated()
        let folder = try Self.unpack(zips.path("decoys-only.zip"))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Unpacked as given: the decoys really are on disk.
        #expect(FileManager.default.fileExists(atPath: folder + "/__MACOSX/apple_health_export/._export.xml"))
        #expect(FileManager.default.fileExists(atPath: folder + "/apple_health_export/export_cda.xml"))
        let error = try #require(Self.failure(reading: folder))
        guard case .notAnExport(let location, _, _, _) = error else {
            Issue.record("expected .notAnExport, got \(error)")
            return
        }
        #expect(location == InputLocation(path: folder))
    }

    // MARK: - Bugs found and fixed in the locator

    @Test("a zip holding a zip with two exports is ambiguous, not \"no export\"")
    func nestedTwoExportsAreAmbiguous() throws {
        let zips = try Self.generated()
        let path = zips.path("nested-two-exports.zip")
        let error = try #require(Self.failure(reading: path))
        guard case .ambiguous(_, _, let candidates) = error else {
            Issue.record("expected .ambiguous, got \(error)")
            return
        }
        #expect(candidates.count == 2)
    }

    @Test("a folder given through a symbolic link is read like the folder itself")
    func readsFolderThroughSymbolicLink() throws {
        let zips = try Self.generated()
        let folder = try Self.unpack(zips.path("localized-ru.zip"))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { try? FileManager.default.removeItem(atPath: link) }

        let aggregator = DayAggregator(rule: .recordedOffset)
        let summary = try AppleHealthImport.read(path: link, into: aggregator)
        #expect(summary.location.path.hasSuffix("/apple_health_export/экспорт.xml"))
        #expect(aggregator.dayTotals().map(ExpectedDay.init) == zips.expected.days)
    }

    /// What goes down the pipe in `readsPipePath`.
    enum PipedInput: String, Sendable, CaseIterable {
        case xml, zip
    }

    @Test("a path that is a pipe, as `<(unzip -p export.zip ...)` gives, is read like the file", arguments: PipedInput.allCases)
    func readsPipePath(_ input: PipedInput) throws {
        let zips = try Self.generated()
        let bytes: Data
        switch input {
        case .zip:
            bytes = try Data(contentsOf: URL(fileURLWithPath: zips.path("localized-ru.zip")))
        case .xml:
            let folder = try Self.unpack(zips.path("localized-ru.zip"))
            defer { try? FileManager.default.removeItem(atPath: folder) }
            bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/apple_health_export/экспорт.xml"))
        }
        // Written in full before reading, so it must fit the pipe's buffer (64 KiB on Linux).
        try #require(bytes.count < 60_000)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        try #require(written == bytes.count)
        let path = "/dev/fd/\(ends[0])"

        let aggregator = DayAggregator(rule: .recordedOffset)
        let summary = try AppleHealthImport.read(path: path, into: aggregator)
        #expect(summary.location.path == path)
        #expect(aggregator.dayTotals().map(ExpectedDay.init) == zips.expected.days)
    }

    // MARK: - Names

    @Test("decoy names are skipped, localized export names are not", arguments: [
        ("__MACOSX/apple_health_export/._экспорт.xml", true),
        ("__MACOSX/._export.xml", true),
        ("apple_health_export/._export.xml", true),
        ("apple_health_export/export_cda.xml", true),
        ("apple_health_export/Export_cda.xml", true),
        ("apple_health_export/export.xml", false),
        ("apple_health_export/Export.xml", false),
        ("apple_health_export/экспорт.xml", false),
        ("apple_health_export/dışa aktarılan.xml", false),
        ("apple_health_export/Exportación.xml", false),
        ("export.zip", false),
    ])
    func decoyNames(_ name: String, isDecoy: Bool) {
        #expect(InputOpener.isDecoy(name) == isDecoy)
    }

    // MARK: - Helpers

    /// One day of `expected.json`, and the form `DayTotal` is compared in.
    struct ExpectedDay: Decodable, Equatable, CustomStringConvertible {
        struct Source: Decodable, Equatable {
            let source: String
            let steps: Int
        }
        let date: String
        let steps: Int
        let source: String
        let sources: [Source]

        init(_ total: DayTotal) {
            date = total.date.description
            steps = total.steps
            source = total.source
            sources = total.sources.map { Source(source: $0.source, steps: $0.steps) }
        }

        var description: String {
            "\(date)=\(steps) (\(sources.map { "\($0.source): \($0.steps)" }.joined(separator: ", ")))"
        }
    }

    /// `expected.json`, written by the generator beside the zips.
    struct Expected: Decodable {
        let days: [ExpectedDay]
        let locale: String
        let stepRecords: Int
        let nestedStepRecords: Int
        let records: Int
        let droppedControlCharacters: Int
        let xmlBytes: [String: Int64]
    }

    /// The folder the generator wrote, with what it says the zips must give.
    struct GeneratedZips: Sendable {
        let directory: String
        let expected: Expected

        func path(_ file: String) -> String { directory + "/" + file }

        @TaskLocal static var current: GeneratedZips?
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        let description: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func generated() throws -> GeneratedZips {
        try #require(GeneratedZips.current, "the suite's .appleExportZips trait did not run")
    }

    /// What the reader reports beside the totals: the same for every form of the export.
    static func checkCounts(_ summary: AppleImportSummary, variant: XMLVariant,
                            expected: Expected, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(summary.parse.locale == expected.locale, sourceLocation: sourceLocation)
        #expect(summary.parse.records == expected.records, sourceLocation: sourceLocation)
        #expect(summary.parse.stepRecords == expected.stepRecords, sourceLocation: sourceLocation)
        #expect(summary.parse.nestedStepRecords == expected.nestedStepRecords, sourceLocation: sourceLocation)
        #expect(summary.parse.skipped.count == 0, sourceLocation: sourceLocation)
        #expect(summary.skippedDoctype, sourceLocation: sourceLocation)
        let xmlBytes = try #require(expected.xmlBytes[variant.rawValue], sourceLocation: sourceLocation)
        #expect(summary.bytesRead == xmlBytes, sourceLocation: sourceLocation)
        let dropped = variant == .controlChars ? expected.droppedControlCharacters : 0
        #expect(summary.droppedControlCharacters == dropped, sourceLocation: sourceLocation)
    }

    /// The error reading `path` throws; nil (and a recorded issue) when it reads without one.
    static func failure(reading path: String, sourceLocation: SourceLocation = #_sourceLocation) -> ExportError? {
        do {
            let summary = try AppleHealthImport.read(path: path, into: DayAggregator(rule: .recordedOffset))
            Issue.record("expected an error, but \(summary.location) was read", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    static func makeTemporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("AppleExportLocatorTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Unpacks a zip into a new temporary folder (with Python's zipfile, not the code under test).
    static func unpack(_ zip: String) throws -> String {
        let folder = try makeTemporaryDirectory()
        do {
            try runPython(["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", zip, folder])
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return folder
    }

    static func runPython(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ScriptFailure(description: "python3 \(arguments.joined(separator: " ")) failed "
                                + "(status \(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
    }
}

/// Runs `scripts/make_test_zips.py` once around the whole suite and removes its output afterwards.
struct AppleExportZipsTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        typealias Suite = AppleExportLocatorTests
        let directory = try Suite.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Suite.runPython([Suite.packageRoot + "/scripts/make_test_zips.py", directory])
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/expected.json"))
        let expected = try JSONDecoder().decode(Suite.Expected.self, from: data)
        try await Suite.GeneratedZips.$current.withValue(Suite.GeneratedZips(directory: directory, expected: expected)) {
            try await function()
        }
    }
}

extension Trait where Self == AppleExportZipsTrait {
    /// The generated export zips, for `AppleExportLocatorTests`.
    static var appleExportZips: Self { Self() }
}
