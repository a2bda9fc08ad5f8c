import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// Parsing an Apple export in pieces on worker threads gives exactly what one parser gives:
/// the same samples in the same order, the same counts, and the same first error at the same line
/// and column.
@Suite struct PieceParseTests {
    /// Everything an import hands back or throws, for comparing two ways of reading.
    struct Outcome: Equatable, CustomStringConvertible {
        var entries: [SampleCollector.Entry] = []
        var statistics: AppleParseStatistics?
        var bytesRead: Int64?
        var droppedControlCharacters: Int?
        var skippedDoctype: Bool?
        var error: ExportError?

        var description: String {
            "\(entries.count) samples, \(statistics.map { "\($0)" } ?? "-"), error: \(error.map { "\($0)" } ?? "none")"
        }
    }

    static func outcome(_ read: (SampleCollector) throws(ExportError) -> AppleImportSummary) -> Outcome {
        let collector = SampleCollector()
        var outcome = Outcome()
        do {
            let summary = try read(collector)
            outcome.statistics = summary.parse
            outcome.bytesRead = summary.bytesRead
            outcome.droppedControlCharacters = summary.droppedControlCharacters
            outcome.skippedDoctype = summary.skippedDoctype
        } catch {
            outcome.error = error
        }
        outcome.entries = collector.entries
        return outcome
    }

