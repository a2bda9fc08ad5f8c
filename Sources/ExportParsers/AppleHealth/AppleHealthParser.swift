import CLibXML2

import Glibc
import HealthDays

/// Counts from one Apple Health document, for the report.
public struct AppleParseStatistics: Equatable, Sendable {
    /// Top-level `Record` elements of any type.
    public var records = 0
    /// Top-level step count records handed on.
    public var stepRecords = 0
    /// Top-level records (and workouts) of the other metrics asked for, handed on.
    public var metricRecords = 0
    /// Step count records inside `Correlation` and other elements, ignored (Apple repeats them at top level).
    public var nestedStepRecords = 0
    /// Records skipped under `InvalidRecordPolicy.skip`, with the first few.
    public var skipped = SkippedRecords()
    /// The `HealthKit Export Version` is not read here (the prefilter finds it in the DOCTYPE);
    /// the locale of `<HealthData>` is, for the report.
    public var locale: String? = nil
    /// Every top-level element counted by type, when the parser was asked to (`stepimport inspect`); else nil.
    public var census: AppleRecordCensus? = nil
}

/// Streams an Apple Health `export.xml` through libxml2's SAX2 push parser and hands every
/// top-level step record to a `RecordSink`.
///
/// Push-style: the caller feeds bytes in chunks of any size and calls `finish()` at the end,
/// so a zip entry, a file and standard input all drive the same parser and memory stays flat.
/// Feed it bytes that went through `AppleXMLPrefilter`: the parser itself has no recovery mode.
public final class AppleHealthParser {
    let sink: RecordSink
    /// The metrics whose records are handed on (`--metric`); steps alone take the steps-only path.
    let metrics: MetricSet
    private let stepsOnly: Bool
    private let policy: InvalidRecordPolicy
    private var context: xmlParserCtxtPtr?
    private var handler = xmlSAXHandler()
    private var depth = 0
    private var failure: ParseFailure?
    /// Added to every line libxml2 reports: for a piece of a document parsed inside a one-line
    /// copy of the root's start tag, the piece's first line in the file minus 2.
    private let lineOffset: Int
    /// The file line of the root's start tag, which such a copy puts on line 1.
    private let rootLine: Int
    /// Added to the byte offsets libxml2 reports to place them in the filtered stream: for a piece,
    /// where it starts there minus the length of the copy of the root's start tag fed before it.
    private let byteShift: Int64
    public internal(set) var statistics = AppleParseStatistics()
    /// The metric of the record being read when it is not a step record (`--metric`), for the
    /// words of an invalid record; nil for step records.
    var metricBeingRead: Metric?
    /// A record of a type asked for that libxml2 read, held until its end tag: a `MetadataEntry`
    /// inside it may mark it entered by hand (`AppleHandEntry`). Its source is copied to `heldSource`.
    var held: (sample: HealthSample, metric: Metric?)?
    var heldSource: [UInt8] = []
    /// Set by the selector for the record it hands over (`readRecord`): its children's mark.
    var selectedByHand = false
    /// Whether `statistics.census` is taken: a flag, so that the path without one tests a Bool per
    /// element, not an optional struct (testing that costs 0.6% of a run's instructions).
    private let takesCensus: Bool

    static let stepType: [UInt8] = Array("HKQuantityTypeIdentifierStepCount".utf8)
    static let unknownSource: [UInt8] = Array("(unknown)".utf8)

    /// `takesCensus`: also count every top-level element by type into `statistics.census`.
    /// `metrics`: the records to hand on (steps by default; the others through `RecordSink.add(_:of:sourceUTF8:)`).
    public convenience init(sink: RecordSink, invalidRecords policy: InvalidRecordPolicy = .fail, takesCensus: Bool = false,
                            metrics: MetricSet = .steps) {
        self.init(sink: sink, invalidRecords: policy, lineOffset: 0, rootLine: 1, takesCensus: takesCensus, metrics: metrics)
    }

