import Foundation
import Testing
@testable import ExportParsers
import CMarkupScan
import HealthDays
import ExportInput

/// The record selector leaves out exactly the top-level records of types not asked for, keeps
/// their line breaks, checks their structure, and gives the same answer however its input is cut.
@Suite struct AppleRecordSelectorTests {
    static let steps = Array("HKQuantityTypeIdentifierStepCount".utf8)

    /// Selects `text` as one piece, as a parse worker does (`insideRoot`: a piece after the
    /// first). Returns the bytes handed on and the selector.
    static func select(_ text: String, insideRoot: Bool = false, wanted: [[UInt8]] = [steps],
                       leftOut: [StaticString] = []) -> (output: String, selector: AppleRecordSelector) {
        let (output, selector) = select(bytes: Array(text.utf8), insideRoot: insideRoot, wanted: wanted, leftOut: leftOut)
        return (String(decoding: output, as: UTF8.self), selector)
    }

    /// `select` of bytes that need not be UTF-8; `leavesOutRunsInC`: as the selector's.
    static func select(bytes input: [UInt8], insideRoot: Bool = false, wanted: [[UInt8]] = [steps],
                       leftOut: [StaticString] = [], leavesOutRunsInC: Bool = true) -> (output: [UInt8], selector: AppleRecordSelector) {
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, input.count), alignment: 1)
        defer { output.deallocate() }
        var selector = AppleRecordSelector(wantedTypes: wanted, insideRoot: insideRoot, otherElementsLeftOut: leftOut,
                                           leavesOutRunsInC: leavesOutRunsInC)
        let count = input.withUnsafeBytes { selector.select(piece: $0, into: output) }
        return (Array(output[0..<count]), selector)
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
        let (output, selector) = Self.select(Self.document)
        #expect(output == Self.expected)
        #expect(selector.failure == nil)
        #expect(selector.skippedRecords == 4, "heart rate, StepCountX, Step, sleep")
        #expect(output.filter { $0 == "\n" }.count == Self.document.filter { $0 == "\n" }.count)
    }

    /// Cut at the start of any line between two children of the root, as the reader cuts pieces:
    /// the second piece, selected from inside the root, adds up with the first to the whole.
    @Test func piecesCutBetweenChildrenGiveTheSameBytes() {
        let lines = Self.document.split(separator: "\n", omittingEmptySubsequences: false)
        // Lines 3, 4, 5, 11 to 14 and 17 to 20 (from 0) start a child of the root, a comment,
        // CDATA or the root's end tag.
        var cuts = 0
        for line in [3, 4, 5, 11, 12, 13, 14, 17, 18, 19, 20] {
            let first = lines[..<line].joined(separator: "\n") + "\n"
            let second = lines[line...].joined(separator: "\n")
            let (head, one) = Self.select(first)
            let (tail, two) = Self.select(second, insideRoot: true)
            #expect(one.failure == nil && two.failure == nil, "cut before line \(line)")
            #expect(head + tail == Self.expected, "cut before line \(line)")
            #expect(one.skippedRecords + two.skippedRecords == 4)
            cuts += 1
        }
        #expect(cuts == 11)
    }

    /// A tag that is not plain (a line feed, a tab, a control character in it) is read to its end
    /// by the scan of special bytes, not looked at again to its `>` after each of them: a record
    /// left out with 40,000 attributes on as many lines took 9 s for 9 MB before (each line
    /// scanned the rest of the tag again).
    @Test(arguments: ["\n", "\t", "\r"])
    func aTagOfManyLinesIsScannedToItsEndOnce(_ separator: String) {
        let attributes = (0..<2_000).map { "a\($0)=\"b\"" }.joined(separator: separator)
        let text = " <Record type=\"HKQuantityTypeIdentifierHeartRate\" " + attributes + "/>\n"
            + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" a=\"1\"\(separator)b=\"2\">\n  <M k=\"1\"\(separator)v=\"2\"/>\n </Record>\n"
        let (output, selector) = Self.select(text, insideRoot: true)
        #expect(selector.failure == nil)
        #expect(selector.skippedRecords == 2)
        #expect(selector.tagsNotPlain == 3, "each tag that is not plain is scanned to its end once")
        let lineFeeds = text.utf8.filter { $0 == 0x0A }.count
        #expect(output.utf8.allSatisfy { $0 == 0x20 || $0 == 0x0A }, "only the indentation and line feeds pass")
        #expect(output.utf8.filter { $0 == 0x0A }.count == lineFeeds)
    }

    @Test func theFastScanStopsAtEveryByteThatMatters() {
        // Both quotes, `<`, `>`, and every byte below 0x20 (line feeds, control characters).
        let specials: [UInt8] = [0x22, 0x27, 0x3C, 0x3E] + Array(0..<0x20)
        #expect(AppleRecordSelector.specialBytesForTests == specials.reduce(UInt64(0)) { $0 | (1 << UInt64($1)) })
        // Against a byte-by-byte search, from every start, in blocks of 64 and in the tail.
        var state: UInt64 = 12345
        let alphabet: [UInt8] = Array("ab\"'<>/\n= \t&".utf8) + [0x00, 0x0B, 0x1F, 0x20, 0x80, 0xFF, 0x22 ^ 0x80]
        let bytes: [UInt8] = (0..<300).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 61 == 0 ? alphabet[Int(state >> 33) % alphabet.count] : UInt8(ascii: "x")
        }
        bytes.withUnsafeBytes { raw in
            for start in 0..<bytes.count {
                var block = Int.min
                var bits: UInt64 = 0
                var at = start
                while true {
                    let found = AppleRecordSelector.nextSpecial(raw.baseAddress!, from: at, to: bytes.count, block: &block, bits: &bits)
                    let expected = bytes[at...].firstIndex { specials.contains($0) } ?? bytes.count
                    #expect(found == expected, "from \(at)")
                    guard found < bytes.count, found == expected else { break }
                    at = found + 1
                }
            }
        }
    }

    /// `plainTagEnd` answers only where reading the tag byte by byte (quotes of both kinds, no
    /// `<`, no line feed) reaches the same `>`; and it does answer for Apple's tags.
    @Test func aPlainTagEndIsWhereReadingByteByByteEnds() {
        func byteByByte(_ bytes: [UInt8], from start: Int) -> Int? {
            var quote: UInt8 = 0
            for index in start..<bytes.count {
                let byte = bytes[index]
                if byte == 0x0A || byte == UInt8(ascii: "<") { return nil }
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return index
                }
            }
            return nil
        }
        let apple = Array(#" sourceName="Anna’s iPhone" sourceVersion="17.2" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone&gt;" unit="count" creationDate="2024-01-12 07:01:35 +0100" value="59"/>"#.utf8)
        let answer = apple.withUnsafeBytes { AppleRecordSelector.plainTagEnd($0.baseAddress!, from: 0, to: apple.count) }
        #expect(answer == apple.count - 1)
        var state: UInt64 = 777
        let alphabet: [UInt8] = Array("ab\"'<>/\n= ".utf8)
        var answered = 0
        for round in 0..<3000 {
            let length = 1 + round % 90
            let bytes: [UInt8] = (0..<length).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return state >> 60 < 3 ? alphabet[Int(state >> 33) % alphabet.count] : UInt8(ascii: "x")
            }
            for start in [0, length / 3] {
                let got = bytes.withUnsafeBytes { AppleRecordSelector.plainTagEnd($0.baseAddress!, from: start, to: length) }
                guard let got else { continue }
                answered += 1
                #expect(got == byteByByte(bytes, from: start), "\(String(decoding: bytes, as: UTF8.self)) from \(start)")
            }
        }
        #expect(answered > 300)
        // Long tags with few special bytes: the four-vector step, the sixteen-byte step and the
        // last load that overlaps both, with a special byte in every lane position.
        var long = 0
        for round in 0..<3000 {
            let length = 17 + round % 200
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
            for _ in 0..<(round % 4) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(state >> 33) % length] = alphabet[Int(state >> 20) % alphabet.count]
            }
            bytes[length - 1] = UInt8(ascii: ">")
            for start in [0, round % 16] {
                let got = bytes.withUnsafeBytes { AppleRecordSelector.plainTagEnd($0.baseAddress!, from: start, to: length) }
                #expect(got == byteByByte(bytes, from: start) || got == nil, "\(String(decoding: bytes, as: UTF8.self)) from \(start)")
                if got == nil && round % 4 == 0 { Issue.record("a tag of x's is plain: \(length) from \(start)") }
                if got != nil && length - start > 64 { long += 1 }
            }
        }
        #expect(long > 1000)
    }

    /// CMarkupScan picks its AVX2 scans exactly when the processor has AVX2 (with BMI1 and
    /// POPCNT), as the kernel lists the processor's flags.
    @Test func theAVX2ScansAreChosenWhenTheProcessorHasAVX2() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map { Set($0.split(separator: " ")) } ?? []
        #if arch(x86_64)
        let expected = flags.contains("avx2") && flags.contains("bmi1") && flags.contains("popcnt")
        #else
        let expected = false
        #endif
        #expect((stepimport_markup_scan_uses_avx2() != 0) == expected, "flags: \(flags.sorted().joined(separator: " "))")
    }

    /// The bits of 64 bytes' special bytes: CMarkupScan's (as chosen, and SSE2 forced) and the
    /// Swift scan's agree with a byte-by-byte test, with every byte value in every lane.
    @Test func theCScanAndTheSwiftScanOfSpecialBytesAgree() {
        var state: UInt64 = 99
        for round in 0..<2048 {
            var block = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
            for _ in 0..<(round % 9) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                block[Int(state >> 58)] = UInt8(truncatingIfNeeded: state >> 20)
            }
            // Every byte value once in every lane over the rounds.
            block[round % 64] = UInt8(truncatingIfNeeded: round / 8)
            let expected = block.indices.reduce(UInt64(0)) { bits, index in
                let byte = block[index]
                let special = byte < 0x20 || byte == 0x22 || byte == 0x27 || byte == 0x3C || byte == 0x3E
                return special ? bits | 1 << UInt64(index) : bits
            }
            block.withUnsafeBytes { raw in
                #expect(AppleRecordSelector.specials64(raw.baseAddress!) == expected, "\(block)")
                #expect(AppleRecordSelector.specials64BySIMD16(raw.baseAddress!) == expected, "\(block)")
                #if arch(x86_64)
                #expect(stepimport_special_bits_sse2(raw.baseAddress!.assumingMemoryBound(to: UInt8.self)) == expected, "\(block)")
                #endif
            }
        }
    }

    /// The end of a record's type: CMarkupScan's scan (chosen and SSE2 forced) and the Swift
    /// scan find the same first `"`, `&`, `<` or byte below 0x20, in the same steps of sixteen.
    @Test func theCScanAndTheSwiftScanOfATypeAgree() {
        var state: UInt64 = 2024
        let stops: [UInt8] = [0x22, 0x26, 0x3C, 0x00, 0x0A, 0x1F]
        var found = 0
        for round in 0..<3000 {
            let length = 1 + round % 120
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            for _ in 0..<(round % 3) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(state >> 33) % length] = stops[Int(state >> 20) % stops.count]
            }
            bytes.withUnsafeBytes { raw in
                for start in Set([0, round % 17]) where start < length {
                    let swift = AppleRecordSelector.typeStopBySIMD16(raw.baseAddress!, from: start, to: length)
                    #expect(AppleRecordSelector.typeStop(raw.baseAddress!, from: start, to: length) == swift, "\(bytes) from \(start)")
                    #if arch(x86_64)
                    let sse2 = stepimport_type_stop_sse2(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), start, length)
                    #expect((sse2 < 0 ? nil : sse2) == swift, "SSE2: \(bytes) from \(start)")
                    #endif
                    if swift != nil { found += 1 }
                }
            }
        }
        #expect(found > 1000)
    }

    /// On x86-64 `plainTagEnd` is CMarkupScan's scan (AVX2 where the processor has it, else
    /// SSE2); elsewhere `plainTagEndBySIMD16`. All three give the same answer for every start of
    /// random tags of every length up to 300 bytes, and of tags without a `>`.
    @Test func theCScanAndTheSwiftScanOfATagAgree() {
        var state: UInt64 = 4242
        let alphabet: [UInt8] = Array("ab\"'<>/\n= \t&".utf8) + [0x00, 0x0B, 0x1F, 0x20, 0x7F, 0x80, 0xFF]
        var answered = 0
        for round in 0..<1500 {
            let length = 1 + round % 300
            // Mostly plain bytes, a special one now and then, and a `>` near the end most times.
            var bytes: [UInt8] = (0..<length).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return state >> 59 < 1 ? alphabet[Int(state >> 33) % alphabet.count] : UInt8(ascii: "x")
            }
            if round % 5 != 0 { bytes[length - 1 - round % min(length, 7)] = UInt8(ascii: ">") }
            if round % 3 == 0 { bytes[(round * 7) % length] = UInt8(ascii: "\"") }
            bytes.withUnsafeBytes { raw in
                for start in Set([0, 1, length / 2, max(0, length - 40)]) where start < length {
                    let c = AppleRecordSelector.plainTagEnd(raw.baseAddress!, from: start, to: length)
                    let swift = AppleRecordSelector.plainTagEndBySIMD16(raw.baseAddress!, from: start, to: length)
                    #expect(c == swift, "\(bytes) from \(start)")
                    #if arch(x86_64)
                    let sse2 = stepimport_plain_tag_end_sse2(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), start, length)
                    #expect((sse2 < 0 ? nil : sse2) == swift, "SSE2: \(bytes) from \(start)")
                    #endif
                    if c != nil { answered += 1 }
                }
            }
        }
        #expect(answered > 1000)
    }

    // MARK: - Runs left out in one call

    /// What a selection gives, all of it that a reading of records left out can change.
    struct Reading: Equatable, CustomStringConvertible {
        var output: [UInt8]
        var skippedRecords: Int
        var lineFeedsPassed: Int
        var nestedStepRecords: Int
        var passedOnlyBlanks: Bool
        var tagsNotPlain: Int
        var sawControl: Bool
        var failure: String?

        var description: String {
            "skipped \(skippedRecords), line feeds \(lineFeedsPassed), nested \(nestedStepRecords), blanks "
                + "\(passedOnlyBlanks), not plain \(tagsNotPlain), control \(sawControl), failure \(failure ?? "none"), "
                + "output \(String(decoding: output, as: UTF8.self).debugDescription)"
        }
    }

    /// `bytes` selected with runs of records left out in one C call and byte by byte, and how
    /// many records the C call left out.
    static func bothReadings(_ bytes: [UInt8], insideRoot: Bool, wanted: [[UInt8]]) -> (inRuns: Reading, byByte: Reading, leftOutInRuns: Int) {
        var readings: [Reading] = []
        var leftOutInRuns = 0
        for inC in [true, false] {
            let (output, selector) = Self.select(bytes: bytes, insideRoot: insideRoot, wanted: wanted, leavesOutRunsInC: inC)
            readings.append(Reading(output: output, skippedRecords: selector.skippedRecords,
                                    lineFeedsPassed: selector.lineFeedsPassed, nestedStepRecords: selector.nestedStepRecords,
                                    passedOnlyBlanks: selector.passedOnlyBlanks, tagsNotPlain: selector.tagsNotPlain,
                                    sawControl: selector.sawControl, failure: selector.failure.map { "\($0)" }))
            if inC { leftOutInRuns = selector.recordsLeftOutInRuns }
        }
        return (readings[0], readings[1], leftOutInRuns)
    }

    /// Children of the root as Apple writes them, records of other types among step records:
    /// empty, with a metadata entry, with a beat list two deep, with a space before its end tag's
    /// `>`; and one holding a step record (which the C call leaves to the byte reading, which
    /// counts it).
    static let appleShapedChildren = [
        #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Anna’s Watch" unit="count/min" startDate="2024-01-02 03:47:32 +0100" endDate="2024-01-02 03:47:32 +0100" value="52">"#,
        #"  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>"#,
        #" </Record>"#,
        #" <Record type="HKQuantityTypeIdentifierBasalEnergyBurned" sourceName="Anna’s Watch" unit="kcal" value="19.362"/>"#,
        #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" startDate="2024-01-02 04:00:00 +0100" endDate="2024-01-02 04:10:00 +0100" value="310"/>"#,
        #" <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Anna’s Watch" unit="ms" value="41">"#,
        #"  <HeartRateVariabilityMetadataList>"#,
        #"   <InstantaneousBeatsPerMinute bpm="61" time="4:01:10.21 AM"/>"#,
        #"   <InstantaneousBeatsPerMinute bpm="63" time="4:01:11.20 AM"/>"#,
        #"  </HeartRateVariabilityMetadataList>"#,
        #" </Record>"#,
        #" <Record type="HKQuantityTypeIdentifierStepCounts" value="7"/>"#,
        "\t<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>",
        #" <Record type="HKQuantityTypeIdentifierHeartRate" value="58">"#,
        #"  <MetadataEntry key="k" value="v"/>"#,
        #" </Record >"#,
        #" <Record type="HKCorrelationTypeIdentifierX" value="1">"#,
        #"  <Record type="HKQuantityTypeIdentifierStepCount" value="3"/>"#,
        #" </Record>"#,
    ]

    /// The records left out in one C call (`stepimport_skip_records`) are left out exactly as the
    /// byte-by-byte reading leaves them out (the same bytes written, records, line feeds and
    /// nested step records counted, the same failure, control character or hand-over), in Apple's
    /// shapes and in the generator's, as a whole document and as a piece inside the root, with
    /// each of the bytes that matter put in, and bytes taken out, at every third byte. Where it
    /// cannot tell, it leaves the record to that reading; undamaged, it leaves out all of Apple's
    /// shapes but the one holding a step record, and some of the generator's.
    @Test(arguments: 0..<4)
    func aRunLeftOutInOneCallIsWhatTheByteReadingLeavesOut(variant: Int) {
        let heartRate = Array("HKQuantityTypeIdentifierHeartRate".utf8)
        let body: String
        if variant < 2 {
            body = Self.appleShapedChildren.joined(separator: "\n") + "\n"
        } else {
            var generator = ExportGenerator(seed: UInt64(variant))
            generator.recordsWithChildren = true
            generator.elementPerLine = true
            generator.controlsInSources = false
            let document = generator.document(elements: 12)
            let rootEnd = document.range(of: "<HealthData locale=\"en_US\">")!.upperBound
            body = String(document[rootEnd...].dropLast("</HealthData>\n".utf8.count))
        }
        let insideRoot = variant % 2 == 1
        let text = insideRoot ? body : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n"
        let bytes = Array(text.utf8)
        let wanted = variant == 0 ? [heartRate, Self.steps] : [Self.steps]
        let whole = Self.bothReadings(bytes, insideRoot: insideRoot, wanted: wanted)
        #expect(whole.inRuns == whole.byByte)
        #expect(whole.inRuns.failure == nil && !whole.inRuns.sawControl)
        #if arch(x86_64)
        if variant < 2 {
            #expect(whole.leftOutInRuns == whole.inRuns.skippedRecords - 1, "all of Apple's shapes in the C call but one")
            #expect(whole.inRuns.nestedStepRecords == 1)
        }
        #expect(whole.leftOutInRuns > 0)
        #else
        #expect(whole.leftOutInRuns == 0)
        #endif
        let inserted: [[UInt8]] = ["<", ">", "\"", "'", "/", "\n", "\t", "\r", "R", "&", "=", "\u{01}"].map { Array($0.utf8) }
        var differentByDamage = 0
        for position in stride(from: 0, to: bytes.count, by: 3) {
            var damaged: [[UInt8]] = inserted.map { byte in
                var copy = bytes
                copy.insert(contentsOf: byte, at: position)
                return copy
            }
            var removed = bytes
            removed.remove(at: position)
            damaged.append(removed)
            damaged.append(Array(bytes[..<position]))
            for damagedBytes in damaged {
                let readings = Self.bothReadings(damagedBytes, insideRoot: insideRoot, wanted: wanted)
                #expect(readings.inRuns == readings.byByte,
                        "variant \(variant) damaged at \(position): \(String(decoding: damagedBytes, as: UTF8.self).debugDescription)")
                if readings.inRuns != whole.inRuns { differentByDamage += 1 }
            }
        }
        #expect(differentByDamage > bytes.count / 3, "the damage changes what is read")
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
        let (output, selector) = Self.select(text, wanted: wanted)
        #expect(output == "<HealthData>\n\n\n<Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"3\"/>\n</HealthData>")
        #expect(selector.skippedRecords == 2)
    }

    @Test func nestedStepRecordsInARecordLeftOutAreCounted() {
        let text = """
            <HealthData>
            <Record type="X"><Record type="HKQuantityTypeIdentifierStepCount" value="1"/></Record>
            </HealthData>
            """
        #expect(Self.select(text).selector.nestedStepRecords == 1)
        #expect(Self.select(text, wanted: [Array("X2".utf8)]).selector.nestedStepRecords == 0,
                "steps not asked for: not counted (the parser does not count them either)")
    }

    // MARK: - Structure

    static func failure(_ text: String) -> ParseFailure? {
        Self.select(text).selector.failure
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
            let failure = Self.failure(cutText)
            #expect(failure?.message.contains("the file is truncated") == true, "cut at \(cut)")
            let line = 1 + bytes[0..<cut].filter { $0 == 0x0A }.count
            #expect(failure?.position.line == line, "the end of the file")
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
        let failure = Self.failure(text)
        #expect(failure?.message.contains(problem) == true, "\(record): \(String(describing: failure))")
        #expect(failure?.kind == .malformed)
        #expect((failure?.position.line ?? 0) >= 3)
    }

    @Test func anUnclosedQuoteIsFoundAtTheNextTag() {
        let text = "<HealthData>\n <Record type=\"A\" value=\"1/>\n <Record type=\"B\"/>\n</HealthData>\n"
        let failure = Self.failure(text)
        #expect(failure?.position.line == 3)
        #expect(failure?.position.column == 2, "the `<` of the next record, column 2")
    }

    // MARK: - Other elements left out

    static let otherElements = """
         <ActivitySummary dateComponents="2024-01-01" activeEnergyBurned="1"/>
         <Workout workoutActivityType="W" note='a > b'>
          <MetadataEntry key="k" value="v"/>
          <Record type="HKQuantityTypeIdentifierStepCount" value="3"/>
         </Workout>
         <Record type="HKQuantityTypeIdentifierStepCount" value="5"/>
         <ActivitySummaryX a="1"/>
         <Workouts/>

        """

    @Test func leavesOutActivitySummariesAndWorkoutsUnlessWorkoutsAreAsked() {
        let steps = Self.select(Self.otherElements, insideRoot: true,
                                leftOut: AppleRecordSelector.elementsLeftOut(for: .steps))
        #expect(steps.output == " \n \n\n\n\n" + """
             <Record type="HKQuantityTypeIdentifierStepCount" value="5"/>
             <ActivitySummaryX a="1"/>
             <Workouts/>

            """)
        #expect(steps.selector.failure == nil)
        #expect(steps.selector.skippedRecords == 0, "not records: not counted as records")
        #expect(steps.selector.nestedStepRecords == 1, "the step record inside the workout, as libxml2 counts it")

        let workouts = Self.select(Self.otherElements, insideRoot: true,
                                   leftOut: AppleRecordSelector.elementsLeftOut(for: MetricSet([.steps, .workouts])))
        #expect(workouts.output.contains("<Workout workoutActivityType=\"W\" note='a > b'>"))
        #expect(!workouts.output.contains("ActivitySummary dateComponents"))
        #expect(workouts.selector.nestedStepRecords == 0, "libxml2 counts the nested record of the workout that passes")
    }

    @Test func aStructureErrorInAnElementLeftOutNamesIt() {
        let (_, selector) = Self.select(" <ActivitySummary a=\"1\" <b/>\n", insideRoot: true,
                                        leftOut: AppleRecordSelector.elementsLeftOut(for: .steps))
        #expect(selector.failure?.message.contains("in a <ActivitySummary> read for its structure only") == true,
                "\(String(describing: selector.failure))")
    }

    /// A worker gives libxml2 only the frame of a piece whose selection passed nothing but white
    /// space; that needs `passedOnlyBlanks` false for any other byte, however short its span.
    @Test(arguments: [
        (" <ActivitySummary a=\"1\"/>\n <Record type=\"HKQuantityTypeIdentifierHeartRate\" v=\"1\"/>\n\t \n", true, 3),
        (String(repeating: " ", count: 40) + "\n" + String(repeating: "\t", count: 20), true, 1),
        (" <Me/>\n", false, 1),
        (" x\n", false, 1),
        (" <!-- c -->\n", false, 1),
        (String(repeating: " ", count: 40) + "text", false, 0),
    ])
    func passesOnlyBlanksWhenNothingElsePasses(text: String, blank: Bool, lineFeeds: Int) {
        let (output, selector) = Self.select(text, insideRoot: true, leftOut: AppleRecordSelector.elementsLeftOut(for: .steps))
        #expect(selector.failure == nil)
        #expect(selector.passedOnlyBlanks == blank, "\(output.debugDescription)")
        #expect(selector.lineFeedsPassed == lineFeeds)
        #expect(output.filter { $0 == "\n" }.count == lineFeeds, "each line feed read is written")
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

    /// Damage anywhere, in records read or left out: an error, when there is one, is the one a
    /// single parser of every record reports (a piece the selection rejects is parsed whole), and
    /// a document read without an error gives what that parser gives, or (damage libxml2 alone
    /// would see, in a record left out) what it gives for the same records.
    @Test(arguments: ["truncate", "<", "\"", "&", "</Record>", "<!--", "'"])
    func damageAnywhereGivesOneParsersErrorOrNone(_ damage: String) {
        var generator = ExportGenerator(seed: 11)
        generator.recordsWithChildren = true
        generator.elementPerLine = true
        let bytes = Array(generator.document(elements: 40).utf8)
        let whole = PieceParseTests.inPieces(bytes, policy: .skip, workers: 2, pieceSize: 150, selectsRecords: true)
        #expect(whole == PieceParseTests.sequential(bytes, policy: .skip))
        let positions = PieceParseTests.damagePositions(in: bytes, every: 13)
        var errors = 0
        var accepted = 0
        for position in positions {
            let damaged = PieceParseTests.damage(bytes, with: damage, at: position)
            let expected = PieceParseTests.sequential(damaged, policy: .skip)
            let got = PieceParseTests.inPieces(damaged, policy: .skip, workers: 2, pieceSize: 150, readSize: 333,
                                               selectsRecords: true)
            if let error = got.error {
                errors += 1
                #expect(error == expected.error, "\(damage) at \(position)")
            } else if expected.error == nil {
                #expect(got == expected, "\(damage) at \(position)")
            } else {
                accepted += 1
                // What libxml2 alone would see, in a record left out (a quote in its type, `--` in
                // a comment): that record at most is missing.
                var rest = whole.entries[...]
                var inOrder = true
                for entry in got.entries {
                    guard let found = rest.firstIndex(of: entry) else {
                        inOrder = false
                        break
                    }
                    rest = rest[(found + 1)...]
                }
                let isPart = inOrder && got.entries.count >= whole.entries.count - 1
                #expect(isPart, "\(damage) at \(position): only the damaged record may be missing")
            }
        }
        #expect(errors > positions.count / 3, "most damage is an error")
        if damage == "truncate" || damage == "<" {
            #expect(accepted == 0, "structure damage is always found")
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
