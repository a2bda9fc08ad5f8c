import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

@Suite struct TopLevelBoundaryScannerTests {
    /// A document with the constructs a cut must not land in. Lines marked `^` start a top-level
    /// element right after a closed one: exactly those are boundaries.
    static let marked = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- a comment before the root: <Record> -->
    <?stylesheet href="x"?>
    <HealthData locale="en_US"
       note="a > b">
     <ExportDate value="2024-01-10 09:00:00 +0100"/>
    ^ <Me a="1"
       b='it"s > x'/>
    ^ <Record type="A" value="1 > 0" device="&lt;&lt;HKDevice&gt;">
      <MetadataEntry key="k" value="v"/>
      <MetadataEntry key="k2" value="
     Record type='nested'/>
    "/>
     </Record>
    ^ <Record type="B"/>
     <!-- between children:
     <Record type="in a comment"/>
     -->
     <Record type="C"/>
    ^ <Correlation type="D">
      <![CDATA[ </HealthData> <Record/>
     <Record/> ]]>
      <?pi </HealthData> ?>
      text > with a bracket
      <Record type="E"/>
     </Correlation>
    ^ <Record type="F"/>  <Record type="same line"/>\r
    ^ <Workout><WorkoutEvent/>
     </Workout>
    ^ <Record type="G"/>\r\n\t
    ^<Record type="H">text</Record>
    </HealthData>

    """

    static var document: [UInt8] { Array(marked.replacingOccurrences(of: "^", with: "").utf8) }

    /// Offsets of the marked lines in `document`.
    static var expectedBoundaries: [Int] {
        var offsets: [Int] = []
        var offset = 0
        // Split on bytes: as Characters, "\r\n" is one and would hide a line break.
        for line in Array(marked.utf8).split(separator: 0x0A, omittingEmptySubsequences: false) {
            let isMarked = line.first == UInt8(ascii: "^")
            if isMarked { offsets.append(offset) }
            offset += line.count - (isMarked ? 1 : 0) + 1
        }
        return offsets
    }

    /// Runs the scanner the way the reader does: the buffer grows by `step` bytes at a time and is
    /// cut (and the scanner rebased) at every boundary it reports at or after `target`.
    static func boundaries(in bytes: [UInt8], step: Int, target: Int) -> (cuts: [Int], scanner: TopLevelBoundaryScanner) {
        var scanner = TopLevelBoundaryScanner()
        var cuts: [Int] = []
        var start = 0
        var end = 0
        while end < bytes.count || start < end {
            let grown = min(bytes.count, end + step)
            let found = bytes[start..<grown].withUnsafeBytes { scanner.scan($0, target: target) }
            end = grown
            if let found {
                cuts.append(start + found)
                scanner.rebase(cutAt: found)
                start += found
            } else if end == bytes.count {
                break
            }
        }
        return (cuts, scanner)
    }

    @Test func findsEveryBoundaryWhateverTheBuffersGrowBy() {
        let bytes = Self.document
        let expected = Self.expectedBoundaries
        #expect(expected.count == 8)
        for step in 1...bytes.count {
            let (cuts, _) = Self.boundaries(in: bytes, step: step, target: 1)
            #expect(cuts == expected, "growing by \(step)")
        }
    }

    @Test func cutsAtTheFirstBoundaryPastTheTarget() {
        let bytes = Self.document
        let expected = Self.expectedBoundaries
        for target in [1, 50, 300, 700, 2000] {
            var wanted: [Int] = []
            var pieceStart = 0
            for boundary in expected where boundary - pieceStart >= target {
                wanted.append(boundary)
                pieceStart = boundary
            }
            for step in [1, 7, 64, bytes.count] {
                #expect(Self.boundaries(in: bytes, step: step, target: target).cuts == wanted,
                        "target \(target), growing by \(step)")
            }
        }
    }

    @Test func remembersTheLastBoundaryBeforeTheTarget() {
        var scanner = TopLevelBoundaryScanner()
        let bytes = Self.document
        let found = bytes.withUnsafeBytes { scanner.scan($0, target: bytes.count) }
        #expect(found == nil)
        #expect(scanner.lastBoundary == Self.expectedBoundaries.last)
    }

    @Test func framesPiecesWithTheRootStartTagOnOneLine() {
        let (_, scanner) = Self.boundaries(in: Self.document, step: 1 << 20, target: 1)
        #expect(scanner.piecePrefix.map { String(decoding: $0, as: UTF8.self) }
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><HealthData locale=\"en_US\"    note=\"a > b\">\n")
        #expect(scanner.pieceSuffix.map { String(decoding: $0, as: UTF8.self) } == "</HealthData>")
        #expect(scanner.phase == .done, "the root ended")
    }

    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<HealthData>\n <A/>\n <B/>\n</HealthData>",
        "<?xml version='1.0' encoding='ISO-8859-1'?>\n<HealthData>\n <A/>\n <B/>\n</HealthData>",
        "<HealthData/>\n <A/>\n <B/>\n",
        "<HealthData>\n <!DOCTYPE x>\n <A/>\n <B/>\n</HealthData>",
        "<HealthData>\n <A/>\n <0/>\n <B/>\n</HealthData>",
    ])
    func findsNoBoundaryInDocumentsItCannotCut(_ text: String) {
        #expect(Self.boundaries(in: Array(text.utf8), step: 3, target: 1).cuts == [])
    }

    @Test func acceptsUTF8DeclaredInAnyCase() {
        let text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<HealthData>\n <A/>\n <B/>\n</HealthData>"
        #expect(Self.boundaries(in: Array(text.utf8), step: 5, target: 1).cuts.count == 1)
    }
}