    static func sequential(_ bytes: [UInt8], policy: InvalidRecordPolicy = .skip, metrics: MetricSet = .steps) -> Outcome {
        outcome { sink throws(ExportError) in
            try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: policy, metrics: metrics,
                                                   progress: nil)
        }
    }

    static func inPieces(_ bytes: [UInt8], policy: InvalidRecordPolicy = .skip, workers: Int, pieceSize: Int,
                         readSize: Int = 1 << 20, counts: PieceCounts? = nil, selectsRecords: Bool = false,
                         metrics: MetricSet = .steps) -> Outcome {
        outcome { sink throws(ExportError) in
            try AppleHealthImport.readInPieces(MemoryStream(bytes, readSize: readSize), into: sink, invalidRecords: policy,
                                               workers: workers, pieceSize: pieceSize, counts: counts,
                                               metrics: metrics, selectsRecords: selectsRecords, progress: nil)
        }
    }

    // MARK: - Generated documents

    @Test(arguments: 1...12)
    func generatedDocumentsGiveTheSameResult(seed: UInt64) {
        var generator = ExportGenerator(seed: seed)
        let bytes = Array(generator.document(elements: 300).utf8)
        let expected = Self.sequential(bytes)
        #expect(expected.error == nil, "the generated document is well-formed")
        #expect(expected.entries.count > 50)
        for pieceSize in [1, 200, 3000, 1 << 20] {
            for workers in [1, 2, 3] {
                let counts = PieceCounts()
                let got = Self.inPieces(bytes, workers: workers, pieceSize: pieceSize, readSize: 1000, counts: counts)
                #expect(got == expected, "seed \(seed), pieces of \(pieceSize), \(workers) workers")
                if pieceSize == 200 {
                    #expect(counts.byWorkers > 20, "the workers did the parsing")
                    #expect(counts.inOrder == 0)
                }
            }
        }
    }

    /// Once the first pieces have shown the root's children indented alike, pieces are cut where a
    /// line begins like one (`TopLevelBoundaryScanner.childLine`); a line indented like them that
    /// is not one (a record's child here) makes a piece fail, and the rest is parsed in order.
    @Test func cutsAtIndentedLinesGiveTheSameResult() {
        var wrongGuesses = 0
        for seed in UInt64(1)...12 {
            for withChildren in [false, true] {
                var generator = ExportGenerator(seed: seed)
                generator.appleIndent = true
                generator.plainRecords = true
                generator.recordsWithChildren = withChildren
                let bytes = Array(generator.document(elements: 400).utf8)
                let expected = Self.sequential(bytes)
                #expect(expected.error == nil, "the generated document is well-formed")
                for (pieceSize, workers) in [(200, 2), (1000, 1), (3000, 2)] {
                    let counts = PieceCounts()
                    let got = Self.inPieces(bytes, workers: workers, pieceSize: pieceSize, readSize: 700, counts: counts,
                                            selectsRecords: true)
                    #expect(got == expected, "seed \(seed), children \(withChildren), pieces of \(pieceSize)")
                    if !withChildren {
                        #expect(counts.cutsAtLines > 3, "seed \(seed): cut at lines")
                        #expect(counts.inOrder == 0, "seed \(seed): every guess was right")
                    } else if counts.cutsAtLines > 0 && counts.inOrder > 0 {
                        wrongGuesses += 1
                    }
                }
            }
        }
        #expect(wrongGuesses > 0, "some cut fell between a record's children")
    }

    @Test func invalidRecordsStopAtTheSameRecordAsOneParser() {
        var generator = ExportGenerator(seed: 99)
        generator.invalidEvery = 40
        let bytes = Array(generator.document(elements: 300).utf8)
        let expected = Self.sequential(bytes, policy: .fail)
        guard case .invalidRecord(_, let position, _, _) = expected.error else {
            Issue.record("expected an invalid record, got \(expected)")
            return
        }
        #expect(position.line > 20)
        #expect(position.byteOffset != nil, "an XML failure knows its byte offset")
        let counts = PieceCounts()
        #expect(Self.inPieces(bytes, policy: .fail, workers: 2, pieceSize: 300, counts: counts) == expected)
        #expect(counts.byWorkers > 3, "the error is in a later piece")
        // Skipped instead, every example keeps its line and column.
        let skipped = Self.sequential(bytes, policy: .skip)
        #expect((skipped.statistics?.skipped.count ?? 0) > 3)
        #expect(Self.inPieces(bytes, policy: .skip, workers: 2, pieceSize: 300) == skipped)
    }

    /// A document with a DOCTYPE and stray control characters, whose record `bad` (0-based) holds `value`.
    static func documentWithDrops(records: Int, bad: Int, value: String) -> [UInt8] {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!DOCTYPE HealthData [", "<!ATTLIST x", "]>",
                     "<HealthData locale=\"en_US\">"]
        for index in 0..<records {
            let written = index == bad ? value : "\(index)"
            lines.append(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Ph\u{0B}one\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" value=\"\(written)\"/>")
        }
        lines.append("</HealthData>")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// The line (1-based) that byte `offset` of `bytes` is on.
    static func line(of offset: Int64, in bytes: [UInt8]) -> Int {
        bytes[..<Int(offset)].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    @Test func failuresCarryTheirByteOffsetInTheFileOnEveryPath() throws {
        let bytes = Self.documentWithDrops(records: 80, bad: 61, value: "1O")
        let one = Self.sequential(bytes, policy: .fail)
        guard case .invalidRecord(_, let position, _, _) = one.error, let offset = position.byteOffset else {
            Issue.record("expected an invalid record with an offset, got \(one)")
            return
        }
        // libxml2 stands at the `/` of the bad record's `/>`, 61 records of dropped vertical tabs on.
        #expect(position.line == 67)
        #expect(bytes[Int(offset)] == UInt8(ascii: "/") && bytes[Int(offset) + 1] == UInt8(ascii: ">"))
        #expect(Self.line(of: offset, in: bytes) == position.line)
        for pieceSize in [100, 700, 5000] {
            #expect(Self.inPieces(bytes, policy: .fail, workers: 2, pieceSize: pieceSize, readSize: 300) == one,
                    "pieces of \(pieceSize) place it at the same byte")
        }

        // Malformed XML (an unescaped `<` in a value) is placed the same way.
        let broken = Self.documentWithDrops(records: 80, bad: 70, value: "<")
        let malformed = Self.sequential(broken, policy: .fail)
        guard case .malformed(_, let place, _) = malformed.error, let at = place.byteOffset else {
            Issue.record("expected malformed XML with an offset, got \(malformed)")
            return
        }
        #expect(place.line == 76)
        #expect(Self.line(of: at, in: broken) == 76)
        #expect(Self.inPieces(broken, policy: .fail, workers: 2, pieceSize: 700, readSize: 300) == malformed)
    }

    @Test func anErrorInALaterPieceNamesItsLineInTheFile() throws {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"]
        for index in 0..<60 {
            let value = index == 47 ? "1O" : "\(index)"
            lines.append(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" startDate=\"2024-01-01 10:00:00 +0100\" endDate=\"2024-01-01 10:01:00 +0100\" value=\"\(value)\"/>")
        }
        lines.append("</HealthData>")
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let counts = PieceCounts()
        let got = Self.inPieces(bytes, policy: .fail, workers: 2, pieceSize: 500, counts: counts)
        guard case .invalidRecord(_, let position, let problem, _) = got.error else {
            Issue.record("expected an invalid record, got \(got)")
            return
        }
        #expect(position.line == 50, "record 47 is on line 3 + 47")
        #expect(position.column == lines[49].utf8.count - 1, "libxml2 is at the `/` of `/>`")
        // Lines 1-49 and their line breaks come before line 50; the `/` is its column - 1th byte.
        let lineStart = lines[0..<49].reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(position.byteOffset == Int64(lineStart + position.column - 1), "the offset of that `/` in the file")
        #expect(got == Self.sequential(bytes, policy: .fail), "the same place as one parser")
        #expect(problem.hasPrefix("value \"1O\""))
        #expect(got.entries.count == 47)
        #expect(counts.byWorkers > 10)
        #expect(got == Self.sequential(bytes, policy: .fail))
    }

    /// Every `step`th offset of `bytes`, and its last.
    static func damagePositions(in bytes: [UInt8], every step: Int) -> [Int] {
        Array(stride(from: 0, to: bytes.count, by: step)) + [bytes.count - 1]
    }

    /// `bytes` cut at `position` ("truncate") or with `damage` put in there.
    static func damage(_ bytes: [UInt8], with damage: String, at position: Int) -> [UInt8] {
        var damaged = bytes
        if damage == "truncate" {
            damaged.removeLast(bytes.count - position)
        } else {
            damaged.insert(contentsOf: Array(damage.utf8), at: position)
        }
        return damaged
    }

    /// Damage a well-formed document at many places: truncated, a stray `<`, quote or `&`, an early
    /// `</HealthData>`. Every error must be the one a single parser reports.
    @Test(arguments: ["truncate", "<", "\"", "&", "</HealthData>", "<!--", "]]>"])
    func damageAnywhereGivesTheSameError(_ damage: String) {
        var generator = ExportGenerator(seed: 7)
        let bytes = Array(generator.document(elements: 40).utf8)
        let positions = Self.damagePositions(in: bytes, every: 17)
        var errors = 0
        for position in positions {
            let damaged = Self.damage(bytes, with: damage, at: position)
            for policy in [InvalidRecordPolicy.fail, .skip] {
                let expected = Self.sequential(damaged, policy: policy)
                if expected.error != nil { errors += 1 }
                let got = Self.inPieces(damaged, policy: policy, workers: 2, pieceSize: 150, readSize: 333)
                #expect(got == expected, "\(damage) at \(position)")
            }
        }
        #expect(errors > positions.count / 2, "most damage is an error")
    }

    /// The reader leaves the body's control characters in the pieces: wherever one stands (in a
    /// record read, left out or passed, a tag, a value, a comment, between records), the
    /// selection or the check before a whole parse notices it, and the worker drops it as the
    /// prefilter does on one thread. The same samples, counts, drops and errors.
    @Test(arguments: ["\u{0B}", "\u{01}\u{1F}"])
    func aControlCharacterAnywhereIsDroppedAsOneParserDrops(_ control: String) {
        var fellBack = 0
        var baselines: [Int] = []
        for (seed, metrics) in [(UInt64(5), MetricSet.steps), (6, MetricSet.all)] {
            var generator = ExportGenerator(seed: seed)
            generator.appleIndent = true
            generator.plainRecords = true
            generator.recordsWithChildren = true
            generator.controlsInSources = false
            let bytes = Array(generator.document(elements: 40).utf8)
            let base = PieceCounts()
            _ = Self.inPieces(bytes, policy: .skip, workers: 2, pieceSize: 150, readSize: 333, counts: base, selectsRecords: true, metrics: metrics)
            baselines.append(base.inOrder)
            for position in Self.damagePositions(in: bytes, every: 7) {
                let damaged = Self.damage(bytes, with: control, at: position)
                // The generated heart-rate records have no unit: skipped with every metric.
                let policy: InvalidRecordPolicy = metrics == .steps ? .fail : .skip
                let expected = Self.sequential(damaged, policy: policy, metrics: metrics)
                #expect(expected.error == nil && expected.droppedControlCharacters == control.utf8.count,
                        "\(Array(control.utf8)) at \(position) is dropped")
                let counts = PieceCounts()
                let got = Self.inPieces(damaged, policy: policy, workers: 2, pieceSize: 150, readSize: 333, counts: counts,
                                        selectsRecords: true, metrics: metrics)
                #expect(got == expected, "\(Array(control.utf8)) at \(position), \(metrics)")
                if counts.inOrder > 0 { fellBack += 1 }
            }
        }
        #expect(baselines == [0, 0], "without a control character every piece stands alone")
        // A control character the selection passed unnoticed would reach libxml2, which rejects
        // it: the piece would fail and the rest be parsed in order, with the same result.
        #expect(fellBack == 0, "the workers noticed and dropped every one")
    }

    // MARK: - Real exports

    @Test(.needsSharedFixtures,
          arguments: ["de_DE-2015-2018-Export.zip", "ios16-broken-dtd-export.zip", "macosx-decoys-export.zip",
                      "ru_RU-testdata.xml", "trimmed-no-dtd-export.xml"])
    func fixturesGiveTheSameResult(_ fixture: String) throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("apple/\(fixture)").path
        let expected = Self.outcome { sink throws(ExportError) in
            try AppleHealthImport.readOnThisThread(try AppleExportLocator.open(path: path), into: sink,
                                                   invalidRecords: .fail, progress: nil)
        }
        #expect(expected.error == nil)
        for pieceSize in [500, 64 * 1024] {
            let counts = PieceCounts()
            let got = Self.outcome { sink throws(ExportError) in
                try AppleHealthImport.readInPieces(try AppleExportLocator.open(path: path), into: sink,
                                                   invalidRecords: .fail, workers: 2, pieceSize: pieceSize,
                                                   counts: counts, progress: nil)
            }
            #expect(got == expected, "pieces of \(pieceSize)")
            #expect(counts.inOrder == 0, "every piece stood alone")
        }
    }

    @Test(.needsSharedFixtures) func theGermanExportIsReallyCutIntoPieces() throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("apple/de_DE-2015-2018-Export.zip").path
        let counts = PieceCounts()
        let aggregator = DayAggregator(rule: .recordedOffset)
        _ = try AppleHealthImport.readInPieces(try AppleExportLocator.open(path: path), into: aggregator,
                                               invalidRecords: .fail, workers: 2, pieceSize: 64 * 1024,
                                               counts: counts, progress: nil)
        #expect(counts.byWorkers > 10)
        #expect(aggregator.statistics.duplicates == 5_158)
    }

    @Test func aDocumentOnOneLineIsParsedInOrder() {
        var generator = ExportGenerator(seed: 3)
        generator.lineBreaks = false
        let bytes = Array(generator.document(elements: 200).utf8)
        let counts = PieceCounts()
        let expected = Self.sequential(bytes)
        let got = Self.outcome { sink throws(ExportError) in
            try AppleHealthImport.readInPieces(MemoryStream(bytes), into: sink, invalidRecords: .skip, workers: 2,
                                               pieceSize: 100, readSize: 100, counts: counts, progress: nil)
        }
        #expect(got == expected)
        #expect(counts.byWorkers == 0)
        #expect(counts.inOrder > 0)
    }
}

