import CMarkupScan
import Glibc
import HealthDays

/// Leaves out, before libxml2 sees them, the top-level `<Record>`s whose `type` nobody asked for,
/// checking only their structure; everything else passes as it is.
///
/// It reads one piece of the prefiltered document on a parse worker (`ApplePieceResult.Worker`),
/// before libxml2, and writes what passes to the worker's buffer; the piece itself is left as it
/// is. A record is left out when it is a child of the root whose start tag begins exactly
/// `<Record type="` and whose type (without `&`) is not in the asked set; every other element,
/// and every record written another way, passes.
///
/// Of a record left out, only its line breaks are kept (line numbers stay right). Its bytes are
/// still checked for structure: tags balanced and the record closed by `</Record>`, quotes closed
/// in tags, no `<` in a tag or an attribute value, comments, CDATA and instructions closed, and
/// the piece not ending inside it. A `failure` only makes the piece fail: the consumer then
/// parses it, and the rest, whole, so every error a user sees is libxml2's. Full XML
/// well-formedness inside a record left out (names, entities, duplicate attributes, characters)
/// is not checked: that is `--strict-xml`.
///
/// Passing bytes are read by markup, like `TopLevelBoundaryScanner`: from `<` to `<`, a `memchr`
/// per element; the bytes of a record left out 64 at a time (`nextSpecial`). When it cannot tell
/// what the document is (another encoding, a DOCTYPE left in the body) it stops selecting and
/// passes the rest whole.
struct AppleRecordSelector: MarkupBytes {
    enum Mode: Equatable {
        /// Before the root's start tag.
        case prolog
        /// Inside the root element, outside markup (or inside a record being left out).
        case body
        /// Everything passes from here on.
        case off
    }

    /// Where the scan of a record being left out stands.
    private enum Skip: Equatable {
        /// In a start tag; `quote` inside a quoted value (0 outside), `slash` after a `/` outside quotes.
        case tag(quote: UInt8, slash: Bool)
        /// Between tags inside the record.
        case content
        /// After `<` inside the record.
        case markupOpen
        /// After `<!`, `dashes` (0 or 1) of `<!--` seen.
        case bang(dashes: Int)
        /// In an end tag; `matched` bytes of `Record` when it is the record's own (-1 once it differs).
        case endTag(matched: Int)
        case comment(dashes: Int)
        case cdata(brackets: Int)
        case instruction(question: Bool)
    }

    private(set) var mode = Mode.prolog
    /// Elements open in the passing part (1 inside the root).
    private var depth = 0
    /// The record being left out, if one is: its scan state and open elements (itself included).
    private var skip: Skip?
    private var skipDepth = 0
    /// `matched` bytes of `nestedStepPattern` in the current child start tag (-1: not matching).
    private var nestedMatch = -1
    /// The line the record being left out starts on.
    private var skipLine = 0

    /// Top-level records left out.
    private(set) var skippedRecords = 0
    /// Whether every byte written to the output was a space, a tab or a line feed.
    private(set) var passedOnlyBlanks = true
    /// The line feeds read, each of which is written to the output.
    var lineFeedsPassed: Int { line - 1 }
    /// Tags of elements left out that were not plain (`plainTagEnd`) and were read to their end by
    /// `nextSpecial`: each is scanned to its `>` once (for tests).
    private(set) var tagsNotPlain = 0
    /// Step records nested in records left out (the parser counts those it sees the same way).
    private(set) var nestedStepRecords = 0
    /// Of `skippedRecords`, those left out by `leaveOutRun`'s C call (for tests).
    private(set) var recordsLeftOutInRuns = 0
    /// The structure error that stopped the selection, if any.
    private(set) var failure: ParseFailure?
    /// A control character (below 0x20, other than TAB, LF and CR) was met: the reader leaves them
    /// in the body (`AppleXMLPrefilter(dropsBodyControls:)`), and the selection stops at the first,
    /// for the worker to drop them all and select the piece again. Every byte the selection
    /// passes, leaves out or reads is looked at for them, in the scans it makes anyway: the bytes
    /// that stop a scan (`specials16`, `tagBytes16`, `typeStops16`) include every byte below 0x20,
    /// and the tag reader finds a record asked for that holds one not plain.
    private(set) var sawControl = false
    /// A failure, `needsWholeParse` or `sawControl`: the selection stopped. Tested once a markup (an optional
    /// of a struct with strings is not free to test).
    private var stopped = false

    /// Where the records asked for are read and handed on (nil: they pass to libxml2).
    private let reader: AppleHealthParser?
    /// The reader's tag, reading into its attribute buffer.
    private var tag: AppleRecordTag?
    /// Added to the piece's lines for the reader: a piece after the first is parsed after a
    /// one-line copy of the root's start tag.
    private let lineShift: Int
    /// Whether workouts are asked for, and so read here too.
    private let readsWorkouts: Bool
    /// Records of the types asked for (and workouts) read here and handed to `reader`.
    private(set) var recordsRead = 0
    /// The selection stopped at a record or workout that libxml2 must read, in a piece whose
    /// other records were read here, or (with a census) at a child of the root it cannot count
    /// as libxml2 would: the piece is to be parsed whole.
    private(set) var needsWholeParse = false
    /// With `takesCensus`: every child of the root of this piece, counted as
    /// `AppleHealthParser` counts them (`AppleRecordCensus`), in document order, records left
    /// out included. Valid only when the selection neither failed nor `needsWholeParse`.
    private(set) var census: AppleRecordCensus?
    /// Whether `census` is taken. Tested for every record, as a Bool: `census != nil` copies and
    /// destroys the census each time (a tenth of a worker's samples without a census, perf record).
    private let takesCensus: Bool
    /// The root's end tag was read (what follows it passes whole, and holds no element).
    private var rootEnded = false

    /// The types whose records pass, longest first (compared by length, then bytes).
    private let wanted: [[UInt8]]
    /// The last eight bytes of each of `wanted` as a little-endian word (0 for a shorter type).
    private let wantedTails: [UInt64]
    private let longestWanted: Int
    /// `Record type="HKQuantityTypeIdentifierStepCount"` after a `<`, when step records are asked for.
    private let nestedStepPattern: [UInt8]
    /// Whether runs of records left out in their commonest form are read by one C call
    /// (`leaveOutRun`); false elsewhere than on x86-64, and in tests that compare the two readings.
    private let leavesOutRunsInC: Bool
    /// `wanted` one after the other, and their lengths, for that call.
    private let wantedBytes: [UInt8]
    private let wantedLengths: [Int]

