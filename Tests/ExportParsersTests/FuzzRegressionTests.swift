import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import TestSupport

/// The inputs the fuzz targets found (Tests/FuzzRegressions/<target>/), each run through the same
/// path as its target, with the answer it must give now.
@Suite struct FuzzRegressionTests {
    static func input(_ target: String, _ name: String) throws -> [UInt8] {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/FuzzRegressions/\(target)/\(name)")
        return Array(try Data(contentsOf: url))
    }

    /// The chunk size the fuzz targets derive from an input's length (FuzzInput.chunkSize).
    static func chunkSize(_ bytes: [UInt8]) -> Int {
        [1, 2, 3, 7, 64, 4096, Int.max][bytes.count % 7]
    }

    /// fuzz-apple-xml's path: the prefilter and the parser, in the target's chunks.
    static func parseAppleXML(_ bytes: [UInt8], parser: AppleHealthParser) throws(ParseFailure) {
        var filter = AppleXMLPrefilter()
        let chunk = chunkSize(bytes)
        var start = 0
        while start < bytes.count {
            let end = bytes.count - start > chunk ? start + chunk : bytes.count
            let cleaned = filter.filter(Array(bytes[start..<end]), final: end == bytes.count)
            var failure: ParseFailure?
            cleaned.withUnsafeBytes { buffer in
                do throws(ParseFailure) { try parser.feed(buffer) } catch { failure = error }
            }
            if let failure { throw failure }
            start = end
        }
        try parser.finish()
    }

    /// A DOCTYPE after a processing instruction reaches libxml2 (the prefilter removes only one at
    /// the very start), which keeps its declarations in a document of its own: it was never freed.
    /// Now the parser fails and keeps nothing of it.
    @Test func aDoctypeAfterAProcessingInstructionLeavesNoDocumentBehind() throws {
        let bytes = try Self.input("fuzz-apple-xml", "leak-doctype-after-pi.xml")
        let collector = SampleCollector()
        let parser = AppleHealthParser(sink: collector)
        #expect(throws: ParseFailure.self) { try Self.parseAppleXML(bytes, parser: parser) }
        #expect(!parser.holdsDocument)
        #expect(collector.entries.isEmpty)
    }

    /// The same with an entity that would hold a step record: it is never expanded, and the
    /// parser keeps no document after the end, whatever the outcome.
    @Test func anEntityDeclaredAfterAProcessingInstructionIsNeverExpanded() throws {
        let text = """
            <?pi?><!DOCTYPE HealthData [<!ENTITY r "<Record type='HKQuantityTypeIdentifierStepCount' sourceName='x' \
            startDate='2024-01-01 10:00:00 +0000' endDate='2024-01-01 10:00:00 +0000' value='5'/>">]>
            <HealthData>&r;</HealthData>
            """
        let collector = SampleCollector()
        let parser = AppleHealthParser(sink: collector)
        let failure = #expect(throws: ParseFailure.self) { try Self.parseAppleXML(Array(text.utf8), parser: parser) }
        #expect(failure?.message.contains("Entity 'r' not defined") == true)
        #expect(collector.entries.isEmpty)
        #expect(!parser.holdsDocument)
    }
}