    init(sink: RecordSink, invalidRecords policy: InvalidRecordPolicy, lineOffset: Int, rootLine: Int,
         byteShift: Int64 = 0, takesCensus: Bool = false, metrics: MetricSet = .steps) {
        self.sink = sink
        self.metrics = metrics
        stepsOnly = metrics.isStepsOnly
        self.takesCensus = takesCensus
        if takesCensus { statistics.census = AppleRecordCensus() }
        self.policy = policy
        self.lineOffset = lineOffset
        self.rootLine = rootLine
        self.byteShift = byteShift
        xmlInitParser()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { userData, localname, _, _, _, _, attributeCount, _, attributes in
            AppleHealthParser.from(userData).startElement(localname!, attributeCount: Int(attributeCount), attributes)
        }
        handler.endElementNs = { userData, _, _, _ in
            let parser = AppleHealthParser.from(userData)
            parser.depth -= 1
            if parser.depth == 1 && parser.held != nil { parser.handOnHeld() }
        }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            AppleHealthParser.from(userData).record(error.pointee)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        context = xmlCreatePushParserCtxt(&handler, me, nil, 0, nil)
        // NONET: never reach out for an external DTD. NOENT: substitute entities, without which
        // SAX2 hands `&amp;` in an attribute over as `&#38;`; safe because the DOCTYPE is removed
        // before parsing, so no entity can be declared. No RECOVER (it silently yields nothing on
        // Apple's broken DTDs) and no HUGE (its limits guard against runaway input).
        xmlCtxtUseOptions(context, AppleHealthParser.options)
    }