    /// Offset in the piece of the next byte to read, and of the start of its line.
    private var position: Int64 = 0
    private var lineStart: Int64 = 0
    /// Line of the next byte to read (1-based, in the piece), as libxml2 counts (line feeds only).
    private var line = 1

    private let recordOpening: [UInt8] = Array("<Record type=\"".utf8)
    // Names as static strings: setting `skipName` for each record left out then costs no
    // reference counting (as arrays, a retain and a release each time).
    private static var recordName: StaticString { "Record" }
    private static var workoutName: StaticString { "Workout" }
    /// Children of the root other than records that are left out whole, by name (`elementsLeftOut(for:)`).
    private let otherElementsLeftOut: [StaticString]
    /// The name of the element being left out or whose children are being read past (`Record`,
    /// or `Workout`), which its end tag must repeat.
    private var skipName: StaticString = ""
    /// Beyond this a type is not looked at (the record passes); Apple's longest is 58 bytes.
    static let typeLimit = 256

    /// `wantedTypes`: the `type`s whose records pass (`wantedTypes(for:)`). `insideRoot`: the bytes
    /// start between two children of the root (a piece after the first), not at the document's start.
    ///
    /// `reader`: reads the records asked for here instead of passing them to libxml2 (see
    /// `readRecord`); only for a piece inside the root, in a worker whose parser it is.
    ///
    /// `takesCensus`: also count the root's children (`census`), for `stepimport inspect`.
    ///
    /// `otherElementsLeftOut`: names of other children of the root to leave out as records of
    /// types not asked for are, read for their structure only (`elementsLeftOut(for:)`).
    ///
    /// `leavesOutRunsInC`: false reads every record left out byte by byte here (for tests that
    /// compare the two readings).
    init(wantedTypes: [[UInt8]], insideRoot: Bool = false, reader: AppleHealthParser? = nil,
         takesCensus: Bool = false, otherElementsLeftOut: [StaticString] = [], leavesOutRunsInC: Bool = true) {
        precondition(reader == nil || insideRoot, "records are read only in a piece inside the root")
        self.otherElementsLeftOut = otherElementsLeftOut
        self.takesCensus = takesCensus
        if takesCensus { census = AppleRecordCensus() }
        if insideRoot {
            mode = .body
            depth = 1
        }
        self.reader = reader
        tag = reader.map { AppleRecordTag(into: $0.tagBuffers) }
        readsWorkouts = reader.map { !$0.metrics.isStepsOnly && $0.metrics.contains(.workouts) } ?? false
        lineShift = insideRoot ? 1 : 0
        wanted = wantedTypes
        wantedTails = wantedTypes.map { type in
            type.count >= 8 ? type.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } : 0
        }
        longestWanted = wantedTypes.map(\.count).max() ?? 0
        let step = AppleHealthParser.stepType
        nestedStepPattern = wantedTypes.contains(step) ? Array("Record type=\"".utf8) + step + [UInt8(ascii: "\"")] : []
        #if arch(x86_64)
        self.leavesOutRunsInC = leavesOutRunsInC
        #else
        self.leavesOutRunsInC = false
        #endif
        wantedBytes = wantedTypes.flatMap { $0 }
        wantedLengths = wantedTypes.map(\.count)
    }

    /// The record types read when `metrics` are asked for: steps (when asked, or alone) and the
    /// types of the other metrics, as `AppleHealthParser` decides.
    static func wantedTypes(for metrics: MetricSet) -> [[UInt8]] {
        var types: [[UInt8]] = []
        if metrics.isStepsOnly || metrics.contains(.steps) { types.append(AppleHealthParser.stepType) }
        if !metrics.isStepsOnly { types += AppleMetricType.types(wantedIn: metrics) }
        return types
    }

    /// The children of the root other than records that nothing reads when `metrics` are asked
    /// for, as `AppleHealthParser` decides: `ActivitySummary` always, `Workout` unless workouts
    /// are asked for. Left out, they cost a structure check instead of libxml2's parse (in a
    /// generated export they stand between the records, in most pieces).
    static func elementsLeftOut(for metrics: MetricSet) -> [StaticString] {
        var names: [StaticString] = ["ActivitySummary"]
        if metrics.isStepsOnly || !metrics.contains(.workouts) { names.append(workoutName) }
        return names
    }

    /// Selects a whole piece (`PiecePipeline`), once: reads `input`, writes the bytes that pass to
    /// `output` (room for `input.count` bytes: nothing grows) and returns how many it wrote.
    /// Markup cut off at the end passes as it is (libxml2 reports what is wrong with it); a piece
    /// that ends inside a record left out is a `failure`, as the end of a document there is.
    mutating func select(piece input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        precondition(output.count >= input.count, "selection output too small")
        precondition(position == 0, "a selector reads one piece")
        guard let source = input.baseAddress, let target = output.baseAddress else { return 0 }
        var cursor = Cursor(read: 0, write: 0, base: 0)
        let bytes = Bytes(source: source, target: target)
        if !run(bytes, &cursor, end: input.count) {
            mode = .off
            passSpan(bytes, &cursor, to: input.count)
        }
        position = Int64(cursor.read)
        if takesCensus && mode == .off && !rootEnded && !stopped {
            // It stopped selecting (another encoding, a declaration in the body, bytes it cannot
            // read): what passed whole was not counted here.
            needsWholeParse = true
        }
        if !stopped, skip != nil {
            fail("the document ends inside <\(skippedName)> (line \(skipLine)) before </HealthData>: the file is truncated",
                 at: position)
        }
        return cursor.write
    }

    /// Selects `bytes.source[cursor.read..<end]`; false when it stopped at markup cut off at `end`
    /// (`cursor.read` is then that markup's `<`).
    private mutating func run(_ bytes: Bytes, _ cursor: inout Cursor, end: Int) -> Bool {
        while cursor.read < end, !stopped {
            if skip != nil {
                skipRecord(bytes, &cursor, end: end)
            } else if mode == .off {
                passSpan(bytes, &cursor, to: end)
            } else {
                if leavesOutRunsInC && mode == .body && depth == 1 && !takesCensus {
                    leaveOutRun(bytes, &cursor, end: end)
                    guard cursor.read < end else { break }
                }
                if !readMarkup(bytes, &cursor, end: end) { return false }
            }
        }
        return true
    }

    // MARK: - Passing

    /// Where bytes are read from (the piece) and where the bytes that pass are written (the
    /// worker's buffer; never the piece itself).
    private struct Bytes {
        let source: UnsafeRawPointer
        let target: UnsafeMutableRawPointer
    }

    private struct Cursor {
        var read: Int
        var write: Int
        /// Offset in the prefilter's output of buffer index 0.
        let base: Int64
    }

    /// Counts the line feeds of `base[start..<end]`, whose first byte is at `streamOffset` in the prefilter's output.
    @inline(__always)
    private mutating func countLines(_ base: UnsafeRawPointer, from start: Int, to end: Int, streamOffset: Int64) {
        var index = start
        while index < end, let found = memchr(base + index, 0x0A, end - index) {
            let at = UnsafeRawPointer(found) - base
            line += 1
            lineStart = streamOffset + Int64(at - start) + 1
            index = at + 1
        }
    }

    /// Reads the markup at the next `<` (passing the text before it); false when it is cut off
    /// at `end` and must wait for more bytes.
    private mutating func readMarkup(_ base: Bytes, _ cursor: inout Cursor, end: Int) -> Bool {
        let raw = base.source
        let open: Int
        if end - cursor.read >= 3 && UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: cursor.read, as: UInt16.self)) == Self.lineFeedAndSpace
            && raw.load(fromByteOffset: cursor.read + 2, as: UInt8.self) == UInt8(ascii: "<") {
            // Apple's exports put a line feed and one space before each child of the root: passed
            // as `passSpan` passes them, without its loop (a fifth of this function's instructions).
            base.target.storeBytes(of: Self.lineFeedAndSpace.littleEndian, toByteOffset: cursor.write, as: UInt16.self)
            line += 1
            lineStart = cursor.base + Int64(cursor.read) + 1
            cursor.read += 2
            cursor.write += 2
            open = cursor.read
        } else {
            guard let found = findNear(UInt8(ascii: "<"), raw, from: cursor.read, to: end) else {
                passSpan(base, &cursor, to: end)
                return true
            }
            open = found
            passSpan(base, &cursor, to: open)
        }
        guard open + 1 < end else { return false }
        let next = raw.load(fromByteOffset: open + 1, as: UInt8.self)
        switch next {
        case UInt8(ascii: "/"):
            guard let close = find(UInt8(ascii: ">"), raw, from: open + 2, to: end) else { return false }
            passSpan(base, &cursor, to: close + 1)
            if mode == .body {
                depth -= 1
                if depth <= 0 {
                    mode = .off
                    rootEnded = true
                }
            }
        case UInt8(ascii: "?"):
            guard let close = find(sequence: "?>", raw, from: open + 2, to: end) else { return false }
            if mode == .prolog, !declaresUTF8OrNothing(raw, from: open, to: close + 2) { mode = .off }
            passSpan(base, &cursor, to: close + 2)
        case UInt8(ascii: "!"):
            if matches("<!--", raw, at: open, end: end) {
                guard let close = find(sequence: "-->", raw, from: open + 4, to: end) else { return false }
                passSpan(base, &cursor, to: close + 3)
            } else if matches("<![CDATA[", raw, at: open, end: end) {
                guard let close = find(sequence: "]]>", raw, from: open + 9, to: end) else { return false }
                passSpan(base, &cursor, to: close + 3)
            } else if end - open < 9 {
                return false
            } else {
                // A DOCTYPE the prefilter left, or not XML: libxml2 reads the rest whole.
                mode = .off
            }
        default:
            guard isNameStart(next) else {
                mode = .off
                return true
            }
            if mode == .body && depth == 1 {
                let kind = topLevelRecord(raw, at: open, end: end)
                if takesCensus {
                    switch countChild(raw, at: open, end: end, kind: kind) {
                    case .counted: break
                    case .undecided: return false
                    case .uncountable: return wholeParseNeeded()
                    }
                }
                if case .passes = kind, !otherElementsLeftOut.isEmpty {
                    switch otherElementLeftOut(raw, at: open, end: end) {
                    case .none: break
                    case .some(nil): return false
                    case .some(let name?):
                        startSkipping(element: name, &cursor, open: open)
                        return true
                    }
                }
                switch kind {
                case .undecided:
                    return false
                case .leaveOut(let typeEnd):
                    startSkipping(base, &cursor, open: open, typeEnd: typeEnd)
                    return true
                case .asked(let typeEnd) where reader != nil:
                    switch readElement(base, &cursor, record: typeEnd, open: open, end: end) {
                    case .read: return true
                    case .undecided: return false
                    case .notPlain: return wholeParseNeeded()
                    }
                case .asked, .passes:
                    guard reader != nil else { break }
                    if readsWorkouts && matches("<Workout", raw, at: open, end: end) {
                        guard open + 8 < end else { return false }
                        if isSpace(raw.load(fromByteOffset: open + 8, as: UInt8.self)) {
                            switch readElement(base, &cursor, record: nil, open: open, end: end) {
                            case .read: return true
                            case .undecided: return false
                            case .notPlain: return wholeParseNeeded()
                            }
                        }
                    }
                    // In a piece whose records are read here, a record or workout libxml2 would
                    // hand over in between would come out of order.
                    if matches("<Record", raw, at: open, end: end) || (readsWorkouts && matches("<Workout", raw, at: open, end: end)) {
                        return wholeParseNeeded()
                    }
                }
            }
            // A start tag: it ends at the last `>` before the next `<` (a `<` cannot be in a tag).
            guard let following = find(UInt8(ascii: "<"), raw, from: open + 1, to: end) else { return false }
            var close = following - 1
            while close > open && isSpace(raw.load(fromByteOffset: close, as: UInt8.self)) { close -= 1 }
            if raw.load(fromByteOffset: close, as: UInt8.self) != UInt8(ascii: ">") {
                guard let exact = tagEnd(raw, from: open + 1, to: following) else {
                    mode = .off
                    return true
                }
                close = exact
            }
            let isEmpty = raw.load(fromByteOffset: close - 1, as: UInt8.self) == UInt8(ascii: "/")
            if mode == .prolog {
                if isEmpty { mode = .off } else { mode = .body; depth = 1 }
            } else if !isEmpty {
                depth += 1
            }
            passSpan(base, &cursor, to: following)
        }
        return true
    }

    @inline(__always)
    private mutating func passSpan(_ base: Bytes, _ cursor: inout Cursor, to end: Int) {
        guard end > cursor.read else { return }
        let count = end - cursor.read
        if count <= 16 {
            // Mostly the line feed and indentation between two records: no library calls.
            for offset in 0..<count {
                let byte = base.source.load(fromByteOffset: cursor.read + offset, as: UInt8.self)
                base.target.storeBytes(of: byte, toByteOffset: cursor.write + offset, as: UInt8.self)
                if byte == 0x0A {
                    line += 1
                    lineStart = cursor.base + Int64(cursor.read + offset) + 1
                } else if byte != 0x20 && byte != 0x09 {
                    passedOnlyBlanks = false
                    if AppleXMLPrefilter.isControl(byte) { noteControl() }
                }
            }
            cursor.read = end
            cursor.write += count
            return
        }
        countLines(base.source, from: cursor.read, to: end, streamOffset: cursor.base + Int64(cursor.read))
        if AppleXMLPrefilter.containsControl(UnsafeRawBufferPointer(start: base.source + cursor.read, count: count)) {
            noteControl()
        }
        if passedOnlyBlanks {
            var at = cursor.read
            while at < end {
                let byte = base.source.load(fromByteOffset: at, as: UInt8.self)
                guard byte == 0x20 || byte == 0x0A || byte == 0x09 else { passedOnlyBlanks = false; break }
                at += 1
            }
        }
        memcpy(base.target + cursor.write, base.source + cursor.read, count)
        cursor.read = end
        cursor.write += count
    }

    /// What a child of the root whose `<` is at `open` is, as far as its first bytes tell.
    private enum TopLevelRecord {
        /// A record of a type not asked for; `typeEnd` is its type's closing quote.
        case leaveOut(typeEnd: Int)
        /// A record of a type asked for, written `<Record type="...">`.
        case asked(typeEnd: Int)
        /// Another element, or a record written another way: libxml2 reads it.
        case passes
        /// More bytes are needed to tell.
        case undecided
    }

    // `mutating` though it changes nothing: called from the mutating `readMarkup`, a plain method
    // has the whole selector (481 bytes) copied for each record (`memcpy`, 4% of the run's
    // instructions, callgrind).
    private mutating func topLevelRecord(_ base: UnsafeRawPointer, at open: Int, end: Int) -> TopLevelRecord {
        let opening = recordOpening
        let typeStart = open + opening.count
        let limit = min(end, typeStart + AppleRecordSelector.typeLimit)
        var typeEnd: Int?
        if typeStart + 16 <= limit {
            // The common case without library calls: `<Record t` and `d type="` compared as two
            // words, then the type's bytes sixteen at a time up to its quote, `&` or `<`.
            guard UInt64(littleEndian: base.loadUnaligned(fromByteOffset: open, as: UInt64.self)) == AppleRecordSelector.openingHead,
                  UInt64(littleEndian: base.loadUnaligned(fromByteOffset: open + 6, as: UInt64.self)) == AppleRecordSelector.openingTail
            else { return .passes }
            if let stop = AppleRecordSelector.typeStop(base, from: typeStart, to: limit) {
                // An entity could spell a wanted type another way, and a `<` is an error libxml2
                // reports (the skip starts after the type): such a record passes. So does one
                // with a byte below 0x20 in its type, where the passing bytes are looked at for
                // control characters.
                guard base.load(fromByteOffset: stop, as: UInt8.self) == UInt8(ascii: "\"") else { return .passes }
                typeEnd = stop
            }
        } else {
            let available = min(opening.count, end - open)
            guard opening.withUnsafeBytes({ memcmp(base + open, $0.baseAddress!, available) }) == 0 else { return .passes }
            guard available == opening.count else { return .undecided }
        }
        if typeEnd == nil {
            guard let found = find(UInt8(ascii: "\""), base, from: typeStart, to: limit) else {
                return limit == end && end - typeStart < AppleRecordSelector.typeLimit ? .undecided : .passes
            }
            if find(UInt8(ascii: "&"), base, from: typeStart, to: found) != nil
                || find(UInt8(ascii: "<"), base, from: typeStart, to: found) != nil { return .passes }
            // A byte below 0x20 makes it pass too, as in the fast path: the passing bytes are
            // looked at for control characters.
            for at in typeStart..<found where base.load(fromByteOffset: at, as: UInt8.self) < 0x20 { return .passes }
            typeEnd = found
        }
        guard let quote = typeEnd else { return .passes }
        // The byte after the type's quote tells whether it was the type's end: XML wants white
        // space, `/` or `>` there.
        guard quote + 1 < end else { return .undecided }
        let after = base.load(fromByteOffset: quote + 1, as: UInt8.self)
        guard isSpace(after) || after == UInt8(ascii: "/") || after == UInt8(ascii: ">") else { return .passes }
        let length = quote - typeStart
        if length <= longestWanted {
            // The last eight bytes first: types of one length mostly differ there (Apple's
            // `...HeartRate` and `...StepCount`), and the compare of the whole is a call.
            let tail = length >= 8 ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: quote - 8, as: UInt64.self)) : 0
            for (index, type) in wanted.enumerated() where type.count == length && wantedTails[index] == tail {
                if type.withUnsafeBytes({ memcmp(base + typeStart, $0.baseAddress!, length) }) == 0 {
                    return .asked(typeEnd: quote)
                }
            }
        }
        return .leaveOut(typeEnd: quote)
    }

    // MARK: - Counting (`inspect`)

    private enum Count {
        case counted
        /// More bytes are needed.
        case undecided
        /// libxml2 must read it for the census to be right: the piece is parsed whole.
        case uncountable
    }

    /// Counts the child of the root whose `<` is at `open` into `census`, by the census's own rule
    /// (`AppleRecordCensus.entry(forName:)`). What only libxml2 can read the same way is
    /// `uncountable`: a record written otherwise than `<Record type="...` with a plain type, a
    /// type holding a byte below 0x20 (libxml2 makes white space a space), and `ExportDate`,
    /// whose value the census keeps.
    private mutating func countChild(_ base: UnsafeRawPointer, at open: Int, end: Int, kind: TopLevelRecord) -> Count {
        switch kind {
        case .undecided:
            return .undecided
        case .leaveOut(let typeEnd), .asked(let typeEnd):
            let type = UnsafeRawBufferPointer(start: base + open + recordOpening.count,
                                              count: typeEnd - open - recordOpening.count)
            guard !type.contains(where: { $0 < 0x20 }) else { return .uncountable }
            census?.countRecord(typeUTF8: type)
            return .counted
        case .passes:
            var nameEnd = open + 1
            while nameEnd < end {
                let byte = base.load(fromByteOffset: nameEnd, as: UInt8.self)
                if isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
                nameEnd += 1
            }
            guard nameEnd < end else { return .undecided }
            let name = UnsafeRawBufferPointer(start: base + open + 1, count: nameEnd - open - 1)
            switch AppleRecordCensus.entry(forName: name) {
            case .record, .exportDate:
                return .uncountable
            case .uncounted:
                return .counted
            case .element:
                census?.countElement(nameUTF8: name)
                return .counted
            }
        }
    }

    // MARK: - Reading records asked for

    /// Reads the start tag of a record asked for (`typeEnd`: its type's closing quote) or of a
    /// workout (nil) with `AppleRecordTag` and hands its attributes to `reader`, placed where
    /// libxml2 would stand; its children are then read for their structure (as a record left out
    /// is) and only its line feeds are written.
    private mutating func readElement(_ base: Bytes, _ cursor: inout Cursor, record typeEnd: Int?, open: Int,
                                      end: Int) -> AppleRecordTag.Outcome {
        let outcome = if let typeEnd {
            tag!.read(base.source, record: open, typeStart: open + recordOpening.count, typeEnd: typeEnd, end: end)
        } else {
            tag!.read(base.source, element: open + 8, end: end)
        }
        // The tag's fields one by one, not the tag bound whole (a copy: a retain and a release
        // of its buffers for each record, and of the reader).
        guard outcome == .read, reader != nil else { return outcome }
        let lineFeeds = tag!.lineFeeds
        let close = tag!.close
        var closeLine = line
        var closeLineStart = lineStart
        if lineFeeds > 0 {
            closeLine += lineFeeds
            closeLineStart = cursor.base + Int64(tag!.lastLineFeed) + 1
        }
        let place = AppleHealthParser.TagPlace(line: closeLine + lineShift,
                                               lineStart: base.source + Int(closeLineStart - cursor.base),
                                               close: base.source + close)
        if typeEnd != nil {
            var byHand = false
            if !tag!.isEmpty {
                switch AppleHandEntry.children(base.source, from: close + 1, end: end) {
                case .typed: break
                case .enteredByHand: byHand = true
                case .unclear: return .notPlain
                case .undecided: return .undecided
                }
            }
            reader!.readRecord(tag!.attributes, tag!.attributeCount, at: place, enteredByHand: byHand)
        } else {
            reader!.readWorkout(tag!.attributes, tag!.attributeCount, at: place)
        }
        recordsRead += 1
        for _ in 0..<lineFeeds {
            base.target.storeBytes(of: 0x0A, toByteOffset: cursor.write, as: UInt8.self)
            cursor.write += 1
        }
        line = closeLine
        lineStart = closeLineStart
        if tag!.isEmpty {
            cursor.read = close + 2
        } else {
            // Its children, up to its end tag.
            skip = .content
            skipName = typeEnd == nil ? Self.workoutName : Self.recordName
            skipDepth = 1
            nestedMatch = -1
            skipLine = line
            cursor.read = close + 1
        }
        return .read
    }

    /// A control character was met: stops, for the worker to drop them and select again (`sawControl`).
    private mutating func noteControl() {
        sawControl = true
        stopped = true
    }

    /// The piece has a record or workout libxml2 must read among records read here: stops, for
    /// the worker to parse the piece as a whole (`needsWholeParse`).
    private mutating func wholeParseNeeded() -> Bool {
        needsWholeParse = true
        stopped = true
        return true
    }

    // MARK: - Leaving out

    /// Leaves out the records of types not asked for that follow one another from `cursor` in
    /// their commonest form (`stepimport_skip_records`: white space, `<Record type="`, a plain
    /// start tag, plain children and end tags), in one C call, as `startSkipping` and
    /// `skipRecord` would leave each out: the same bytes written, lines and records counted. It
    /// stops before the first child of the root it does not leave out so, which `readMarkup`
    /// then reads. Only between two children of the root, without a census.
    private mutating func leaveOutRun(_ bytes: Bytes, _ cursor: inout Cursor, end: Int) {
        #if arch(x86_64)
        var run = stepimport_skip_run(read: cursor.read, write: cursor.write, records: 0, line_feeds: 0,
                                      last_line_feed: -1)
        let refused = nestedStepPattern.first ?? 0
        wantedBytes.withUnsafeBufferPointer { typeBytes in
            wantedLengths.withUnsafeBufferPointer { lengths in
                var types = stepimport_skip_types(bytes: typeBytes.baseAddress, lengths: lengths.baseAddress,
                                                  count: lengths.count, max_depth: AppleHealthParser.maxDepth,
                                                  refused_child_start: refused)
                stepimport_skip_records(bytes.source.assumingMemoryBound(to: UInt8.self), cursor.read, end,
                                        bytes.target.assumingMemoryBound(to: UInt8.self), &types, &run)
            }
        }
        guard run.records > 0 else { return }
        skippedRecords += run.records
        recordsLeftOutInRuns += run.records
        if run.line_feeds > 0 {
            line += run.line_feeds
            lineStart = cursor.base + Int64(run.last_line_feed) + 1
        }
        cursor.read = run.read
        cursor.write = run.write
        #endif
    }

    private mutating func startSkipping(_ base: Bytes, _ cursor: inout Cursor, open: Int, typeEnd: Int) {
        skippedRecords += 1
        startSkipping(name: Self.recordName, at: typeEnd + 1, &cursor)
    }

    /// Leaves out the child of the root named `name` whose `<` is at `open` (not a record: not
    /// counted as one).
    private mutating func startSkipping(element name: StaticString, _ cursor: inout Cursor, open: Int) {
        startSkipping(name: name, at: open + 1 + name.utf8CodeUnitCount, &cursor)
    }

    /// The skip of an element named `name`, from `from` inside its start tag (what is before it
    /// holds no line feed, and is dropped whole).
    private mutating func startSkipping(name: StaticString, at from: Int, _ cursor: inout Cursor) {
        skip = .tag(quote: 0, slash: false)
        skipName = name
        skipDepth = 1
        nestedMatch = -1
        skipLine = line
        cursor.read = from
    }

    /// The name in `otherElementsLeftOut` of the child of the root whose `<` is at `open`; nil when
    /// it is none of them, `.some(nil)` when more bytes are needed to tell.
    // `mutating` for the reason `topLevelRecord` is.
    private mutating func otherElementLeftOut(_ base: UnsafeRawPointer, at open: Int, end: Int) -> StaticString?? {
        for name in otherElementsLeftOut {
            let length = name.utf8CodeUnitCount
            let after = open + 1 + length
            guard after < end else {
                // Cut off: undecided if what there is could still be this name.
                let available = max(0, end - open - 1)
                if memcmp(base + open + 1, name.utf8Start, min(available, length)) == 0 { return .some(nil) }
                continue
            }
            guard memcmp(base + open + 1, name.utf8Start, length) == 0 else { continue }
            let next = base.load(fromByteOffset: after, as: UInt8.self)
            if isSpace(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: ">") { return .some(name) }
        }
        return .none
    }

    /// Reads a record being left out up to its end or `end`, keeping only its line feeds.
    private mutating func skipRecord(_ base: Bytes, _ cursor: inout Cursor, end: Int) {
        let raw = base.source
        var index = cursor.read
        var state = skip!
        // The bytes that matter in a tag or between tags, found 64 bytes at a time: `block` is where
        // the 64 bytes of `specials` start (one bit a byte).
        var block = Int.min
        var specials: UInt64 = 0
        // The tag being read was found not plain: it is read to its end by `nextSpecial`, so that
        // no tag is scanned to its `>` more than once (a tag of many lines, or of many tabs,
        // would otherwise be scanned again after each).
        var plainTagFailed = false
        /// After an element of the record closed: whether it was the record itself, which ends
        /// the skip before `next`.
        func endsRecord(before next: Int) -> Bool {
            guard skipDepth == 0 else { return false }
            skip = nil
            cursor.read = next
            return true
        }
        while index < end {
            // Fast paths: in a tag (most bytes of a record) and between tags, only the bytes
            // `isSpecial` names matter; the others are passed over without a look.
            switch state {
            case .tag(quote: 0, slash: false) where nestedMatch < 0 && !plainTagFailed:
                // Most tags are plain: their end found and checked at once, not byte by byte.
                if let close = AppleRecordSelector.plainTagEnd(raw, from: index, to: end) {
                    if raw.load(fromByteOffset: close - 1, as: UInt8.self) == UInt8(ascii: "/") { skipDepth -= 1 }
                    state = .content
                    index = close + 1
                    if endsRecord(before: index) { return }
                    continue
                }
                plainTagFailed = true
                tagsNotPlain += 1
                index = AppleRecordSelector.nextSpecial(raw, from: index, to: end, block: &block, bits: &specials)
            case .tag where nestedMatch < 0:
                index = AppleRecordSelector.nextSpecial(raw, from: index, to: end, block: &block, bits: &specials)
            case .content:
                index = AppleRecordSelector.nextSpecial(raw, from: index, to: end, block: &block, bits: &specials)
            default:
                break
            }
            guard index < end else { break }
            let byte = raw.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0A {
                // The line feed is kept.
                base.target.storeBytes(of: 0x0A, toByteOffset: cursor.write, as: UInt8.self)
                cursor.write += 1
                line += 1
                lineStart = cursor.base + Int64(index) + 1
                index += 1
                if case .tag(let quote, _) = state, quote == 0 { state = .tag(quote: 0, slash: false) }
                nestedMatch = -1
                continue
            }
            if AppleXMLPrefilter.isControl(byte) {
                cursor.read = index
                return noteControl()
            }
            switch state {
            case .tag(let quote, let slash):
                if nestedMatch >= 0 {
                    if nestedMatch < nestedStepPattern.count && byte == nestedStepPattern[nestedMatch] {
                        nestedMatch += 1
                        if nestedMatch == nestedStepPattern.count {
                            nestedStepRecords += 1
                            nestedMatch = -1
                        }
                    } else {
                        nestedMatch = -1
                    }
                }
                if byte == UInt8(ascii: "<") {
                    return failSkipping(quote != 0 ? "'<' inside an attribute value" : "'<' inside a tag", &cursor, index: index)
                }
                if quote != 0 {
                    if byte == quote { state = .tag(quote: 0, slash: false) }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    state = .tag(quote: byte, slash: false)
                } else if byte == UInt8(ascii: ">") {
                    // The fast scan passes over `/`: the byte before tells (or, at the start of
                    // this call, what the last call saw).
                    let empty = index > cursor.read ? raw.load(fromByteOffset: index - 1, as: UInt8.self) == UInt8(ascii: "/") : slash
                    if empty { skipDepth -= 1 }
                    state = .content
                } else {
                    state = .tag(quote: 0, slash: byte == UInt8(ascii: "/"))
                }
            case .content:
                // Quotes and `>` are text here.
                guard byte == UInt8(ascii: "<") else { break }
                // The common markup at once: a child's start tag (read on by the plain tag's
                // path) and a plain end tag. Anything else goes byte by byte.
                if index + 2 < end {
                    let next = raw.load(fromByteOffset: index + 1, as: UInt8.self)
                    if next == UInt8(ascii: "/"), let close = plainEndTag(raw, from: index + 2, to: end) {
                        skipDepth -= 1
                        index = close + 1
                        if endsRecord(before: index) { return }
                        continue
                    }
                    if isNameStart(next) && skipDepth < AppleHealthParser.maxDepth
                        && (nestedStepPattern.isEmpty || next != nestedStepPattern[0]) {
                        skipDepth += 1
                        nestedMatch = -1
                        state = .tag(quote: 0, slash: false)
                        plainTagFailed = false
                        index += 2
                        continue
                    }
                }
                state = .markupOpen
            case .markupOpen:
                if byte == UInt8(ascii: "/") {
                    state = .endTag(matched: skipDepth == 1 ? 0 : -1)
                } else if byte == UInt8(ascii: "!") {
                    state = .bang(dashes: 0)
                } else if byte == UInt8(ascii: "?") {
                    state = .instruction(question: false)
                } else if isNameStart(byte) {
                    skipDepth += 1
                    if skipDepth > AppleHealthParser.maxDepth {
                        return failSkipping("elements nested more than \(AppleHealthParser.maxDepth) deep", &cursor, index: index)
                    }
                    nestedMatch = nestedStepPattern.isEmpty || byte != nestedStepPattern[0] ? -1 : 1
                    state = .tag(quote: 0, slash: false)
                    plainTagFailed = false
                } else {
                    return failSkipping("'<' not followed by a name", &cursor, index: index)
                }
            case .bang(let dashes):
                if byte == UInt8(ascii: "-") {
                    state = dashes == 1 ? .comment(dashes: 0) : .bang(dashes: 1)
                } else if byte == UInt8(ascii: "[") && dashes == 0 {
                    state = .cdata(brackets: 0)
                } else {
                    return failSkipping("a declaration inside an element", &cursor, index: index)
                }
            case .endTag(let matched):
                if byte == UInt8(ascii: ">") {
                    if skipDepth == 1 && matched != skipName.utf8CodeUnitCount {
                    return failSkipping("the <\(skippedName)> of line \(skipLine) is closed by another end tag: tags are not balanced", &cursor, index: index)
                    }
                    skipDepth -= 1
                    state = .content
                } else if byte == UInt8(ascii: "<") {
                    return failSkipping("'<' inside an end tag", &cursor, index: index)
                } else if matched >= 0 {
                    if matched < skipName.utf8CodeUnitCount && byte == skipName.utf8Start[matched] {
                        state = .endTag(matched: matched + 1)
                    } else if matched == skipName.utf8CodeUnitCount && isSpace(byte) {
                        // White space before `>`.
                    } else {
                        state = .endTag(matched: -1)
                    }
                }
            case .comment(let dashes):
                if byte == UInt8(ascii: ">") && dashes >= 2 {
                    state = .content
                } else {
                    state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
                }
            case .cdata(let brackets):
                if byte == UInt8(ascii: ">") && brackets >= 2 {
                    state = .content
                } else {
                    state = .cdata(brackets: byte == UInt8(ascii: "]") ? brackets + 1 : 0)
                }
            case .instruction(let question):
                state = byte == UInt8(ascii: ">") && question ? .content : .instruction(question: byte == UInt8(ascii: "?"))
            }
            index += 1
            if endsRecord(before: index) { return }
        }
        if case .tag(0, _) = state, end > cursor.read {
            // For a `>` at the start of the next call.
            state = .tag(quote: 0, slash: raw.load(fromByteOffset: end - 1, as: UInt8.self) == UInt8(ascii: "/"))
        }
        skip = state
        cursor.read = end
    }

    /// The `>` of an end tag whose name starts at `start`, when it is plain: no `<` or byte below
    /// 0x20 before the `>`, and, for the end of the element being left out, its name, then only
    /// white space. nil otherwise: the byte-by-byte reading decides.
    @inline(__always)
    private func plainEndTag(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        guard let close = find(UInt8(ascii: ">"), base, from: start, to: end) else { return nil }
        var at = start
        if skipDepth == 1 {
            let length = skipName.utf8CodeUnitCount
            guard close - start >= length, memcmp(base + start, skipName.utf8Start, length) == 0 else { return nil }
            at += length
            while at < close {
                let byte = base.load(fromByteOffset: at, as: UInt8.self)
                guard byte == 0x20 || byte == 0x09 || byte == 0x0D else { return nil }
                at += 1
            }
            return close
        }
        while at < close {
            let byte = base.load(fromByteOffset: at, as: UInt8.self)
            if byte == UInt8(ascii: "<") || byte < 0x20 { return nil }
            at += 1
        }
        return close
    }

    private mutating func failSkipping(_ problem: String, _ cursor: inout Cursor, index: Int) {
        cursor.read = index
        fail("\(problem), in a <\(skippedName)> read for its structure only",
             at: cursor.base + Int64(index))
    }

    /// The name of the element being left out, for messages.
    private var skippedName: String { skipName.description }

    private mutating func fail(_ message: String, at offset: Int64) {
        guard failure == nil else { return }
        stopped = true
        let column = Int(clamping: offset - lineStart) + 1
        failure = ParseFailure(kind: .malformed, line: line, column: column, byteOffset: offset, message: message)
    }

    // MARK: - Bytes

    /// The bytes the fast scan of a record left out stops at (all below 64): both quotes, `<`,
    /// `>`, and every byte below 0x20 (line feeds, and control characters to notice). A literal,
    /// not a computed `static let`, which costs a `swift_once` per byte.
    @inline(__always)
    private static var specialBytes: UInt64 { 0x5000_0084_FFFF_FFFF }
    static var specialBytesForTests: UInt64 { specialBytes }

    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 64 && (specialBytes >> UInt64(byte)) & 1 != 0
    }

    /// The index of the first special byte (`isSpecial`) at or after `start`, or `end`. Looks at
    /// 64 bytes at a time and keeps their bits in `bits` (from `block`) for the next call, which
    /// must come with a `start` not before this one's.
    @inline(__always)
    static func nextSpecial(_ base: UnsafeRawPointer, from start: Int, to end: Int, block: inout Int,
                            bits: inout UInt64) -> Int {
        var at = start
        while true {
            let offset = at &- block
            if offset >= 0 && offset < 64 {
                let rest = bits & (~UInt64(0) << UInt64(offset))
                if rest != 0 { return block + rest.trailingZeroBitCount }
                at = block + 64
            }
            guard end - at >= 64 else {
                while at < end && !isSpecial(base.load(fromByteOffset: at, as: UInt8.self)) { at += 1 }
                return at
            }
            block = at
            bits = specials64(base + at)
        }
    }

    /// The `>` that ends a tag read from `start` (outside quotes, past its name), when the tag is
    /// plain: the bytes before it hold no `<`, `'`, byte below 0x20 (a line feed or a control
    /// character) or other `>`, and an even number of
    /// `"`, so that the `>` is outside quotes and the tag has no error the byte-by-byte reading
    /// would find. nil otherwise (and when there is no `>` before `end`): that reading decides.
    ///
    /// On x86-64 the scan is `stepimport_plain_tag_end` (CMarkupScan): the same rule, 32 bytes a
    /// step with AVX2 where the processor has it, else 16 with SSE2, the `>` found in the same
    /// pass and each vector's lanes made a bit mask in one instruction.
    @inline(__always)
    static func plainTagEnd(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        #if arch(x86_64)
        let close = stepimport_plain_tag_end(base.assumingMemoryBound(to: UInt8.self), start, end)
        return close < 0 ? nil : close
        #else
        return plainTagEndBySIMD16(base, from: start, to: end)
        #endif
    }

    /// `plainTagEnd` in Swift's SIMD types, where CMarkupScan has no scan: the `>` found by
    /// `memchr`, then the bytes before it looked at sixteen at a time (four times sixteen in a
    /// step), with no branch but the loop's; the last ones in one more load that ends at the `>`
    /// and overlaps bytes already looked at, whose lanes are then left out.
    @inline(__always)
    static func plainTagEndBySIMD16(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, 0x3E, end - start) else { return nil }
        let close = UnsafeRawPointer(found) - base
        guard close > start else { return nil }
        var quotes = SIMD16<UInt8>(repeating: 0)
        var others = SIMD16<UInt8>(repeating: 0)
        var at = start
        while close &- at >= 64 {
            tagBytes16(base + at, quotes: &quotes, others: &others)
            tagBytes16(base + at + 16, quotes: &quotes, others: &others)
            tagBytes16(base + at + 32, quotes: &quotes, others: &others)
            tagBytes16(base + at + 48, quotes: &quotes, others: &others)
            at &+= 64
        }
        while close &- at >= 16 {
            tagBytes16(base + at, quotes: &quotes, others: &others)
            at &+= 16
        }
        if at < close {
            if close - start >= 16 {
                // The sixteen bytes before the `>`: lanes before `at` were looked at already.
                let from = close - 16
                var lastQuotes = SIMD16<UInt8>(repeating: 0)
                var lastOthers = SIMD16<UInt8>(repeating: 0)
                tagBytes16(base + from, quotes: &lastQuotes, others: &lastOthers)
                let lanes = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
                let seen = lanes .< SIMD16<UInt8>(repeating: UInt8(truncatingIfNeeded: at - from))
                let fresh = ~unsafeBitCast(seen, to: SIMD16<UInt8>.self)
                quotes ^= lastQuotes & fresh
                others |= lastOthers & fresh
            } else {
                var odd = false
                while at < close {
                    let byte = base.load(fromByteOffset: at, as: UInt8.self)
                    if byte == 0x3C || byte == 0x27 || byte < 0x20 { return nil }
                    if byte == 0x22 { odd.toggle() }
                    at += 1
                }
                if odd { quotes ^= SIMD16<UInt8>(255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
            }
        }
        guard !ByteLanes.isAnySet(others) else { return nil }
        // Each lane is 0xFF when it saw an odd number of quotes: the count is even when an even
        // number of lanes are.
        let quoteHalves = unsafeBitCast(quotes, to: SIMD2<UInt64>.self)
        let lanes = (quoteHalves[0] & 0x0101_0101_0101_0101).nonzeroBitCount
            + (quoteHalves[1] & 0x0101_0101_0101_0101).nonzeroBitCount
        return lanes & 1 == 0 ? close : nil
    }

    /// Adds the sixteen bytes at `base` to a plain tag's scan: their `"` to `quotes` (a lane
    /// flips for each), their `<`, `'` and bytes below 0x20 (line feeds, control characters) to
    /// `others`.
    @inline(__always)
    private static func tagBytes16(_ base: UnsafeRawPointer, quotes: inout SIMD16<UInt8>, others: inout SIMD16<UInt8>) {
        // One operation a line, literal bytes: see `specials16`.
        let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let quote = bytes .== SIMD16<UInt8>(repeating: 0x22)
        let open = bytes .== SIMD16<UInt8>(repeating: 0x3C)
        let apostrophe = bytes .== SIMD16<UInt8>(repeating: 0x27)
        let low = bytes .< SIMD16<UInt8>(repeating: 0x20)
        quotes ^= unsafeBitCast(quote, to: SIMD16<UInt8>.self)
        others |= unsafeBitCast(open .| apostrophe .| low, to: SIMD16<UInt8>.self)
    }

    /// A line feed and a space, as a little-endian word.
    private static var lineFeedAndSpace: UInt16 { 0x200A }

    /// `<Record type="` as two little-endian words: its first eight bytes and its last eight.
    private static var openingHead: UInt64 { 0x2064_726F_6365_523C }
    private static var openingTail: UInt64 { 0x223D_6570_7974_2064 }

    /// The first byte from `start` that ends a type or makes its record pass (`typeStops16`),
    /// looked at in the steps of sixteen bytes that fit before `limit`; nil when none. On x86-64
    /// `stepimport_type_stop` (CMarkupScan), elsewhere `typeStopBySIMD16`.
    @inline(__always)
    static func typeStop(_ base: UnsafeRawPointer, from start: Int, to limit: Int) -> Int? {
        #if arch(x86_64)
        let stop = stepimport_type_stop(base.assumingMemoryBound(to: UInt8.self), start, limit)
        return stop < 0 ? nil : stop
        #else
        return typeStopBySIMD16(base, from: start, to: limit)
        #endif
    }

    /// `typeStop` in Swift's SIMD types, where CMarkupScan has no scan.
    @inline(__always)
    static func typeStopBySIMD16(_ base: UnsafeRawPointer, from start: Int, to limit: Int) -> Int? {
        var at = start
        while at + 16 <= limit {
            let stops = typeStops16(base + at)
            if stops != 0 { return at + stops.trailingZeroBitCount }
            at += 16
        }
        return nil
    }

    /// One bit for each of the 16 bytes at `base` that ends a type or makes its record pass:
    /// `"`, `&`, `<`, a byte below 0x20.
    @inline(__always)
    private static func typeStops16(_ base: UnsafeRawPointer) -> UInt64 {
        // One compare a line, with literal bytes: see `specials16`.
        let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let quotes = bytes .== SIMD16<UInt8>(repeating: 0x22)
        let ampersands = bytes .== SIMD16<UInt8>(repeating: 0x26)
        let opens = bytes .== SIMD16<UInt8>(repeating: 0x3C)
        let lows = bytes .< SIMD16<UInt8>(repeating: 0x20)
        return ByteLanes.bits(quotes .| ampersands .| opens .| lows)
    }

    /// One bit for each special byte of the 64 at `base` (bit 0: the first byte). On x86-64
    /// `stepimport_special_bits` (CMarkupScan: AVX2 where the processor has it, else SSE2, each
    /// vector's lanes made bits in one instruction); elsewhere `specials16` four times.
    @inline(__always)
    static func specials64(_ base: UnsafeRawPointer) -> UInt64 {
        #if arch(x86_64)
        stepimport_special_bits(base.assumingMemoryBound(to: UInt8.self))
        #else
        specials64BySIMD16(base)
        #endif
    }

    /// `specials64` in Swift's SIMD types, where CMarkupScan has no scan.
    @inline(__always)
    static func specials64BySIMD16(_ base: UnsafeRawPointer) -> UInt64 {
        specials16(base) | specials16(base + 16) << 16 | specials16(base + 32) << 32 | specials16(base + 48) << 48
    }

    /// One bit for each special byte of the 16 at `base` (bit 0: the first byte): vector
    /// compares, their lanes made bits by `ByteLanes`.
    @inline(__always)
    private static func specials16(_ base: UnsafeRawPointer) -> UInt64 {
        // Written out one compare a line, with literal bytes: as one expression (or with
        // `UInt8(ascii:)`), the compiler compares lane by lane, 15 times slower than the whole run.
        let bytes = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let quotes = bytes .== SIMD16<UInt8>(repeating: 0x22)
        let apostrophes = bytes .== SIMD16<UInt8>(repeating: 0x27)
        let opens = bytes .== SIMD16<UInt8>(repeating: 0x3C)
        let closes = bytes .== SIMD16<UInt8>(repeating: 0x3E)
        let lows = bytes .< SIMD16<UInt8>(repeating: 0x20)
        let found = quotes .| apostrophes .| opens .| closes .| lows
        return ByteLanes.bits(found)
    }

    private func declaresUTF8OrNothing(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        let text = Array(UnsafeRawBufferPointer(start: base + start, count: end - start))
        guard matches("<?xml", base, at: start, end: end) else { return true }
        return TopLevelBoundaryScanner.declaresUTF8OrNothing(text)
    }

}
