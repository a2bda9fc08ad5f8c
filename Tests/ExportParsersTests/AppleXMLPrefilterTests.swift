import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

@Suite struct AppleXMLPrefilterTests {
    /// An iOS 16 style head: the ATTLIST of VisionPrescription is never closed.
    static let brokenHead = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 12 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
    <!ATTLIST VisionPrescription
      type CDATA #REQUIRED
      dateIssued CDATA #REQUIRED
    <!ELEMENT ExportDate EMPTY>
    ]>
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A\u{0B}B" value="1"/>
     <Note text="a]>b <!DOCTYPE x> \u{01}"/>
    </HealthData>

    """

    static let brokenHeadCleaned = """
    <?xml version="1.0" encoding="UTF-8"?>
    \n\n\n\n\n\n\n
    <HealthData locale="en_US">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="AB" value="1"/>
     <Note text="a]>b <!DOCTYPE x> "/>
    </HealthData>

    """

    private func run(_ input: [UInt8], chunk: Int) -> (output: [UInt8], filter: AppleXMLPrefilter) {
        var filter = AppleXMLPrefilter()
        var output: [UInt8] = []
        var start = 0
        while start < input.count {
            let end = min(input.count, start + chunk)
            output += filter.filter(Array(input[start..<end]), final: false)
            start = end
        }
        output += filter.filter([], final: true)
        return (output, filter)
    }

    @Test func removesTheDoctypeAndKeepsItsLineBreaks() {
        let (output, filter) = run(Array(Self.brokenHead.utf8), chunk: 1 << 20)
        #expect(String(decoding: output, as: UTF8.self) == Self.brokenHeadCleaned)
        #expect(filter.skippedDoctype)
        #expect(filter.droppedControlCharacters == 2)
        // Line numbers after the DOCTYPE stay those of the file.
        #expect(output.filter { $0 == 0x0A }.count == Array(Self.brokenHead.utf8).filter { $0 == 0x0A }.count)
    }

    @Test func everyChunkSizeGivesTheSameBytes() {
        let input = Array(Self.brokenHead.utf8)
        let expected = Array(Self.brokenHeadCleaned.utf8)
        for chunk in 1...input.count {
            let (output, filter) = run(input, chunk: chunk)
            if output != expected || filter.droppedControlCharacters != 2 {
                Issue.record("chunk size \(chunk) gave \(String(decoding: output, as: UTF8.self))")
                return
            }
        }
    }

    @Test func leavesADocumentWithoutDoctypeAlone() {
        let text = "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<HealthData><Record/></HealthData>\n"
        for chunk in [1, 2, 3, 7, 100] {
            let (output, filter) = run(Array(text.utf8), chunk: chunk)
            #expect(String(decoding: output, as: UTF8.self) == text)
            #expect(!filter.skippedDoctype)
        }
    }

    @Test func aDoctypeWithoutInternalSubsetIsRemovedToo() {
        let (output, _) = run(Array("<!DOCTYPE HealthData>\n<HealthData/>".utf8), chunk: 4)
        #expect(String(decoding: output, as: UTF8.self) == "\n<HealthData/>")
    }

    @Test func whiteSpaceBetweenBracketAndCloseIsAllowed() {
        let (output, _) = run(Array("<!DOCTYPE HealthData [ <!ELEMENT a EMPTY> ]  \n >\n<HealthData/>".utf8), chunk: 3)
        #expect(String(decoding: output, as: UTF8.self) == "\n\n<HealthData/>")
    }

    @Test func aPartialDoctypeAtTheEndIsReleased() {
        let (output, _) = run(Array("<!DOC".utf8), chunk: 2)
        #expect(String(decoding: output, as: UTF8.self) == "<!DOC")
    }

    @Test func controlCharactersAreDroppedEverywhereButTabAndLineBreaks() {
        var input: [UInt8] = Array("<a b=\"".utf8)
        input += Array(0...31).map(UInt8.init)
        input += Array("\"/>".utf8)
        let (output, filter) = run(input, chunk: 5)
        #expect(output == Array("<a b=\"".utf8) + [0x09, 0x0A, 0x0D] + Array("\"/>".utf8))
        #expect(filter.droppedControlCharacters == 29)
    }

    @Test(arguments: [1, 3, 9, 64, 1 << 20])
    func everyFilteredByteMapsBackToTheSameByteOfTheInput(chunk: Int) {
        // A DOCTYPE, controls in the prolog, one inside a partial `<!DOC` and many in the body.
        let input = Array("\u{01}<?xml version=\"1.0\"?>\u{02}\n<!DO\u{0B}X/>".utf8) + Array(Self.brokenHead.utf8)
            + Array("<x a=\"\u{1F}\u{1F}b\u{0C}\"/>\n".utf8)
        let (output, filter) = run(input, chunk: chunk)
        #expect(filter.dropped.total == Int64(input.count - output.count), "every byte left out is counted")
        for (index, byte) in output.enumerated() {
            guard let offset = filter.dropped.inputOffset(ofFiltered: Int64(index)) else {
                Issue.record("no input offset for filtered byte \(index)")
                return
            }
            #expect(input[Int(offset)] == byte, "filtered byte \(index) is input byte \(offset)")
        }
        // The place just past the end maps past the input's end.
        #expect(filter.dropped.inputOffset(ofFiltered: Int64(output.count)) == Int64(input.count))
    }

    @Test func pastItsLastEntryTheLogSaysItDoesNotKnow() {
        var log = DroppedBytes()
        for index in 0..<(DroppedBytes.maxEntries + 10) { log.record(1, at: Int64(2 * index)) }
        #expect(log.inputOffset(ofFiltered: 1) == 2, "one byte dropped before filtered byte 0")
        #expect(log.inputOffset(ofFiltered: 2 * Int64(DroppedBytes.maxEntries) - 1) != nil)
        #expect(log.inputOffset(ofFiltered: 2 * Int64(DroppedBytes.maxEntries)) == nil, "drops from there on went unrecorded")
        #expect(log.total == Int64(DroppedBytes.maxEntries + 10))
    }

    /// Markup in the prolog that used to end the filter's search for the DOCTYPE: a `<` and a name
    /// inside a comment or an instruction, `]>` inside quotes, a comment or an instruction of the
    /// internal subset. The DOCTYPE after them is removed all the same.
    static let trickyProlog = """
    <?xml version="1.0" encoding="UTF-8"?>
    <?xml-stylesheet href="<a>" ?>
    <!-- a comment holding <b> and <!DOCTYPE c> and -- dashes -->
    <!DOCTYPE HealthData SYSTEM "x[y>z" [
    <!ENTITY e "]>">
    <!-- ]> in a comment, and a quote ' -->
    <?pi ]> and " ?>
    <!ENTITY f '"]>'>
    ]>
    <HealthData locale="en_US"/>

    """

    @Test(arguments: [1, 2, 7, 1 << 20])
    func commentsInstructionsAndQuotesDoNotHideTheDoctype(chunk: Int) {
        let (output, filter) = run(Array(Self.trickyProlog.utf8), chunk: chunk)
        let kept = """
        <?xml version="1.0" encoding="UTF-8"?>
        <?xml-stylesheet href="<a>" ?>
        <!-- a comment holding <b> and <!DOCTYPE c> and -- dashes -->
        \n\n\n\n\n
        <HealthData locale="en_US"/>

        """
        #expect(String(decoding: output, as: UTF8.self) == kept)
        #expect(filter.skippedDoctype)
    }

    @Test func otherDeclarationsInTheProlog() {
        // Not XML (libxml2 refuses it), but passed on unchanged for it to say so.
        let text = "<!ELEMENT a EMPTY>\n<!DOCTYPE a>\n<a/>"
        let (output, filter) = run(Array(text.utf8), chunk: 3)
        #expect(String(decoding: output, as: UTF8.self) == "<!ELEMENT a EMPTY>\n\n<a/>")
        #expect(filter.skippedDoctype)
    }
}

/// The HealthKit export version, kept from the DOCTYPE comment the prefilter drops.
@Suite struct AppleXMLPrefilterVersionTests {
    static func version(of text: String, chunk: Int) -> String? {
        var filter = AppleXMLPrefilter()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            _ = filter.filter(Array(bytes[start..<end]), final: end == bytes.count)
            start = end
        }
        return filter.healthKitExportVersion
    }

    static let head = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment before the DOCTYPE: HealthKit Export Version: 99 -->
        <!DOCTYPE HealthData [
        <!-- another comment -->
        <!ATTLIST Record value CDATA #IMPLIED>
        <!--   HealthKit Export Version: 14   -->
        <!-- HealthKit Export Version: 15 -->
        ]>
        <HealthData locale="en_US">
        <!-- HealthKit Export Version: 77 -->
        </HealthData>
        """

    @Test func theFirstVersionCommentOfTheInternalSubsetAtEveryChunkSize() {
        for chunk in [1, 2, 3, 5, 7, 13, 64, 1000] {
            #expect(Self.version(of: Self.head, chunk: chunk) == "14", "chunk \(chunk)")
        }
    }

    @Test func noneWithoutSuchAComment() {
        #expect(Self.version(of: "<HealthData><!-- HealthKit Export Version: 3 --></HealthData>", chunk: 4) == nil)
        #expect(Self.version(of: "<!DOCTYPE HealthData [ <!-- HealthKit Export Version: --> ]><HealthData/>", chunk: 4) == nil)
        #expect(Self.version(of: "<!DOCTYPE HealthData [ <!-- HealthKit Export -->]><HealthData/>", chunk: 4) == nil)
    }
}
