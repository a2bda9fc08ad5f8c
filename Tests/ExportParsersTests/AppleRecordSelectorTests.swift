import Testing
@testable import ExportParsers
import HealthDays
import ExportInput

/// The record selector leaves out exactly the top-level records of types not asked for, keeps
/// their line breaks, checks their structure, and gives the same answer however its input is cut.
@Suite struct AppleRecordSelectorTests {
    static let steps = Array("HKQuantityTypeIdentifierStepCount".utf8)

    /// Selects `text` fed `chunk` bytes at a time, as the reader does: each chunk is added after
    /// the bytes not decided yet. Returns the bytes handed on and the selector.
    static func select(_ text: String, chunk: Int, wanted: [[UInt8]] = [steps]) -> (output: String, selector: AppleRecordSelector) {
        let input = Array(text.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: input.count + 1, alignment: 1)
        defer { buffer.deallocate() }
        var selector = AppleRecordSelector(wantedTypes: wanted)
        var selected = 0
        var count = 0
        var fed = 0
        while fed < input.count, selector.failure == nil {
            let take = min(chunk, input.count - fed)
            for index in 0..<take { buffer[count + index] = input[fed + index] }
            count += take
            fed += take
            (selected, count) = selector.select(buffer, from: selected, to: count)
        }
        selector.finish()
        return (String(decoding: buffer[0..<count], as: UTF8.self), selector)
    }

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" value="61"/>
         <Record type="HKQuantityTypeIdentifierStepCount" value="5"/>
         <Record type="HKQuantityTypeIdentifierStepCountX" value="1" note="a > b /> c &lt;">
          <MetadataEntry key="k" value='v "quoted" >'/>
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="60" time="1"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Record type="HKQuantityTypeIdentifierStep" value="2"/><Record type="HKQuantityTypeIdentifierStepCount" value="6"/>
         <!-- <Record type="HKQuantityTypeIdentifierHeartRate"/> -->
         <![CDATA[ <Record type="A"/> ]]>
         <Correlation type="HKCorrelationTypeIdentifierFood">
          <Record type="HKQuantityTypeIdentifierHeartRate" value="1"/>
         </Correlation>
         <Record sourceName="S" type="HKQuantityTypeIdentifierHeartRate"/>
         <Record type="HKQuantityTypeIdentifier&#83;tepCount" value="7"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" value="x"><!-- </Record> --><![CDATA[</Record>]]><?pi </Record>?></Record >
        </HealthData>

        """

    /// What passes: the records of other types are gone but for their line breaks; records nested
    /// in a Correlation, written another way (type not first, an entity) and in comments stay.
    static let expected = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 10:00:00 +0100"/>
         
         <Record type="HKQuantityTypeIdentifierStepCount" value="5"/>
         





         <Record type="HKQuantityTypeIdentifierStepCount" value="6"/>
         <!-- <Record type="HKQuantityTypeIdentifierHeartRate"/> -->
         <![CDATA[ <Record type="A"/> ]]>
         <Correlation type="HKCorrelationTypeIdentifierFood">
          <Record type="HKQuantityTypeIdentifierHeartRate" value="1"/>
         </Correlation>
         <Record sourceName="S" type="HKQuantityTypeIdentifierHeartRate"/>
         <Record type="HKQuantityTypeIdentifier&#83;tepCount" value="7"/>
         
        </HealthData>

        """

    @Test func leavesOutRecordsOfOtherTypesKeepingTheirLineBreaks() {
        let (output, selector) = Self.select(Self.document, chunk: 1 << 20)
        #expect(output == Self.expected)
        #expect(selector.failure == nil)
        #expect(selector.skippedRecords == 4, "heart rate, StepCountX, Step, sleep")
        #expect(output.filter { $0 == "\n" }.count == Self.document.filter { $0 == "\n" }.count)
    }

    @Test func chunksSplitAnywhereGiveTheSameBytes() {
        for chunk in 1...80 {
            let (output, selector) = Self.select(Self.document, chunk: chunk)
            #expect(output == Self.expected, "chunks of \(chunk)")
            #expect(selector.skippedRecords == 4)
        }
    }

    @Test func theTagScanStopsAtEveryByteThatMatters() {
        let specials: [UInt8] = [0x0A, 0x22, 0x27, 0x2F, 0x3C, 0x3E]
        #expect(AppleRecordSelector.tagSpecialsForTests == specials.reduce(UInt64(0)) { $0 | (1 << UInt64($1)) })
    }

    @Test func aTypeIsComparedWhole() {
        let wanted = [Array("HKQuantityTypeIdentifierHeartRate".utf8)]
        let text = """
            <HealthData>
            <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" value="1"/>
            <Record type="HKQuantityTypeIdentifierHeartRat" value="2"/>
            <Record type="HKQuantityTypeIdentifierHeartRate" value="3"/>
            </HealthData>
            """
        let (output, selector) = Self.select(text, chunk: 7, wanted: wanted)
        #expect(output == "<HealthData>\n\n\n<Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"3\"/>\n</HealthData>")
        #expect(selector.skippedRecords == 2)
    }

