import Glibc
import HealthDays

/// Finds places where an XML document can be cut between two children of its root element, so
/// that each piece can be parsed on its own inside a copy of the root's start tag.
///
/// A boundary is the start of a line that follows the end of a child of the root (an end tag
/// or an empty-element tag, then only white space with a line break), where the next markup is
/// another start tag. Cutting at line starts keeps every column of a piece what it is in the
/// file, so only line numbers need shifting.
///
/// The scanner reads markup, not the whole grammar: it jumps from `<` to `<` (a `<` cannot occur
/// in an attribute value or in text, only in comments, CDATA and processing instructions, which it
/// skips whole), so it costs a `memchr` per element. Its answer is therefore a guess. The parse of
/// each piece confirms it: a piece parsed inside `<Root ...>` ... `</Root>` without an error proves
/// that the cut after it was between two children, because `</Root>` anywhere else (inside a child,
/// a comment, a tag or an attribute) is an error. A wrong guess costs speed, never correctness.
struct TopLevelBoundaryScanner: MarkupBytes {
    enum Phase: Equatable {
        /// Before the root element's start tag.
        case prolog
        /// Inside the root element, where boundaries are looked for.
        case body
        /// No more boundaries: the root has ended, the document is not one this scanner can cut
        /// (another encoding, a declaration in the body), or the caller stopped it.
        case done
    }

    private(set) var phase = Phase.prolog
    /// Elements open at `position` (1 inside the root).
    private(set) var depth = 0
    /// The next byte to look at; always outside markup.
    private(set) var position = 0
    /// A `<` already found at or after `position`, to avoid searching twice.
    private var nextOpen: Int?
    /// The last markup closed a child of the root; the gap after it, from `gapStart`, may hold a boundary.
    private var closedChild = false
    private var gapStart = 0
    /// The latest boundary seen before the target, for when the buffer fills up before one is found after it.
    private(set) var lastBoundary: Int?
    /// The XML declaration (`<?xml ...?>`), if the document has one.
    private(set) var declaration: [UInt8]?
    /// The root element's start tag, once it has been read.
    private(set) var rootStartTag: [UInt8]?
    /// The root element's name.
    private(set) var rootName: [UInt8]?
    /// The line the root's start tag begins on.
    private(set) var rootLine = 1
    /// The white space that begins the line of every child of the root read so far (Apple writes
    /// one space), while no deeper element's line begins with the same; nil before the first
    /// child and once that no longer holds.
    private var indent: [UInt8]?
    private var indentHolds = true
    /// Children of the root read so far.
    private var children = 0

    init() {}

    /// A scanner for bytes that start between two children of the root (at a boundary), as a
    /// piece after the first does.
    static func betweenChildren() -> TopLevelBoundaryScanner {
        var scanner = TopLevelBoundaryScanner()
        scanner.phase = .body
        scanner.depth = 1
        return scanner
    }

    /// The indentation of the children of the root, once at least `minimumChildren` were read
    /// and every one began its own line with it (and no deeper element's line did), else nil.
    /// With it, a boundary can be found by looking at line starts only (`childLine`).
    func childIndent(minimumChildren: Int) -> [UInt8]? {
        guard indentHolds, children >= minimumChildren, let indent, !indent.isEmpty else { return nil }
        return indent
    }

    /// The first line start at or after `start` (and after a line feed at `start - 1` or later)
    /// that begins like a child of the root in a document whose children are indented by
    /// `indent`: the line before ends with `>` (then white space), and this one is `indent`, `<`
    /// and the first byte of a name. nil when there is none in `bytes`.
    ///
    /// Like every boundary this is a guess that the parse of the pieces confirms; it fails only
    /// where an element's line is indented like the root's children without being one, which
    /// costs speed (the rest of the document is parsed in one piece), never correctness.
    func childLine(_ bytes: UnsafeRawBufferPointer, from start: Int, indent: [UInt8]) -> Int? {
        guard let base = bytes.baseAddress, start >= 1 else { return nil }
        let count = bytes.count
        let width = indent.count
        var from = start - 1
        while from < count, let found = memchr(base + from, 0x0A, count - from) {
            let lineFeed = UnsafeRawPointer(found) - base
            from = lineFeed + 1
            let lineStart = lineFeed + 1
            guard lineStart + width + 2 <= count else { return nil }
            guard indent.withUnsafeBytes({ memcmp(base + lineStart, $0.baseAddress!, width) }) == 0,
                  base.load(fromByteOffset: lineStart + width, as: UInt8.self) == UInt8(ascii: "<") else { continue }
            guard isNameStart(base.load(fromByteOffset: lineStart + width + 1, as: UInt8.self)) else { continue }
            var before = lineFeed - 1
            while before >= 0, case let byte = base.load(fromByteOffset: before, as: UInt8.self),
                  byte == 0x20 || byte == 0x09 || byte == 0x0D {
                before -= 1
            }
            if before >= 0 && base.load(fromByteOffset: before, as: UInt8.self) == UInt8(ascii: ">") { return lineStart }
        }
        return nil
    }

