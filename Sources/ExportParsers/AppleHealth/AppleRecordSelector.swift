import Glibc
import HealthDays

/// Leaves out, before libxml2 sees them, the top-level `<Record>`s whose `type` nobody asked for,
/// checking only their structure; everything else passes as it is.
///
/// It works in place on the reader's buffer, behind `AppleXMLPrefilter`: bytes it has not decided
/// on yet (markup cut off at the end of the buffer) stay where they are for the next call, so it
/// needs no buffer of its own and never grows its input. A record is left out when it is a child
/// of the root whose start tag begins exactly `<Record type="` and whose type (without `&`) is
/// not in the asked set; every other element, and every record written another way, passes.
///
/// Of a record left out, only its line breaks are kept (line numbers of later errors stay right),
/// the rest is dropped and noted in `dropped` (byte offsets stay right). Its bytes are still
/// checked for structure: tags balanced and the record closed by `</Record>`, quotes closed in
/// tags, no `<` in a tag or an attribute value, comments, CDATA and instructions closed, and the
/// document not ending inside it. Full XML well-formedness inside it (names, entities, duplicate
/// attributes, characters) is not checked: that is `--strict-xml`.
///
/// Passing bytes are read by markup, like `TopLevelBoundaryScanner`: from `<` to `<`, a `memchr`
/// per element. When it cannot tell what the document is (another encoding, a DOCTYPE left in
/// the body, markup longer than the buffer) it stops selecting and passes the rest whole.
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
    /// Step records nested in records left out (the parser counts those it sees the same way).
    private(set) var nestedStepRecords = 0
    /// Where bytes were dropped, to place libxml2's offsets in the prefilter's output.
    private(set) var dropped = DroppedBytes()
    /// The structure error that stopped the selection, if any.
    private(set) var failure: ParseFailure?

    /// The types whose records pass, longest first (compared by length, then bytes).
    private let wanted: [[UInt8]]
    private let longestWanted: Int
    /// `Record type="HKQuantityTypeIdentifierStepCount"` after a `<`, when step records are asked for.
    private let nestedStepPattern: [UInt8]

    /// Offset in the prefilter's output of the next byte to read, and of the start of its line.
    private var position: Int64 = 0
    private var lineStart: Int64 = 0
    /// Line of the next byte to read (1-based), as libxml2 counts (line feeds only).
    private var line = 1
    /// Bytes kept so far: the offset in the selected stream of the next byte written.
    private var kept: Int64 = 0

    private let recordOpening: [UInt8] = Array("<Record type=\"".utf8)
    private let recordName: [UInt8] = Array("Record".utf8)
    /// Beyond this a type is not looked at (the record passes); Apple's longest is 58 bytes.
    static let typeLimit = 256

    /// `wantedTypes`: the `type`s whose records pass (`wantedTypes(for:)`).
    init(wantedTypes: [[UInt8]]) {
        wanted = wantedTypes
        longestWanted = wantedTypes.map(\.count).max() ?? 0
        let step = AppleHealthParser.stepType
        nestedStepPattern = wantedTypes.contains(step) ? Array("Record type=\"".utf8) + step + [UInt8(ascii: "\"")] : []
    }

    /// The record types read when `metrics` are asked for: steps (when asked, or alone) and the
    /// types of the other metrics, as `AppleHealthParser` decides.
    static func wantedTypes(for metrics: MetricSet) -> [[UInt8]] {
        var types: [[UInt8]] = []
        if metrics.isStepsOnly || metrics.contains(.steps) { types.append(AppleHealthParser.stepType) }
        if !metrics.isStepsOnly { types += AppleMetricType.types(wantedIn: metrics) }
        return types
    }

    /// Stops selecting: every byte from the next call on passes.
    mutating func stop() {
        if skip == nil { mode = .off }
    }

    /// Whether a record is being left out (its end not read yet).
    var isInsideSkippedRecord: Bool { skip != nil }

    /// Selects in place the bytes `buffer[start..<end]` (which follow the bytes already selected):
    /// returns where the selected bytes now end and where the buffer's bytes end (the part in
    /// between is markup not decided yet, read again on the next call). After a failure nothing
    /// more is selected: `selected == count` at the failure.
    mutating func select(_ buffer: UnsafeMutableRawBufferPointer, from start: Int, to end: Int) -> (selected: Int, count: Int) {
        guard failure == nil, start < end, let base = buffer.baseAddress else { return (start, end) }
        if mode == .off && skip == nil {
            // Nothing moves and no error can come any more: lines need not be counted.
            position += Int64(end - start)
            kept += Int64(end - start)
            return (end, end)
        }
        var cursor = Cursor(read: start, write: start, base: position - Int64(start))
        while cursor.read < end, failure == nil {
            if skip != nil {
                skipRecord(base, &cursor, end: end)
            } else if mode == .off {
                passSpan(base, &cursor, to: end)
            } else if !readMarkup(base, &cursor, end: end) {
                // Undecided markup: kept where it is, after the selected bytes, for the next call.
                let tail = end - cursor.read
                if cursor.write != cursor.read { memmove(base + cursor.write, base + cursor.read, tail) }
                position = cursor.base + Int64(cursor.read)
                return (cursor.write, cursor.write + tail)
            }
        }
        position = cursor.base + Int64(cursor.read)
        return (cursor.write, cursor.write)
    }

    /// At the end of the document: fails when it ends inside a record left out. Undecided bytes
    /// left by the last call pass as they are (libxml2 reports what is wrong with them).
    mutating func finish() {
        guard failure == nil, skip != nil else { return }
        fail("the document ends inside <Record> (line \(skipLine)) before </HealthData>: the file is truncated",
             at: position)
    }

    // MARK: - Passing

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
    private mutating func readMarkup(_ base: UnsafeMutableRawPointer, _ cursor: inout Cursor, end: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        guard let open = find(UInt8(ascii: "<"), raw, from: cursor.read, to: end) else {
            passSpan(base, &cursor, to: end)
            return true
        }
        passSpan(base, &cursor, to: open)
        guard open + 1 < end else { return false }
        let next = raw.load(fromByteOffset: open + 1, as: UInt8.self)
        switch next {
        case UInt8(ascii: "/"):
            guard let close = find(UInt8(ascii: ">"), raw, from: open + 2, to: end) else { return false }
            passSpan(base, &cursor, to: close + 1)
            if mode == .body {
                depth -= 1
                if depth <= 0 { mode = .off }
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
            if mode == .body && depth == 1, let typeEnd = skippableType(raw, at: open, end: end) {
                guard typeEnd >= 0 else { return false }
                startSkipping(base, &cursor, open: open, typeEnd: typeEnd)
                return true
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
    private mutating func passSpan(_ base: UnsafeMutableRawPointer, _ cursor: inout Cursor, to end: Int) {
        guard end > cursor.read else { return }
        let count = end - cursor.read
        if cursor.write != cursor.read { memmove(base + cursor.write, base + cursor.read, count) }
        countLines(UnsafeRawPointer(base), from: cursor.write, to: cursor.write + count,
                   streamOffset: cursor.base + Int64(cursor.read))
        kept += Int64(count)
        cursor.read = end
        cursor.write += count
    }

    /// For a `<` at `open` at top level: the end of the type (its closing quote) of a record to
    /// leave out, -1 when that cannot be told before more bytes come, nil when it passes.
    private func skippableType(_ base: UnsafeRawPointer, at open: Int, end: Int) -> Int? {
        let opening = recordOpening
        let available = min(opening.count, end - open)
        guard opening.withUnsafeBytes({ memcmp(base + open, $0.baseAddress!, available) }) == 0 else { return nil }
        guard available == opening.count else { return -1 }
        let typeStart = open + opening.count
        let limit = min(end, typeStart + AppleRecordSelector.typeLimit)
        guard let quote = find(UInt8(ascii: "\""), base, from: typeStart, to: limit) else {
            return limit == end && end - typeStart < AppleRecordSelector.typeLimit ? -1 : nil
        }
        let length = quote - typeStart
        // An entity could spell a wanted type another way: such a record passes.
        if find(UInt8(ascii: "&"), base, from: typeStart, to: quote) != nil { return nil }
        if length <= longestWanted {
            for type in wanted where type.count == length {
                if type.withUnsafeBytes({ memcmp(base + typeStart, $0.baseAddress!, length) }) == 0 { return nil }
            }
        }
        return quote
    }

    // MARK: - Leaving out

    private mutating func startSkipping(_ base: UnsafeMutableRawPointer, _ cursor: inout Cursor, open: Int, typeEnd: Int) {
        skippedRecords += 1
        skip = .tag(quote: 0, slash: false)
        skipDepth = 1
        nestedMatch = -1
        skipLine = line
        // `<Record type="...` has no line feed: dropped whole.
        dropped.record(Int64(typeEnd + 1 - open), at: kept)
        cursor.read = typeEnd + 1
    }

    /// Reads a record being left out up to its end or `end`, keeping only its line feeds.
    private mutating func skipRecord(_ base: UnsafeMutableRawPointer, _ cursor: inout Cursor, end: Int) {
        let raw = UnsafeRawPointer(base)
        var index = cursor.read
        var runStart = index
        var state = skip!
        while index < end {
            // Fast paths: the long runs inside quoted values and text.
            switch state {
            case .tag(let quote, _) where nestedMatch < 0:
                if quote != 0 {
                    // Inside a quoted value (most bytes of a record): only its quote, `<` and a line
                    // feed matter, eight bytes at a time.
                    index = AppleRecordSelector.scan(raw, from: index, to: end, quote, UInt8(ascii: "<"), 0x0A)
                } else {
                    // Between attributes: a few letters of a name, one test each.
                    while index < end {
                        let byte = raw.load(fromByteOffset: index, as: UInt8.self)
                        if byte < 64 && (AppleRecordSelector.tagSpecials >> UInt64(byte)) & 1 != 0 { break }
                        index += 1
                    }
                }
            case .content:
                index = AppleRecordSelector.scan(raw, from: index, to: end, UInt8(ascii: "<"), 0x0A, 0x0A)
            default:
                break
            }
            guard index < end else { break }
            let byte = raw.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0A {
                dropRun(runStart, index)
                // The line feed is kept.
                base.storeBytes(of: 0x0A, toByteOffset: cursor.write, as: UInt8.self)
                cursor.write += 1
                kept += 1
                line += 1
                lineStart = cursor.base + Int64(index) + 1
                index += 1
                runStart = index
                if case .tag(let quote, _) = state, quote == 0 { state = .tag(quote: 0, slash: false) }
                nestedMatch = -1
                continue
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
                    // Bytes between a `/` and this `>` may have been passed over by the fast scan.
                    let empty = index > cursor.read ? raw.load(fromByteOffset: index - 1, as: UInt8.self) == UInt8(ascii: "/") : slash
                    if empty { skipDepth -= 1 }
                    state = .content
                } else {
                    state = .tag(quote: 0, slash: byte == UInt8(ascii: "/"))
                }
            case .content:
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
                    if skipDepth == 1 && matched != recordName.count {
                    return failSkipping("the <Record> of line \(skipLine) is closed by another end tag: tags are not balanced", &cursor, index: index)
                    }
                    skipDepth -= 1
                    state = .content
                } else if byte == UInt8(ascii: "<") {
                    return failSkipping("'<' inside an end tag", &cursor, index: index)
                } else if matched >= 0 {
                    if matched < recordName.count && byte == recordName[matched] {
                        state = .endTag(matched: matched + 1)
                    } else if matched == recordName.count && isSpace(byte) {
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
            if skipDepth == 0 {
                dropRun(runStart, index)
                skip = nil
                cursor.read = index
                return
            }
        }
        dropRun(runStart, end)
        skip = state
        cursor.read = end
    }

    private mutating func failSkipping(_ problem: String, _ cursor: inout Cursor, index: Int) {
        cursor.read = index
        fail("\(problem), in a <Record> of a type not asked for (read for its structure only)",
             at: cursor.base + Int64(index))
    }

    /// Drops `start..<end` of a record left out.
    @inline(__always)
    private mutating func dropRun(_ start: Int, _ end: Int) {
        if end > start { dropped.record(Int64(end - start), at: kept) }
    }

    private mutating func fail(_ message: String, at offset: Int64) {
        guard failure == nil else { return }
        let column = Int(clamping: offset - lineStart) + 1
        failure = ParseFailure(kind: .malformed, line: line, column: column, byteOffset: offset, message: message)
    }

    // MARK: - Bytes

    /// The bytes a tag's scan stops at (all below 64): line feed, quotes, `/`, `<`, `>`.
    /// A literal, not a computed `static let`: that one cost a `swift_once` per byte (a quarter of a run).
    @inline(__always)
    private static var tagSpecials: UInt64 { 0x5000_8084_0000_0400 }
    static var tagSpecialsForTests: UInt64 { tagSpecials }

    /// The index of the first of three bytes in `start..<end`, or `end`; eight bytes at a time.
    @inline(__always)
    private static func scan(_ base: UnsafeRawPointer, from start: Int, to end: Int, _ a: UInt8, _ b: UInt8,
                             _ c: UInt8) -> Int {
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let ma = ones &* UInt64(a), mb = ones &* UInt64(b), mc = ones &* UInt64(c)
        while index + 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let xa = word ^ ma, xb = word ^ mb, xc = word ^ mc
            let found = ((xa &- ones) & ~xa) | ((xb &- ones) & ~xb) | ((xc &- ones) & ~xc)
            if found & highs != 0 { break }
            index += 8
        }
        while index < end {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == a || byte == b || byte == c { return index }
            index += 1
        }
        return end
    }

    private func declaresUTF8OrNothing(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        let text = Array(UnsafeRawBufferPointer(start: base + start, count: end - start))
        guard matches("<?xml", base, at: start, end: end) else { return true }
        return TopLevelBoundaryScanner.declaresUTF8OrNothing(text)
    }

}