    @Test func nestedStepRecordsInARecordLeftOutAreCounted() {
        let text = """
            <HealthData>
            <Record type="X"><Record type="HKQuantityTypeIdentifierStepCount" value="1"/></Record>
            </HealthData>
            """
        for chunk in [1, 3, 1000] {
            #expect(Self.select(text, chunk: chunk).selector.nestedStepRecords == 1)
            #expect(Self.select(text, chunk: chunk, wanted: [Array("X2".utf8)]).selector.nestedStepRecords == 0,
                    "steps not asked for: not counted (the parser does not count them either)")
        }
    }

    // MARK: - Structure

    static func failure(_ text: String, chunk: Int) -> ParseFailure? {
        Self.select(text, chunk: chunk).selector.failure
    }

    @Test func aDocumentCutInsideARecordLeftOutFails() {
        let text = Self.document
        // Every cut inside the StepCountX record (lines 6 to 11) once its type is read (before, the
        // record passes undecided and libxml2 finds the end).
        let bytes = Array(text.utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let recordStart = lines[0..<5].reduce(0) { $0 + $1.utf8.count + 1 } + 1
        let recordEnd = lines[0..<11].reduce(0) { $0 + $1.utf8.count + 1 } - 1
        for cut in stride(from: recordStart + 50, to: recordEnd, by: 7) {
            let cutText = String(decoding: bytes[0..<cut], as: UTF8.self)
            for chunk in [1, 13, 1 << 20] {
                let failure = Self.failure(cutText, chunk: chunk)
                #expect(failure?.message.contains("the file is truncated") == true, "cut at \(cut), chunks of \(chunk)")
                let line = 1 + bytes[0..<cut].filter { $0 == 0x0A }.count
                #expect(failure?.position.line == line, "the end of the file")
            }
        }
    }

    @Test(arguments: [
        ("<Record type=\"A\" value=\"1<2\"/>", "'<' inside an attribute value"),
        ("<Record type=\"A\" <Record type=\"B\"/>", "'<' inside a tag"),
        ("<Record type=\"A\"><MetadataEntry key=\"k\">\n</Record>", "tags are not balanced"),
        ("<Record type=\"A\"></Recor>", "tags are not balanced"),
        ("<Record type=\"A\">< x/></Record>", "'<' not followed by a name"),
        ("<Record type=\"A\"><!DOCTYPE x></Record>", "a declaration inside an element"),
        ("<Record type=\"A\" value=\"1/>\n<Record type=\"B\" value=\"2\"/>", "'<' inside an attribute value"),
    ])
    func aMalformedRecordLeftOutFails(record: String, problem: String) {
        let text = "<HealthData>\n <Record type=\"HKQuantityTypeIdentifierStepCount\"/>\n " + record + "\n</HealthData>\n"
        for chunk in [1, 5, 1 << 20] {
            let failure = Self.failure(text, chunk: chunk)
            #expect(failure?.message.contains(problem) == true, "\(record), chunks of \(chunk): \(String(describing: failure))")
            #expect(failure?.kind == .malformed)
            #expect((failure?.position.line ?? 0) >= 3)
        }
    }

    @Test func anUnclosedQuoteIsFoundAtTheNextTag() {
        let text = "<HealthData>\n <Record type=\"A\" value=\"1/>\n <Record type=\"B\"/>\n</HealthData>\n"
        let failure = Self.failure(text, chunk: 4)
        #expect(failure?.position.line == 3)
        #expect(failure?.position.column == 2, "the `<` of the next record, column 2")
    }

    // MARK: - Through the pieces

    @Test(arguments: 1...8)
    func generatedDocumentsGiveTheSameResultAsOneParserOfEveryRecord(seed: UInt64) {
        var generator = ExportGenerator(seed: seed)
        generator.recordsWithChildren = true
        generator.elementPerLine = true
        let bytes = Array(generator.document(elements: 300).utf8)
        for metrics in [MetricSet.steps, MetricSet([.heartRate])] {
            let expected = PieceParseTests.outcome { sink throws(ExportError) in
                try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: .skip,
                                                       metrics: metrics, progress: nil)
            }
            #expect(expected.error == nil)
            for pieceSize in [1, 300, 1 << 20] {
                for readSize in [7, 1000] {
                    let got = PieceParseTests.inPieces(bytes, workers: 2, pieceSize: pieceSize, readSize: readSize,
                                                       selectsRecords: true, metrics: metrics)
                    #expect(got == expected, "seed \(seed), \(metrics), pieces of \(pieceSize), reads of \(readSize)")
                }
            }
        }
    }

    /// Lines of many records left out, then an error libxml2 finds: the same line, column and byte
    /// offset as when every record is read.
    @Test(arguments: ["value=\"1O\"", "value=1", "value=\"1\" value=\"2\""])
    func anErrorAfterRecordsLeftOutIsPlacedAsWithoutThem(_ bad: String) throws {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!DOCTYPE HealthData [", "]>", "<HealthData locale=\"en_US\">"]
        for index in 0..<300 {
            if index % 3 == 0 {
                lines.append(" <Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"6\u{0B}1\">")
                lines.append("  <MetadataEntry key=\"k\" value=\"v\"/>")
                lines.append(" </Record>")
            } else {
                lines.append(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" value=\"\(index)\"/>")
            }
        }
        lines.append(" <Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"1\"/>")
        lines.append(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" \(bad)/>")
        lines.append("</HealthData>")
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let expected = PieceParseTests.sequential(bytes, policy: .fail)
        let error = try #require(expected.error)
        for pieceSize in [100, 1 << 20] {
            let got = PieceParseTests.inPieces(bytes, policy: .fail, workers: 2, pieceSize: pieceSize, readSize: 500,
                                               selectsRecords: true)
            #expect(got.error?.description == error.description, "pieces of \(pieceSize)")
            #expect(got.entries == expected.entries)
        }
    }
}
