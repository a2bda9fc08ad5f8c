import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

@Suite struct AppleHealthParserTests {
    static let document = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation)*)>
    <!ATTLIST VisionPrescription
      type CDATA #REQUIRED
    ]>
    <HealthData locale="en_US">
     <ExportDate value="2024-01-10 09:00:00 +0100"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:00:00 +0100" value="61">
      <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
     </Record>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" sourceVersion="17.1" device="&lt;&lt;HKDevice: 0x2834a1c20&gt;, name:iPhone&gt;" unit="count" creationDate="2024-01-01 10:10:00 +0100" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:05:00 +0100" value="47"/>
     <Record value="12.5" endDate="2024-01-01 11:05:00 -0500" startDate="2024-01-01 11:00:00 -0500" unit="count" sourceName="R&amp;D Pedometer" type="HKQuantityTypeIdentifierStepCount"></Record>
     <Record type="HKQuantityTypeIdentifierStepCount" unit="count" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100" value="3"/>
     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100">
      <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:05:00 +0100" value="47"/>
     </Correlation>
    </HealthData>

    """

    static let expected: [SampleCollector.Entry] = [
        .init(source: "Anna’s iPhone", sample: HealthSample(startMs: utcMs(2024, 1, 1, 9), endMs: utcMs(2024, 1, 1, 9, 5), offsetSeconds: 3600, value: 47)),
        .init(source: "R&D Pedometer", sample: HealthSample(startMs: utcMs(2024, 1, 1, 16), endMs: utcMs(2024, 1, 1, 16, 5), offsetSeconds: -18000, value: 12.5)),
        .init(source: "(unknown)", sample: HealthSample(startMs: utcMs(2024, 1, 2, 7), endMs: utcMs(2024, 1, 2, 7), offsetSeconds: 3600, value: 3)),
    ]

    /// Runs the prefilter and parser over `text` cut into pieces of `chunk` bytes.
    static func parse(_ text: String, chunk: Int, policy: InvalidRecordPolicy = .fail) throws
        -> (entries: [SampleCollector.Entry], statistics: AppleParseStatistics) {
        let collector = SampleCollector()
        let parser = AppleHealthParser(sink: collector, invalidRecords: policy)
        var filter = AppleXMLPrefilter()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            let cleaned = filter.filter(Array(bytes[start..<end]), final: end == bytes.count)
            try cleaned.withUnsafeBytes { try parser.feed($0) }
            start = end
        }
        try parser.finish()
        return (collector.entries, parser.statistics)
    }

    @Test func findsTopLevelStepRecordsOnly() throws {
        let (entries, statistics) = try Self.parse(Self.document, chunk: 1 << 16)
        #expect(entries == Self.expected)
        #expect(statistics.records == 4)
        #expect(statistics.stepRecords == 3)
        #expect(statistics.nestedStepRecords == 1)
        #expect(statistics.locale == "en_US")
    }

    @Test func everyChunkSizeGivesTheSameSamples() throws {
        let length = Self.document.utf8.count
        for chunk in Array(1...64) + [97, 128, 255, 1000, length - 1, length] {
            let (entries, _) = try Self.parse(Self.document, chunk: chunk)
            if entries != Self.expected {
                Issue.record("chunk size \(chunk) gave \(entries)")
                return
            }
        }
    }

    private func failure(_ text: String, policy: InvalidRecordPolicy = .fail) -> ParseFailure? {
        do {
            _ = try Self.parse(text, chunk: 7, policy: policy)
            return nil
        } catch {
            return error as? ParseFailure
        }
    }

    @Test func aTruncatedDocumentFailsWithItsPosition() throws {
        let cut = String(Self.document.prefix(Self.document.count - 60))
        let error = try #require(failure(cut))
        #expect(error.kind == .malformed)
        #expect(error.message.contains("truncated"))
        #expect(error.line >= 14)
    }

    @Test func malformedXMLFailsWithLineAndColumn() throws {
        let broken = Self.document.replacingOccurrences(of: "<Record value=\"12.5\"", with: "<Record value=\"12.5\" value=\"1\"")
        let error = try #require(failure(broken))
        #expect(error.kind == .malformed)
        // The DOCTYPE was removed but its lines kept: the line is the file's own.
        #expect(error.line == 14)
        #expect(error.message.contains("value"))
    }

    @Test func anotherRootElementIsNotAnExport() throws {
        let error = try #require(failure("<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n"))
        #expect(error.kind == .wrongKind)
        #expect(error.message.contains("<ClinicalDocument>"))
    }

    @Test func anEmptyDocumentFails() throws {
        #expect(failure("") != nil)
        #expect(failure("\n\n") != nil)
    }

    static let badRecords: [(String, String)] = [
        ("value=\"4x7\"", "not a non-negative number"),
        ("value=\"-5\"", "not a non-negative number"),
        ("value=\"\"", "not a non-negative number"),
        ("startDate=\"2024-01-01 25:00:00 +0100\"", "startDate"),
        ("endDate=\"yesterday\"", "endDate"),
        ("endDate=\"2023-12-31 10:05:00 +0100\"", "before startDate"),
        // Beyond SampleLimits (issue 11): these trapped in the aggregator, or ran away.
        ("value=\"1e19\"", "value \"1e19\" is more steps than one record can hold (at most 1,000,000)"),
        ("value=\"1e308\"", "value \"1e308\" is more steps than one record can hold"),
        ("value=\"999999999999999999\"", "value \"999999999999999999\" is more steps than one record can hold"),
        ("value=\"1000000.5\"", "value \"1000000.5\" is more steps than one record can hold"),
        ("startDate=\"0001-01-01 00:00:00 +0000\"", "startDate \"0001-01-01 00:00:00 +0000\" is outside the years 1970 to 2200"),
        ("startDate=\"1969-12-31 10:00:00 +0100\"", "is outside the years 1970 to 2200"),
        ("endDate=\"9999-12-31 23:59:59 +0100\"", "endDate \"9999-12-31 23:59:59 +0100\" is outside the years 1970 to 2200"),
        ("endDate=\"2024-02-01 10:00:01 +0100\"",
         "startDate \"2024-01-01 10:00:00 +0100\" to endDate \"2024-02-01 10:00:01 +0100\" is longer than 31 days"),
        ("startDate=\"2024-01-01 10:00:00 +1830\"", "the offset of startDate \"2024-01-01 10:00:00 +1830\" is beyond ±18 hours"),
    ]

    @Test(arguments: badRecords)
    func anUnusableStepRecordStopsTheRunByDefault(_ replacement: (String, String)) throws {
        let (attribute, message) = replacement
        let name = String(attribute.prefix(while: { $0 != "=" }))
        let original: String
        switch name {
        case "value": original = "value=\"47\""
        case "startDate": original = "startDate=\"2024-01-01 10:00:00 +0100\""
        default: original = "endDate=\"2024-01-01 10:05:00 +0100\""
        }
        // Only the first step record (line 13) is changed.
        var lines = Self.document.components(separatedBy: "\n")
        lines[12] = lines[12].replacingOccurrences(of: original, with: attribute)
        let text = lines.joined(separator: "\n")
        let error = try #require(failure(text))
        #expect(error.kind == .invalidRecord)
        #expect(error.line == 13)
        #expect(error.message.contains(message))

        let (entries, statistics) = try Self.parse(text, chunk: 100, policy: .skip)
        #expect(entries == Array(Self.expected.dropFirst()))
        #expect(statistics.skipped.count == 1)
        #expect(statistics.skipped.examples.first?.line == 13)
    }

    @Test func aMissingAttributeIsAnInvalidRecord() throws {
        let text = "<HealthData>\n<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A\" startDate=\"2024-01-01 10:00:00 +0100\" value=\"1\"/>\n</HealthData>"
        let error = try #require(failure(text))
        #expect(error.kind == .invalidRecord)
        #expect(error.message.contains("missing endDate"))
    }
}