    /// The deepest an element may be nested; Apple's exports reach 5 (`HealthData`, `Workout`,
    /// `WorkoutRoute`, `FileReference`, or `Record`, `HeartRateVariabilityMetadataList`,
    /// `InstantaneousBeatsPerMinute`), and libxml2 once bounded trees at 256.
    static let maxDepth = 256

    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue)

    /// Makes the parser ready for another document, keeping libxml2's context and its dictionary
    /// of names (a worker parses thousands of pieces; a fresh context for each costs ~5%).
    func reset() {
        xmlCtxtResetPush(context, nil, 0, nil, nil)
        xmlCtxtUseOptions(context, AppleHealthParser.options)
        depth = 0
        failure = nil
        statistics = AppleParseStatistics()
        if takesCensus { statistics.census = AppleRecordCensus() }
        sawRoot = false
        lastTopLevelName = nil
        lastColumn = nil
        held = nil
    }

    deinit {
        if let context {
            freeDocument()
            xmlFreeParserCtxt(context)
        }
    }

    /// Frees the document libxml2 builds on its own when a DOCTYPE with declarations reaches it
    /// (SAX1 compatibility: it keeps the entity declarations in `myDoc`, even with no tree
    /// handlers). `xmlFreeParserCtxt` leaves it to the caller, so without this every such
    /// document leaked (found by fuzz-apple-xml). Freed at the end, on a failure and in `deinit`;
    /// `xmlCtxtResetPush` frees it itself.
    private func freeDocument() {
        guard let context, let document = context.pointee.myDoc else { return }
        xmlFreeDoc(document)
        context.pointee.myDoc = nil
    }

    /// Whether libxml2 still holds a document of its own (for tests: never after `finish` or a failure).
    var holdsDocument: Bool { context?.pointee.myDoc != nil }

    /// Parses the next piece of the document.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        var offset = 0
        // xmlParseChunk takes an Int32 size.
        while offset < bytes.count {
            let size = min(bytes.count - offset, 1 << 30)
            let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self)
            let status = xmlParseChunk(context, start, Int32(size), 0)
            try check(status)
            offset += size
        }
    }

    /// Parses bytes held in an array (a piece's frame).
    func feed(_ bytes: [UInt8]) throws(ParseFailure) {
        var failure: ParseFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(ParseFailure) { try feed(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Ends the document; fails when it is incomplete (a truncated export).
    public func finish() throws(ParseFailure) {
        let openElements = depth
        let status = xmlParseChunk(context, nil, 0, 1)
        freeDocument()
        if failure?.kind == .malformed, let found = failure {
            // libxml2's words for an unfinished document vary ("Extra content at the end",
            // "Premature end of data", "AttValue: ' expected"); say plainly what happened.
            if openElements > 0 {
                failure = ParseFailure(kind: .malformed, at: found.position,
                                       message: "the document ends inside <\(openElementName)> before </HealthData>: "
                                              + "the file is truncated (libxml2: \(found.message))")
            } else if !sawRoot {
                failure = ParseFailure(kind: .malformed, at: found.position,
                                       message: "the document ends before its <HealthData> element begins: "
                                              + "the file is truncated or empty (libxml2: \(found.message))")
            }
        }
        try check(status)
        if statistics.records == 0 && depth == 0 && !sawRoot {
            throw ParseFailure(kind: .malformed, line: 1, column: 1, byteOffset: 0, message: "the document is empty")
        }
    }

    private var sawRoot = false
    /// The last element started at depth 1 (a name in libxml2's dictionary, alive as long as the
    /// parser), for the truncation message; kept as a pointer so that no record costs an allocation.
    private var lastTopLevelName: UnsafePointer<xmlChar>?

    private var openElementName: String {
        guard depth >= 2, let lastTopLevelName else { return "HealthData" }
        return String(cString: lastTopLevelName)
    }

    private func check(_ status: Int32) throws(ParseFailure) {
        if let failure {
            freeDocument()
            throw failure
        }
        if status != 0 {
            freeDocument()
            // libxml2 reports through serror first; this is a fallback for a silent failure.
            throw ParseFailure(kind: .malformed, at: currentPosition, message: "libxml2 error \(status)")
        }
    }

    private var currentLine: Int { Int(xmlSAX2GetLineNumber(context)) + lineOffset }

    /// The line libxml2 has reached, as it counts (1 at the start, not shifted by the line offset).
    var lineReached: Int { Int(xmlSAX2GetLineNumber(context)) }
    private var currentColumn: Int { Int(xmlSAX2GetColumnNumber(context)) }

    /// Where libxml2 stands, in the filtered stream's bytes (nil where it cannot say).
    private var currentOffset: Int64? {
        let consumed = xmlByteConsumed(context)
        guard consumed >= 0 else { return nil }
        let (offset, overflow) = Int64(consumed).addingReportingOverflow(byteShift)
        return overflow || offset < 0 ? nil : offset
    }

    private var currentPosition: SourcePosition {
        if let tagPlace { return position(of: tagPlace) }
        return SourcePosition(line: currentLine, column: currentColumn, byteOffset: currentOffset)
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> AppleHealthParser {
        Unmanaged<AppleHealthParser>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private func record(_ error: xmlError) {
        // Warnings (level 1) are not failures; the first error is the one to report.
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, failure == nil else { return }
        var message = error.message.map { String(cString: $0) } ?? "unknown XML error"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        if lineOffset != 0 {
            message = placeLineInMessage(message, error)
        }
        failure = ParseFailure(kind: .malformed, line: Int(error.line) + lineOffset, column: Int(error.int2),
                               byteOffset: currentOffset, message: message)
    }

    /// Some messages name the line an element started on ("Opening and ending tag mismatch: Record
    /// line 9 and HealthData"); move it to the file's line like every other position.
    private func placeLineInMessage(_ message: String, _ error: xmlError) -> String {
        let codes = [XML_ERR_GT_REQUIRED, XML_ERR_TAG_NAME_MISMATCH, XML_ERR_TAG_NOT_FINISHED].map { Int32($0.rawValue) }
        guard error.int1 > 0, codes.contains(error.code), let range = message.range(of: " line \(error.int1)") else {
            return message
        }
        let line = error.int1 == 1 ? rootLine : Int(error.int1) + lineOffset
        return message.replacingCharacters(in: range, with: " line \(line)")
    }

    private func fail(_ kind: ParseFailure.Kind, _ message: String) {
        guard failure == nil else { return }
        fail(ParseFailure(kind: kind, at: currentPosition, message: message))
    }

    private func fail(_ found: ParseFailure) {
        guard failure == nil else { return }
        failure = found
        xmlStopParser(context)
    }

    // MARK: - Elements

    private func startElement(_ name: UnsafePointer<xmlChar>, attributeCount: Int,
                              _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        defer { depth += 1 }
        switch depth {
        case 1:
            lastTopLevelName = name
            if takesCensus { takeCensus(name, attributeCount, attributes) }
            guard isNamed(name, "Record") else {
                if !stepsOnly, metrics.contains(.workouts), let attributes, isNamed(name, "Workout") {
                    handleWorkout(attributes, attributeCount)
                }
                return
            }
            handleRecord(attributes, attributeCount)
        case 0:
            sawRoot = true
            guard isNamed(name, "HealthData") else {
                fail(.wrongKind, "the root element is <\(String(cString: name))>, not <HealthData>")
                return
            }
            if let attributes, let locale = attributeValue(attributes, attributeCount, "locale") {
                statistics.locale = String(decoding: locale, as: UTF8.self)
            }
        case AppleHealthParser.maxDepth...:
            // libxml2 keeps every open element's name for a SAX parser too, and sets no bound of
            // its own: 10 million nested elements (70 MB) take 390 MB.
            fail(.malformed, "elements nested more than \(AppleHealthParser.maxDepth) deep (an Apple Health export "
                 + "nests 5 at most): the file is damaged or not an export")
        default:
            if held != nil, isNamed(name, "MetadataEntry"), let attributes { noteMetadataEntry(attributes, attributeCount) }
            // Step records nested in a Correlation repeat top-level ones: count them, never add them.
            guard stepsOnly || metrics.contains(.steps), isNamed(name, "Record"), let attributes,
                  let type = attributeValue(attributes, attributeCount, "type"),
                  equals(type, AppleHealthParser.stepType)
            else { return }
            statistics.nestedStepRecords += 1
        }
    }

    /// A top-level `Record`: counted, and handed on when it is of a type asked for.
    @inline(__always)
    private func handleRecord(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, _ attributeCount: Int) {
        statistics.records += 1
        guard let attributes, let type = attributeValue(attributes, attributeCount, "type") else { return }
        if equals(type, AppleHealthParser.stepType) {
            if stepsOnly || metrics.contains(.steps) { handleStepRecord(attributes, attributeCount) }
        } else if !stepsOnly, let recordType = AppleMetricType(type), recordType.isWanted(in: metrics) {
            handleMetricRecord(recordType, attributes, attributeCount)
        }
    }

    // MARK: - Records read without libxml2

    /// Where a record read by `AppleRecordSelector` stands when its start tag ends, as libxml2
    /// would say: the line, and the column (characters, not bytes, from the line's start) of the
    /// `/` of `/>` or of the `>`. Worked out only when a record is invalid.
    struct TagPlace {
        /// The line as this parser's libxml2 would count it.
        let line: Int
        let lineStart: UnsafeRawPointer
        let close: UnsafeRawPointer
    }

    /// Where the record being handed on by `readRecord` stands (nil while libxml2 parses).
    /// Set and cleared around each record read directly (the handlers only read it): unchecked,
    /// so that this costs no dynamic exclusivity check.
    @exclusivity(unchecked) var tagPlace: TagPlace?
    /// The last column worked out: a line of many invalid records is counted once, not once a record.
    private var lastColumn: (lineStart: UnsafeRawPointer, close: UnsafeRawPointer, column: Int)?

    /// `tagPlace` as a position.
    private func position(of place: TagPlace) -> SourcePosition {
        var column = 1
        var byte = place.lineStart
        if let last = lastColumn, last.lineStart == place.lineStart, last.close <= place.close {
            column = last.column
            byte = last.close
        }
        while byte < place.close {
            if byte.load(as: UInt8.self) & 0xC0 != 0x80 { column += 1 }
            byte += 1
        }
        lastColumn = (place.lineStart, place.close, column)
        return SourcePosition(line: place.line + lineOffset, column: column, byteOffset: nil)
    }

    /// The buffers `AppleRecordTag` reads a tag into for `readRecord`.
    private(set) lazy var tagBuffers = AppleRecordTag.Buffers()

    /// A top-level record whose start tag `AppleRecordSelector` read itself (`AppleRecordTag`):
    /// handled as the same record from libxml2 is, and placed where libxml2 would stand.
    /// `enteredByHand`: its children hold Apple's mark (`AppleHandEntry.children`).
    func readRecord(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int, at place: TagPlace,
                    enteredByHand: Bool = false) {
        tagPlace = place
        selectedByHand = enteredByHand
        defer { tagPlace = nil }
        handleRecord(attributes, count)
    }

    /// A top-level workout whose start tag `AppleRecordSelector` read itself, asked for with
    /// `--metric workouts`: handled and placed as `readRecord` does.
    func readWorkout(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int, at place: TagPlace) {
        tagPlace = place
        defer { tagPlace = nil }
        handleWorkout(attributes, count)
    }

    /// Counts a top-level element for `statistics.census` (only when one is taken).
    private func takeCensus(_ name: UnsafePointer<xmlChar>, _ count: Int,
                            _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let nameUTF8 = UnsafeRawBufferPointer(start: name, count: strlen(name))
        switch AppleRecordCensus.entry(forName: nameUTF8) {
        case .record:
            if let attributes, let type = attributeValue(attributes, count, "type") {
                statistics.census?.countRecord(typeUTF8: type)
            } else {
                var untyped = AppleRecordCensus.untypedRecord
                untyped.withUTF8 { statistics.census?.countRecord(typeUTF8: UnsafeRawBufferPointer($0)) }
            }
        case .exportDate:
            if statistics.census?.exportDate == nil, let attributes, let value = attributeValue(attributes, count, "value") {
                statistics.census?.exportDate = String(decoding: value, as: UTF8.self)
            }
        case .uncounted:
            break
        case .element:
            statistics.census?.countElement(nameUTF8: nameUTF8)
        }
    }

    private func handleStepRecord(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int) {
        var source: UnsafeRawBufferPointer?
        var start: UnsafeRawBufferPointer?
        var end: UnsafeRawBufferPointer?
        var value: UnsafeRawBufferPointer?
        for index in 0..<count {
            let base = index * 5
            guard let name = attributes[base] else { continue }
            let text = span(attributes[base + 3], attributes[base + 4])
            switch name[0] {
            case UInt8(ascii: "s"):
                if isNamed(name, "sourceName") { source = text } else if isNamed(name, "startDate") { start = text }
            case UInt8(ascii: "e"):
                if isNamed(name, "endDate") { end = text }
            case UInt8(ascii: "v"):
                if isNamed(name, "value") { value = text }
            default:
                break
            }
        }
        guard let interval = recordInterval(start: start, end: end) else { return }
        guard let value else { return invalid("missing value") }
        guard let steps = DecimalNumber.parse(value), steps >= 0 else {
            return invalid("value \"\(String(decoding: value, as: UTF8.self))\" is not a non-negative number")
        }
        var sample = interval
        sample.value = steps
        guard let start, let end else { return }  // read by recordInterval: never nil here
        if let problem = SampleLimits.problem(in: sample) {
            let quoted = { (text: UnsafeRawBufferPointer) in "\"\(String(decoding: text, as: UTF8.self))\"" }
            return invalid(problem.message(steps: "value \(quoted(value))", start: "startDate \(quoted(start))",
                                           end: "endDate \(quoted(end))", offset: "the offset of startDate \(quoted(start))"))
        }
        statistics.stepRecords += 1
        if let source, source.count > 0 {
            deliver(sample, of: nil, source: source)
        } else {
            AppleHealthParser.unknownSource.withUnsafeBytes { deliver(sample, of: nil, source: $0) }
        }
    }

    /// A record's interval (its value 0) from its `startDate` and `endDate`, placed by the start's
    /// offset; nil when either is missing or not Apple's form, or the end is before the start,
    /// after the record was reported invalid. The one reading of Apple's times.
    @inline(__always)
    func recordInterval(start: UnsafeRawBufferPointer?, end: UnsafeRawBufferPointer?) -> HealthSample? {
        guard let start else {
            invalid("missing startDate")
            return nil
        }
        guard let end else {
            invalid("missing endDate")
            return nil
        }
        // Apple always writes the offset; a time without one is not Apple's form.
        guard let startTime = Timestamp.parse(start), let startOffset = startTime.offset else {
            invalid("startDate \"\(String(decoding: start, as: UTF8.self))\" is not a date (yyyy-MM-dd HH:mm:ss ±hhmm)")
            return nil
        }
        guard let endTime = Timestamp.parse(end), endTime.offset != nil else {
            invalid("endDate \"\(String(decoding: end, as: UTF8.self))\" is not a date (yyyy-MM-dd HH:mm:ss ±hhmm)")
            return nil
        }
        guard endTime.ms >= startTime.ms else {
            invalid("endDate \(String(decoding: end, as: UTF8.self)) is before startDate \(String(decoding: start, as: UTF8.self))")
            return nil
        }
        return HealthSample(startMs: startTime.ms, endMs: endTime.ms, offsetSeconds: startOffset, value: 0)
    }

    func invalid(_ problem: String) {
        if let failure = policy.reject(at: currentPosition, problem, record: recordWords, skipped: &statistics.skipped) {
            fail(failure)
        }
    }

    // MARK: - Bytes

    @inline(__always)
    func span(_ start: UnsafePointer<xmlChar>?, _ end: UnsafePointer<xmlChar>?) -> UnsafeRawBufferPointer {
        guard let start, let end else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: end - start)
    }

    /// Whether an attribute's name is `expected`. The names `AppleRecordTag` hands over are
    /// literals of this module, which the linker keeps once: the same address tells at once.
    @inline(__always)
    func isNamed(_ name: UnsafePointer<xmlChar>, _ expected: StaticString) -> Bool {
        name == expected.utf8Start
            || strcmp(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
                      UnsafeRawPointer(expected.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    func attributeValue(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int,
                                _ wanted: StaticString) -> UnsafeRawBufferPointer? {
        for index in 0..<count {
            let base = index * 5
            if let name = attributes[base], isNamed(name, wanted) {
                return span(attributes[base + 3], attributes[base + 4])
            }
        }
        return nil
    }

    @inline(__always)
    private func equals(_ text: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        guard text.count == expected.count else { return false }
        return expected.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
    }
}