    /// Reads `bytes` (the current piece; it only grows between calls, until `rebase`) from where
    /// the last call stopped, and returns the first boundary at or after `target`, or nil when
    /// there is none yet. Markup cut off at the end of `bytes` is read again on the next call.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, target: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        while phase != .done {
            let open: Int
            if let known = nextOpen {
                open = known
            } else if let found = find(UInt8(ascii: "<"), base, from: position, to: count) {
                open = found
                nextOpen = found
            } else {
                position = count
                return nil
            }
            guard open + 1 < count else { return nil }
            let next = base.load(fromByteOffset: open + 1, as: UInt8.self)
            if closedChild {
                closedChild = false
                if let boundary = boundary(base, gap: gapStart..<open, before: next) {
                    if boundary >= target {
                        position = open
                        return boundary
                    }
                    lastBoundary = boundary
                }
            }
            // Markup cut off at the end: it is read again, from `open`, on the next call.
            guard readMarkup(base, count: count, at: open, next: next) else { return nil }
        }
        return nil
    }

    /// The piece was cut at `offset` and its bytes from there moved to the start of the next buffer.
    mutating func rebase(cutAt offset: Int) {
        precondition(offset <= position, "cut after the scanned part")
        position -= offset
        nextOpen = nextOpen.map { $0 - offset }
        gapStart = max(0, gapStart - offset)
        lastBoundary = nil
    }

    /// Ends the search: no more boundaries will be reported.
    mutating func stop() {
        phase = .done
    }

    /// What a piece after the first is parsed inside: the declaration and the root's start tag on
    /// one line (line breaks in them become spaces, control characters are dropped: the reader
    /// leaves those of the body, and the start tag is), then a line break, so that the piece starts
    /// on line 2.
    var piecePrefix: [UInt8]? {
        guard let rootStartTag else { return nil }
        var prefix = (declaration ?? []) + rootStartTag
        prefix.removeAll { AppleXMLPrefilter.isControl($0) }
        for index in prefix.indices where prefix[index] == 0x0A || prefix[index] == 0x0D {
            prefix[index] = 0x20
        }
        prefix.append(0x0A)
        return prefix
    }

    /// What closes a piece before the last: the root's end tag (without control characters, as
    /// the prefix).
    var pieceSuffix: [UInt8]? {
        rootName.map { Array("</".utf8) + $0.filter { !AppleXMLPrefilter.isControl($0) } + [UInt8(ascii: ">")] }
    }

    // MARK: - Markup

    /// Reads the markup starting at `open`; false when it runs past the end of the bytes.
    private mutating func readMarkup(_ base: UnsafeRawPointer, count: Int, at open: Int, next: UInt8) -> Bool {
        switch next {
        case UInt8(ascii: "/"):
            guard let close = find(UInt8(ascii: ">"), base, from: open + 2, to: count) else {
                return incomplete(at: open)
            }
            depth -= 1
            moveOn(to: close + 1)
            if depth == 1 {
                closedChild = true
                gapStart = close + 1
            } else if depth <= 0 {
                phase = .done
            }
        case UInt8(ascii: "!"):
            return readDeclaration(base, count: count, at: open)
        case UInt8(ascii: "?"):
            guard let end = find(sequence: "?>", base, from: open + 2, to: count) else { return incomplete(at: open) }
            if phase == .prolog && declaration == nil && rootStartTag == nil
                && matches("<?xml", base, at: open, end: count) && open + 5 < count
                && isSpace(base.load(fromByteOffset: open + 5, as: UInt8.self)) {
                let text = Array(UnsafeRawBufferPointer(start: base + open, count: end + 2 - open))
                declaration = text
                if !TopLevelBoundaryScanner.declaresUTF8OrNothing(text) { phase = .done }
            }
            moveOn(to: end + 2)
        default:
            return readStartTag(base, count: count, at: open, next: next)
        }
        return true
    }

    private mutating func readDeclaration(_ base: UnsafeRawPointer, count: Int, at open: Int) -> Bool {
        if matches("<!--", base, at: open, end: count) {
            guard let end = find(sequence: "-->", base, from: open + 4, to: count) else { return incomplete(at: open) }
            moveOn(to: end + 3)
        } else if matches("<![CDATA[", base, at: open, end: count) {
            guard let end = find(sequence: "]]>", base, from: open + 9, to: count) else { return incomplete(at: open) }
            moveOn(to: end + 3)
        } else if (count - open < 4 && matchesAvailable("<!--", base, at: open, count: count))
                    || (count - open < 9 && matchesAvailable("<![CDATA[", base, at: open, count: count)) {
            return incomplete(at: open)
        } else {
            // A DOCTYPE the prefilter left, or something that is not XML: do not cut this document.
            phase = .done
        }
        return true
    }

    private mutating func readStartTag(_ base: UnsafeRawPointer, count: Int, at open: Int, next: UInt8) -> Bool {
        guard isNameStart(next) else {
            phase = .done
            return true
        }
        // The tag ends before the next `<`: the last `>` before it, unless text follows the tag.
        guard let following = find(UInt8(ascii: "<"), base, from: open + 1, to: count) else {
            return incomplete(at: open)
        }
        var end = following - 1
        while end > open && isSpace(base.load(fromByteOffset: end, as: UInt8.self)) { end -= 1 }
        if base.load(fromByteOffset: end, as: UInt8.self) != UInt8(ascii: ">") {
            guard let exact = tagEnd(base, from: open + 1, to: following) else {
                phase = .done
                return true
            }
            end = exact
        }
        let isEmpty = base.load(fromByteOffset: end - 1, as: UInt8.self) == UInt8(ascii: "/")
        nextOpen = following
        position = end + 1
        if phase == .prolog {
            rootStartTag = Array(UnsafeRawBufferPointer(start: base + open, count: end + 1 - open))
            // Nothing is cut before the root, so the bytes still start at the start of the document.
            rootLine = 1 + UnsafeRawBufferPointer(start: base, count: open).reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            var nameEnd = open + 1
            while nameEnd < end, !isNameEnd(base.load(fromByteOffset: nameEnd, as: UInt8.self)) { nameEnd += 1 }
            rootName = Array(UnsafeRawBufferPointer(start: base + open + 1, count: nameEnd - open - 1))
            if isEmpty {
                phase = .done
            } else {
                depth = 1
                phase = .body
            }
        } else {
            noteIndent(base, open: open)
            if !isEmpty {
                depth += 1
            } else if depth == 1 {
                closedChild = true
                gapStart = end + 1
            }
        }
        return true
    }

    /// Checks the white space before the start tag at `open` against the children's indentation.
    private mutating func noteIndent(_ base: UnsafeRawPointer, open: Int) {
        guard indentHolds else { return }
        var lineStart = open
        while lineStart > 0, case let byte = base.load(fromByteOffset: lineStart - 1, as: UInt8.self),
              byte == 0x20 || byte == 0x09 {
            lineStart -= 1
        }
        // A line feed before the white space, or the start of the bytes: the document's, or a
        // cut's, and every cut is at a line start.
        let beginsLine = lineStart == 0 || base.load(fromByteOffset: lineStart - 1, as: UInt8.self) == 0x0A
        let prefix = UnsafeRawBufferPointer(start: base + lineStart, count: open - lineStart)
        if depth == 1 {
            children += 1
            guard beginsLine else {
                indentHolds = false
                return
            }
            if let indent {
                if !indent.elementsEqual(prefix) { indentHolds = false }
            } else {
                indent = Array(prefix)
            }
        } else if beginsLine, let indent, indent.elementsEqual(prefix) {
            indentHolds = false
        }
    }

    /// A boundary in the white space between a closed child and the next markup: the start of the
    /// line after the gap's last line break, if the gap is only white space and a start tag follows.
    private func boundary(_ base: UnsafeRawPointer, gap: Range<Int>, before next: UInt8) -> Int? {
        guard isNameStart(next) else { return nil }
        var lineStart: Int?
        for index in gap {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0A {
                lineStart = index + 1
            } else if !isSpace(byte) {
                return nil
            }
        }
        return lineStart
    }

    private mutating func moveOn(to offset: Int) {
        position = offset
        if let known = nextOpen, known < offset { nextOpen = nil }
    }

    private mutating func incomplete(at open: Int) -> Bool {
        position = open
        nextOpen = open
        return false
    }

    // MARK: - Bytes

    /// Whether the bytes available at `offset` are a beginning of `text`.
    private func matchesAvailable(_ text: StaticString, _ base: UnsafeRawPointer, at offset: Int, count: Int) -> Bool {
        let length = min(text.utf8CodeUnitCount, count - offset)
        return memcmp(base + offset, text.utf8Start, length) == 0
    }

    @inline(__always)
    private func isNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    /// Whether an XML declaration names no encoding or UTF-8: the only case where the bytes can be
    /// cut and re-framed as they are.
    static func declaresUTF8OrNothing(_ declaration: [UInt8]) -> Bool {
        let text = String(decoding: declaration, as: UTF8.self)
        guard let range = text.range(of: "encoding") else { return true }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return false }
        let value = rest.dropFirst().prefix { $0 != quote }
        return ["utf-8", "utf8"].contains(value.lowercased())
    }
}