/// Writes Apple-like exports from a seed: step and other records, duplicates, nested step records,
/// comments, CDATA, processing instructions, `>` in attribute values, CRLF, stray control characters.
struct ExportGenerator {
    private var state: UInt64
    /// Every so many elements a step record has an unreadable value (nil: never).
    var invalidEvery: Int?
    /// Whether elements are separated by line breaks (false: the whole body on one line).
    var lineBreaks = true
    /// Whether every element starts a line (as in Apple's exports): the selector's columns after a
    /// record it left out on the same line are not those of the file (docs/architecture.md).
    var elementPerLine = false
    /// Whether every separator is a line feed and one space, as Apple indents the root's children
    /// (children of records are then indented by two, except those of heart-rate records with
    /// `recordsWithChildren`, which share the root's children's indentation).
    var appleIndent = false
    /// Whether heart-rate records sometimes carry children (metadata, beat lists, a comment, CDATA).
    var recordsWithChildren = false
    /// Whether step records are mostly written as Apple writes them (type first, on one line,
    /// sources without entities), so that the workers read them without libxml2 (`AppleRecordTag`).
    var plainRecords = false
    /// Whether one of the sources holds a stray control character.
    var controlsInSources = true

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func pick(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    private mutating func stepRecord(value: String? = nil, close: String = "/>") -> String {
        let sources = ["Anna’s iPhone", "Watch", "R&amp;D &lt;Pedometer&gt;", "", controlsInSources ? "Phone \u{0B}Two" : "Phone Two"]
        var source = sources[pick(sources.count)]
        if plainRecords && source.contains("&") && pick(8) != 0 { source = "Ḿi Fit 𝄞" }
        let day = 1 + pick(28)
        let hour = pick(24)
        let minutes = pick(3) == 0 ? 90 : 5
        let offset = ["+0100", "-0500", "+0530"][pick(3)]
        let start = String(format: "2024-02-%02d %02d:00:00 %@", day, hour, offset)
        let endHour = hour + minutes / 60
        let end = String(format: "2024-02-%02d %02d:%02d:00 %@", endHour > 23 ? day + 1 : day, endHour % 24, minutes % 60, offset)
        let count = value ?? (pick(4) == 0 ? "\(pick(100)).5" : "\(pick(2000))")
        var attributes = ["type=\"HKQuantityTypeIdentifierStepCount\"", "unit=\"count\"",
                          "startDate=\"\(start)\"", "endDate=\"\(end)\"", "value='\(count)'",
                          "device=\"&lt;&lt;HKDevice: 0x1&gt;, name:iPhone&gt;\"", "note=\"a > b\""]
        if !source.isEmpty { attributes.append("sourceName=\"\(source)\"") }
        if plainRecords && pick(10) != 0 {
            // Apple's order (type first) and one line; now and then a space before the end.
            return "<Record " + attributes.joined(separator: " ") + (pick(4) == 0 ? " " : "") + close
        }
        if pick(2) == 0 { attributes.reverse() }
        return "<Record " + attributes.joined(separator: pick(5) == 0 ? "\n   " : " ") + close
    }

    private mutating func separator() -> String {
        guard lineBreaks else { return " " }
        if appleIndent { return "\n " }
        if elementPerLine { return ["\n ", "\r\n ", "\n\t", "\n"][pick(4)] }
        return ["\n ", "\n ", "\n ", "\n ", "  ", "\r\n ", "\n\t", "\n", " \r "][pick(9)]
    }

    mutating func document(elements: Int) -> String {
        var text = pick(3) == 0 ? "" : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        if pick(2) == 0 {
            text += "<!DOCTYPE HealthData [\n<!ELEMENT HealthData (Record)*>\n<!ATTLIST Record\n type CDATA #REQUIRED\n]>\n"
        }
        text += "<HealthData locale=\"en_US\">"
        text += separator() + "<ExportDate value=\"2024-03-01 10:00:00 +0100\"/>"
        var previous = ""
        for index in 0..<elements {
            var element: String
            if let invalidEvery, index % invalidEvery == invalidEvery - 1 {
                element = stepRecord(value: "1O")
            } else {
                switch pick(20) {
                case 0...8:
                    element = stepRecord()
                    previous = element
                case 9:
                    element = previous.isEmpty ? stepRecord() : previous
                case 10, 11:
                    element = stepRecord(close: ">") + separator() + " <MetadataEntry key=\"k\" value=\"v > w\"/>" + separator() + "</Record>"
                case 12, 13:
                    element = "<Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"61\" startDate=\"2024-02-01 10:00:00 +0100\" endDate=\"2024-02-01 10:00:00 +0100\"/>"
                    if recordsWithChildren && pick(2) == 0 {
                        element.removeLast(2)
                        element += " note='a /> b'>" + separator() + "<MetadataEntry key=\"k\" value=\"v > w\"/>"
                            + separator() + "<HeartRateVariabilityMetadataList>" + separator()
                            + "<InstantaneousBeatsPerMinute bpm=\"60\" time=\"1:00\"/><!-- c </Record> -->"
                            + separator() + "</HeartRateVariabilityMetadataList><![CDATA[ </Record> ]]><?p </Record>?>"
                            + separator() + (pick(2) == 0 ? "<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"1\"/>" : "")
                            + "</Record >"
                    }
                case 14:
                    element = "<Correlation type=\"X\">" + separator() + "  " + stepRecord() + separator() + "</Correlation>"
                case 15:
                    element = "<!-- a comment" + separator() + " <Record type=\"HKQuantityTypeIdentifierStepCount\"/> -->"
                case 16:
                    element = "<Workout type=\"W\"><![CDATA[ </HealthData> <Record/>" + separator() + "]]>" + separator() + "<?pi </HealthData> ?>text > more</Workout>"
                case 17:
                    element = "<?marker x?>"
                default:
                    element = "<ActivitySummary dateComponents=\"2024-02-0\(1 + pick(9))\" activeEnergyBurned='1'/>"
                }
            }
            text += separator() + element
        }
        return text + (lineBreaks ? "\n" : "") + "</HealthData>\n"
    }
}
