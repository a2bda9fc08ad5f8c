import Testing
@testable import ExportParsers
import CLibXML2
import HealthDays
import ExportInput

/// Records asked for are read by the workers' selection without libxml2 only when that gives what
/// libxml2 gives: the same attributes, the same invalid records at the same line and column, the
/// same samples in the same order; anything else goes to libxml2.
@Suite struct AppleRecordTagTests {
    /// Reads the tag at the start of `text` (a `<Record type="...` whose type ends at the first
    /// quote after `type="`): the outcome and the attributes as name/value strings.
    static func read(_ text: String) -> (outcome: AppleRecordTag.Outcome, attributes: [String], tag: AppleRecordTag) {
        let bytes = Array(text.utf8)
        return Self.withTag { tag, buffer in bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            let typeStart = 14
            let typeEnd = bytes[typeStart...].firstIndex(of: UInt8(ascii: "\""))!
            let outcome = tag.read(base, record: 0, typeStart: typeStart, typeEnd: typeEnd, end: bytes.count)
            var attributes: [String] = []
            if outcome == .read {
                for index in 0..<tag.attributeCount {
                    let name = String(cString: buffer[index * 5]!)
                    let start = UnsafeRawPointer(buffer[index * 5 + 3]!) - base
                    let end = UnsafeRawPointer(buffer[index * 5 + 4]!) - base
                    attributes.append(name + "=" + String(decoding: bytes[start..<end], as: UTF8.self))
                }
            }
            return (outcome, attributes, tag)
        } }
    }

    /// Runs `body` with a tag reading into buffers of its own.
    static func withTag<Result>(_ body: (inout AppleRecordTag, UnsafeMutablePointer<UnsafePointer<xmlChar>?>) -> Result) -> Result {
        let buffers = AppleRecordTag.Buffers()
        var tag = AppleRecordTag(into: buffers)
        return body(&tag, buffers.attributes)
    }

    @Test func anAppleRecordIsReadWithTheNamesTheParserReads() {
        let text = "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Anna’s iPhone\" sourceVersion=\"17.1\" "
            + "device=\"&lt;&lt;HKDevice: 0x2834&gt;, name:iPhone&gt;\" unit='count' creationDate=\"2024-01-01 10:05:00 +0100\" "
            + "startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:05:00 +0100\" value=\"42\"/>\n"
        let (outcome, attributes, tag) = Self.read(text)
        #expect(outcome == .read)
        // Only the attributes the parser reads are handed over (it looks for no other name).
        #expect(attributes == ["type=HKQuantityTypeIdentifierStepCount", "sourceName=Anna’s iPhone", "unit=count",
                               "startDate=2024-01-01 10:00:00 +0100", "endDate=2024-01-01 10:05:00 +0100", "value=42"])
        #expect(tag.isEmpty)
        #expect(Array(text.utf8)[tag.close] == UInt8(ascii: "/"), "where libxml2 stands: the `/` of `/>`")
        #expect(tag.lineFeeds == 0)
    }

    @Test func lineFeedsInATagAreCountedAndAnElementWithChildrenIsNotEmpty() {
        let text = "<Record type=\"A\"\n unit=\"count\" note=\"two\nlines\" >\n <MetadataEntry/></Record>"
        let (outcome, attributes, tag) = Self.read(text)
        #expect(outcome == .read)
        #expect(attributes == ["type=A", "unit=count"])
        #expect(!tag.isEmpty)
        #expect(Array(text.utf8)[tag.close] == UInt8(ascii: ">"))
        #expect(tag.lineFeeds == 2)
        #expect(tag.lastLineFeed == Array(text.utf8).firstIndex(of: UInt8(ascii: "l"))! - 1)
    }

    @Test(arguments: [
        ("<Record type=\"A\" sourceName=\"R&amp;D\"/>", "an entity in a value the parser reads"),
        ("<Record type=\"A\" value=\"1\t\"/>", "a TAB XML turns into a space"),
        ("<Record type=\"A\" startDate=\"2024-01-01\n10:00:00 +0100\"/>", "a line feed XML turns into a space"),
        ("<Record type=\"A\" value=\"1\" value=\"2\"/>", "a name given twice"),
        ("<Record type=\"A\" device=\"1\" device=\"2\"/>", "a name the parser does not read, given twice"),
        ("<Record type=\"A\" sourceNamf=\"1\" sourceNamf=\"2\"/>", "a name like one the parser reads, given twice"),
        ("<Record type=\"A\" durationUnit=\"1\" unit=\"2\" durationUnit=\"3\"/>", "a workout's name given twice"),
        ("<Record type=\"A\" type=\"B\"/>", "the type given twice"),
        ("<Record type=\"A\"unit=\"count\"/>", "no white space before an attribute"),
        ("<Record type=\"A\" unit=\"count\"value=\"1\"/>", "no white space between attributes"),
        ("<Record type=\"A\" note=\"a < b\"/>", "a `<` in any value"),
        ("<Record type=\"A\" sourceName=\"\u{FFFE}\"/>", "a character XML does not allow"),
        ("<Record type=\"A\" unit/>", "an attribute without a value"),
        ("<Record type=\"A\" unit=count/>", "a value without quotes"),
        ("<Record type=\"A\" / >", "a `/` not followed by `>`"),
        ("<Record type=\"A\" ünit=\"count\"/>", "a name outside ASCII"),
        ("<Record type=\"A\" 1unit=\"count\"/>", "a name starting with a digit"),
        ("<Record type=\"A\" endDate\(String(repeating: "x", count: 256))=\"2024-01-01 10:00:00 +0100\"/>",
         "a name past 64 bytes (its key's length would wrap to endDate's)"),
    ])
    func aTagWrittenAnotherWayGoesToLibxml2(text: String, why: String) {
        #expect(Self.read(text).outcome == .notPlain, "\(why)")
    }

    @Test func invalidUTF8InAValueTheParserReadsGoesToLibxml2() {
        var bytes = Array("<Record type=\"A\" sourceName=\"Phone\"/>".utf8)
        bytes.insert(0xC0, at: 32)
        let text = String(decoding: bytes, as: UTF8.self)
        // The decoded text holds U+FFFD: check the bytes themselves.
        #expect(text.contains("\u{FFFD}"))
        let outcome = Self.withTag { tag, _ in
            bytes.withUnsafeBytes { tag.read($0.baseAddress!, record: 0, typeStart: 14, typeEnd: 15, end: bytes.count) }
        }
        #expect(outcome == .notPlain)
    }

    @Test func aTagCutOffIsUndecided() {
        let text = "<Record type=\"A\" sourceName=\"Phone\" value=\"12\"/>"
        for length in 17..<text.utf8.count - 1 {
            let cut = String(text.utf8.prefix(length))!
            #expect(Self.read(cut).outcome == .undecided, "cut after \(length) bytes")
        }
    }

    @Test func valuesTheParserDoesNotReadAreCheckedOnlyForStructure() {
        let text = "<Record type=\"A\" device=\"&lt;&#x1F;&bogus; \u{7F}\" note='say \"hi\" > there' value=\"1\"/>"
        let (outcome, attributes, _) = Self.read(text)
        #expect(outcome == .read)
        #expect(attributes.last == "value=1")
    }

    @Test func xmlTextIsWellFormedUTF8OfAllowedCharacters() {
        var state: UInt64 = 99
        var agreed = 0
        for _ in 0..<20_000 {
            let count = 1 + Int(state % 5)
            var bytes: [UInt8] = []
            for _ in 0..<count {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let pick = state >> 56
                bytes.append(pick < 64 ? UInt8(truncatingIfNeeded: state >> 40) : pick < 128 ? 0x80 | UInt8(truncatingIfNeeded: state >> 40) & 0x3F
                             : [0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xC0, 0xBF, 0x41, 0x09][Int(state >> 20) % 12])
            }
            let scalars = String(validating: bytes, as: UTF8.self)?.unicodeScalars
            let expected = scalars.map { all in
                all.allSatisfy { scalar in
                    let value = scalar.value
                    return value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value != 0xFFFE && value != 0xFFFF)
                }
            } ?? false
            let got = bytes.withUnsafeBytes { AppleRecordTag.isXMLText($0.baseAddress!, from: 0, to: bytes.count) }
            #expect(got == expected, "\(bytes)")
            if got == expected { agreed += 1 }
        }
        #expect(agreed == 20_000)
    }

    // MARK: - Apple's form

    /// Reads `bytes` as a record's tag both ways: through Apple's form first (as the selector
    /// does) and through the general reading alone. What a reading gives: the outcome, the
    /// attributes, where the tag closes, whether it is empty and its line feeds.
    static func bothWays(_ bytes: [UInt8]) -> (apple: String, general: String, tookAppleForm: Bool)? {
        guard bytes.count > 14, let typeEnd = bytes[14...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        func reading(_ appleForm: Bool) -> (String, Bool) {
            Self.withTag { tag, buffer in bytes.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                let outcome = tag.read(base, record: 0, typeStart: 14, typeEnd: typeEnd, end: bytes.count,
                                       appleForm: appleForm)
                var text = "\(outcome)"
                if outcome == .read {
                    for index in 0..<tag.attributeCount {
                        let start = UnsafeRawPointer(buffer[index * 5 + 3]!) - base
                        let end = UnsafeRawPointer(buffer[index * 5 + 4]!) - base
                        text += " " + String(cString: buffer[index * 5]!) + "=" + "\(bytes[start..<end])"
                    }
                    text += " close \(tag.close) empty \(tag.isEmpty) lines \(tag.lineFeeds) last \(tag.lastLineFeed)"
                }
                return (text, tag.readInAppleFormLast)
            } }
        }
        let apple = reading(true)
        return (apple.0, reading(false).0, apple.1)
    }

    static let appleTags = [
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Anna’s iPhone\" sourceVersion=\"17.1\" "
            + "device=\"&lt;&lt;HKDevice: 0x2834&gt;, name:iPhone&gt;\" unit=\"count\" creationDate=\"2024-01-01 10:05:00 +0100\" "
            + "startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:05:00 +0100\" value=\"42\"/>\n",
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Mi Fit\" sourceVersion=\"202311291740\" unit=\"count\" "
            + "creationDate=\"2024-01-01 11:12:34 +0100\" startDate=\"2024-01-01 08:00:00 +0100\" "
            + "endDate=\"2024-01-01 08:09:59 +0100\" value=\"397\"/>\n </HealthData>\n",
        "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" "
            + "startDate=\"2024-01-01 00:03:41 +0100\" endDate=\"2024-01-01 00:03:41 +0100\" value=\"51\">\n"
            + "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n",
    ]

    /// The names Apple writes are each told apart, and a byte changed anywhere in one (or in its
    /// `="`) makes it no name of Apple's form.
    @Test func appleNamesAreToldApartByTheirWholeBytes() {
        let names: [(String, Bool)] = [("sourceName", true), ("sourceVersion", false), ("device", false), ("unit", true),
                                       ("creationDate", false), ("startDate", true), ("endDate", true), ("value", true)]
        var bits: UInt32 = 0
        func words(_ bytes: [UInt8]) -> (UInt64, UInt64) {
            let padded = bytes + [UInt8](repeating: UInt8(ascii: "x"), count: 16)
            return padded.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        }
        for (name, read) in names {
            let bytes = Array((name + "=\"").utf8)
            let (word0, word1) = words(bytes)
            guard let known = AppleRecordTag.appleName(word0, word1) else {
                Issue.record("\(name) not known")
                continue
            }
            #expect(known.length == bytes.count, "\(name)")
            #expect(known.read.map { String(cString: $0) } == (read ? name : nil), "\(name)")
            #expect(bits & known.bit == 0, "\(name)'s bit is its own")
            bits |= known.bit
            for position in bytes.indices {
                for replacement in [UInt8(ascii: "a"), UInt8(ascii: "X"), UInt8(ascii: "'"), UInt8(ascii: " "), 0] {
                    var changed = bytes
                    guard changed[position] != replacement else { continue }
                    changed[position] = replacement
                    let (changed0, changed1) = words(changed)
                    #expect(AppleRecordTag.appleName(changed0, changed1) == nil, "\(name), byte \(position)")
                }
            }
        }
        #expect(AppleRecordTag.appleName(words(Array("type=\"".utf8)).0, words(Array("type=\"".utf8)).1) == nil)
    }

    /// Apple's tags are read in Apple's form; tags changed byte by byte and cut anywhere are read
    /// exactly as the general reading reads them (a tag Apple's form cannot decide goes there).
    @Test func appleFormReadsWhatTheGeneralReadingReads() {
        for text in Self.appleTags {
            let both = Self.bothWays(Array(text.utf8))
            #expect(both?.tookAppleForm == true, "\(text)")
            #expect(both?.apple == both?.general, "\(text)")
            #expect(both?.apple.hasPrefix("read") == true)
        }
        let alphabet: [UInt8] = Array(" \"'<>/=&\n\t\u{1}aNVdeu".utf8) + [0xC3, 0xA4, 0xFF]
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var compared = 0
        var appleForm = 0
        for round in 0..<30_000 {
            var bytes = Array(Self.appleTags[round % Self.appleTags.count].utf8)
            // One to three bytes changed past the type (or none), then maybe cut.
            for _ in 0..<(round % 4) {
                let position = 50 + next() % (bytes.count - 50)
                switch next() % 3 {
                case 0: bytes[position] = alphabet[next() % alphabet.count]
                case 1: bytes.insert(alphabet[next() % alphabet.count], at: position)
                default: bytes.remove(at: position)
                }
            }
            if round % 5 == 4 { bytes = Array(bytes.prefix(40 + next() % (bytes.count - 40))) }
            guard let both = Self.bothWays(bytes) else { continue }
            #expect(both.apple == both.general, "\(String(decoding: bytes, as: UTF8.self))")
            compared += 1
            if both.tookAppleForm { appleForm += 1 }
        }
        #expect(compared > 29_000)
        #expect(appleForm > 8_000, "most tags changed in a value or not at all are still Apple's form")
        #expect(appleForm < compared - 8_000, "many changed tags are not")
    }

    // MARK: - Through the pieces

    /// Documents in Apple's form, with invalid records, non-ASCII sources, stray control
    /// characters, heart-rate records with children and workouts: read without libxml2 where
    /// plain, they give exactly what one parser of every record gives, samples, counts, and the
    /// invalid records' lines and columns, under both policies.
    @Test(arguments: 1...6)
    func plainDocumentsGiveWhatOneParserGives(seed: UInt64) {
        var generator = ExportGenerator(seed: seed)
        generator.plainRecords = true
        generator.elementPerLine = true
        generator.recordsWithChildren = true
        generator.invalidEvery = 23
        let bytes = Array(generator.document(elements: 400).utf8)
        var readDirectly = 0
        for metrics in [MetricSet.steps, MetricSet([.heartRate, .workouts]), MetricSet([.steps, .heartRate])] {
            for policy in [InvalidRecordPolicy.skip, .fail] {
                let expected = PieceParseTests.outcome { sink throws(ExportError) in
                    try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: policy,
                                                           metrics: metrics, progress: nil)
                }
                if policy == .skip {
                    #expect(expected.error == nil)
                    #expect((expected.statistics?.skipped.count ?? 0) > 3, "invalid records")
                }
                for pieceSize in [300, 2000] {
                    let counts = PieceCounts()
                    let got = PieceParseTests.outcome { sink throws(ExportError) in
                        try AppleHealthImport.readInPieces(MemoryStream(bytes, readSize: 700), into: sink,
                                                           invalidRecords: policy, workers: 2, pieceSize: pieceSize,
                                                           counts: counts, metrics: metrics, selectsRecords: true,
                                                           progress: nil)
                    }
                    #expect(got == expected, "seed \(seed), \(metrics), \(policy), pieces of \(pieceSize)")
                    readDirectly += counts.recordsReadDirectly
                }
            }
        }
        #expect(readDirectly > 200, "most records were read without libxml2")
    }

    /// Many invalid records on one long line: each is placed as libxml2 places it (the column of
    /// the line is counted on from the last record's, not from the line's start each time).
    @Test func invalidRecordsSharingALineArePlacedEachAtItsColumn() throws {
        var line = ""
        for index in 0..<60 {
            let value = index % 7 == 3 ? "x\(index)" : "\(index)"
            line += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Ph é\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" value=\"\(value)\"/>"
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"]
        for _ in 0..<6 { lines.append(line) }
        lines.append("</HealthData>")
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let expected = PieceParseTests.sequential(bytes, policy: .skip)
        #expect((expected.statistics?.skipped.count ?? 0) > 40)
        let counts = PieceCounts()
        let got = PieceParseTests.inPieces(bytes, policy: .skip, workers: 2, pieceSize: 100, counts: counts,
                                           selectsRecords: true)
        #expect(got == expected)
        #expect(counts.recordsReadDirectly > 200)
    }

    /// Columns count characters, as libxml2 does: an invalid record after a source name with
    /// characters of two, three and four bytes.
    @Test func anInvalidRecordIsPlacedInCharacters() throws {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"]
        for index in 0..<40 {
            let value = index == 30 ? "1O" : "\(index)"
            lines.append(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Ḿi Fit 𝄞 é\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" value=\"\(value)\"/>")
        }
        lines.append("</HealthData>")
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let expected = PieceParseTests.sequential(bytes, policy: .skip)
        let example = try #require(expected.statistics?.skipped.examples.first)
        #expect(example.line == 33)
        #expect(example.column == lines[32].count - 1, "the `/` of `/>`, in characters")
        #expect(lines[32].utf8.count > lines[32].count + 5, "bytes would say otherwise")
        let counts = PieceCounts()
        let got = PieceParseTests.inPieces(bytes, policy: .skip, workers: 2, pieceSize: 400, counts: counts,
                                           selectsRecords: true)
        #expect(got == expected)
        #expect(counts.recordsReadDirectly > 20)
    }
}
