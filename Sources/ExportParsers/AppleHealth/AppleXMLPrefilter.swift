import HealthDays
/// Cleans an Apple Health XML byte stream before the XML parser sees it.
///
/// Two real-world defects make every XML parser give up on otherwise good exports:
/// the internal DTD of iOS 16 exports is broken (an `<!ATTLIST` never closed), and some
/// exports carry stray C0 control characters such as `\x0b`. This filter drops the
/// `<!DOCTYPE ...>` declaration of the prolog (keeping its line breaks, so that line numbers
/// in later errors still match the file) and drops C0 controls other than TAB, LF and CR.
/// It is push-style: bytes can arrive in chunks of any size, split anywhere.
///
/// The reader of pieces filters only the prolog with it (`init(dropsBodyControls:)`); the body's
/// control characters are dropped by the parse of each piece (`AppleRecordSelector.sawControl`,
/// `bodyFilter(at:)`), so that the reader only inflates.
public struct AppleXMLPrefilter: Sendable {
    private enum State: Sendable {
        /// Before the root element, between markup: looking for `<`.
        case prolog
        /// After `<` in the prolog, `matched` bytes of `<!DOCTYPE` seen and held back (1 to 8).
        case markupStart(matched: Int)
        /// Inside a comment (`<!--`) of the prolog, passed on; `dashes` in a row just seen.
        case comment(dashes: Int)
        /// After `<!-` in the prolog: a comment if another `-` follows.
        case commentOpening
        /// Inside a processing instruction (`<?`) or another `<!` declaration of the prolog, passed
        /// on up to `?>` or `>`; `sawQuestion` after a `?`.
        case instruction(sawQuestion: Bool)
        case otherDeclaration
        /// Inside `<!DOCTYPE` before `[` or `>`; `quote` while inside a quoted system or public id.
        case doctypeHead(quote: UInt8)
        /// Inside the internal subset.
        case internalSubset(InternalSubset)
        /// After the root element has started: only control characters are filtered.
        case body
    }

    /// Where the scan of the DOCTYPE's internal subset stands: a `]>` inside a quoted value, a
    /// comment or a processing instruction does not end it.
    private enum InternalSubset: Sendable, Equatable {
        /// Between declarations or inside one, outside quotes; `opening` bytes of `<!--` or `<?` seen.
        case markup(opening: Int)
        case quoted(UInt8)
        case comment(dashes: Int)
        case instruction(sawQuestion: Bool)
        /// After a `]` that may end the subset (white space may come before the `>`).
        case afterBracket
    }

    private static let doctype: [UInt8] = Array("<!DOCTYPE".utf8)
    private var state = State.prolog

    /// Stray control characters dropped so far.
    public private(set) var droppedControlCharacters = 0
    /// Whether a DOCTYPE declaration was removed.
    public private(set) var skippedDoctype = false
    /// Where bytes were dropped, to place failures in the input.
    public private(set) var dropped = DroppedBytes()
    /// The `N` of the `<!-- HealthKit Export Version: N -->` comment in the dropped DOCTYPE, as
    /// written (trimmed); nil when there was none.
    public private(set) var healthKitExportVersion: String?
    /// The start of the comment of the internal subset being dropped, to find that version; only
    /// the DOCTYPE's bytes go through it, never the body's.
    private var subsetComment: [UInt8] = []
    /// Bytes of a comment kept for that: the version comment is 37 bytes long.
    private static let subsetCommentLimit = 64
    private static let versionLabel: [UInt8] = Array("HealthKit Export Version:".utf8)
    /// Bytes written by earlier calls.
    private var emitted: Int64 = 0
    /// Whether control characters after the prolog are dropped here. The reader of pieces
    /// (`PiecePipeline`) leaves them to whoever reads each piece (`bodyFilter(at:)`): a parse worker's
    /// selection notices them in the vector scans it makes anyway, so the reader only inflates.
    private let dropsBodyControls: Bool

    public init() {
        dropsBodyControls = true
    }

    /// `dropsBodyControls`: false to filter the prolog only, and pass the body as it is.
    init(dropsBodyControls: Bool) {
        self.dropsBodyControls = dropsBodyControls
    }

    /// A filter past the prolog, for bytes of the body whose first byte is at `offset` in the
    /// filtered stream: it drops control characters (and notes where, from `offset` on).
    static func bodyFilter(at offset: Int64) -> AppleXMLPrefilter {
        var filter = AppleXMLPrefilter()
        filter.state = .body
        filter.emitted = offset
        return filter
    }

    /// How much larger than the input the output of one call can be (bytes held back from an earlier call).
    public static let maxGrowth = 9

    /// Writes the cleaned form of `input` to `output` and returns the number of bytes written.
    ///
    /// `output` must have room for `input.count + AppleXMLPrefilter.maxGrowth` bytes.
    public mutating func filter(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        precondition(output.count >= input.count + AppleXMLPrefilter.maxGrowth, "prefilter output buffer too small")
        var writer = Writer(output: output)
        var index = 0
        let count = input.count
        while index < count {
            if case .body = state {
                copyBody(input, from: index, into: &writer)
                emitted += Int64(writer.count)
                return writer.count
            }
            step(input[index], into: &writer)
            index += 1
        }
        emitted += Int64(writer.count)
        return writer.count
    }

    /// Whether the prolog is behind: from here on only control characters are dropped, and
    /// `filterInPlace` can be used.
    public var isInBody: Bool {
        if case .body = state { return true }
        return false
    }

    /// Cleans `bytes` where they lie (only once `isInBody`): the bytes kept move down over the
    /// dropped ones, so nothing is copied unless a control character is dropped. Returns the
    /// number of bytes kept, at the start of `bytes`.
    public mutating func filterInPlace(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
        precondition(isInBody, "in place only after the prolog")
        var writer = Writer(output: bytes)
        copyBody(UnsafeRawBufferPointer(bytes), from: 0, into: &writer)
        emitted += Int64(writer.count)
        return writer.count
    }

    /// Writes the bytes still held back at the end of the input (a partial `<!DOCTYPE` that never completed).
    public mutating func finish(into output: UnsafeMutableRawBufferPointer) -> Int {
        var writer = Writer(output: output)
        if case .markupStart(let matched) = state {
            writer.append(AppleXMLPrefilter.doctype[0..<matched])
            state = .prolog
        }
        emitted += Int64(writer.count)
        return writer.count
    }

    /// Cleans a whole byte array at once (for tests and small inputs).
    public mutating func filter(_ input: [UInt8], final: Bool = true) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: input.count + AppleXMLPrefilter.maxGrowth)
        let count = result.withUnsafeMutableBytes { output in
            input.withUnsafeBytes { source in
                let written = filter(source, into: output)
                return written + (final ? finish(into: UnsafeMutableRawBufferPointer(rebasing: output[written...])) : 0)
            }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// Appends bytes to the caller's buffer.
    private struct Writer {
        let output: UnsafeMutableRawBufferPointer
        var count = 0

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            output[count] = byte
            count += 1
        }

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            for byte in bytes { append(byte) }
        }

        /// In place (`filterInPlace`) the bytes may already stand where they go, or overlap it.
        @inline(__always)
        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            let target = output.baseAddress! + count
            if UnsafeRawPointer(target) != bytes.baseAddress! {
                target.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            count += bytes.count
        }
    }

    /// The fast path for everything after the prolog: copy runs of good bytes, skip controls.
    ///
    /// It looks at eight bytes at a time and only at single bytes in a word that holds one below
    /// 0x20 (mostly a line break): it runs on the reader thread, which the parse waits for.
    private mutating func copyBody(_ input: UnsafeRawBufferPointer, from start: Int, into writer: inout Writer) {
        let count = input.count
        guard start < count, let base = input.baseAddress else { return }
        guard dropsBodyControls else {
            writer.append(UnsafeRawBufferPointer(rebasing: input[start..<count]))
            return
        }
        var runStart = start
        var index = start
        while index < count {
            while index + 64 <= count && !AppleXMLPrefilter.hasControl(base + index) { index += 64 }
            while index + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // Non-zero exactly when some byte of the word is below 0x20.
                if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            let end = min(count, index + 8)
            while index < end {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if AppleXMLPrefilter.isControl(byte) {
                    writer.append(UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
                    droppedControlCharacters += 1
                    dropped.record(1, at: emitted + Int64(writer.count))
                    runStart = index + 1
                }
                index += 1
            }
        }
        writer.append(UnsafeRawBufferPointer(rebasing: input[runStart..<count]))
    }

    /// Whether `bytes` hold a control character to drop (below 0x20, other than TAB, LF and CR).
    static func containsControl(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        var index = 0
        while index + 64 <= count {
            if hasControl(base + index) {
                // A TAB answers true too: the bytes themselves tell.
                for offset in index..<(index + 64) where isControl(base.load(fromByteOffset: offset, as: UInt8.self)) {
                    return true
                }
            }
            index += 64
        }
        while index < count {
            if isControl(base.load(fromByteOffset: index, as: UInt8.self)) { return true }
            index += 1
        }
        return false
    }

    /// A control character this filter drops: below 0x20, other than TAB, LF and CR.
    @inline(__always)
    static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// Whether the 64 bytes at `base` may hold a control character to drop: false when every one
    /// is 0x20 or above, a line feed or a carriage return (a TAB answers true, and the caller's
    /// word loop looks closer). Sixteen bytes at a time, so that an export's line feeds do not
    /// stop the scan. Most blocks have no byte below 0x20 at all, which one compare a vector
    /// tells; only the others (about one in six: a line feed) are compared again, without them.
    @inline(__always)
    private static func hasControl(_ base: UnsafeRawPointer) -> Bool {
        let first = base.loadUnaligned(as: SIMD16<UInt8>.self)
        let second = (base + 16).loadUnaligned(as: SIMD16<UInt8>.self)
        let third = (base + 32).loadUnaligned(as: SIMD16<UInt8>.self)
        let fourth = (base + 48).loadUnaligned(as: SIMD16<UInt8>.self)
        // The smallest byte of each lane first (three `pminub`), then one compare.
        guard ByteLanes.isAnySet(low16(minimum(minimum(first, second), minimum(third, fourth)))) else { return false }
        return ByteLanes.isAnySet(control16(first) | control16(second) | control16(third) | control16(fourth))
    }

    /// The smaller byte of each lane. Written as a select, which is one `pminub`: `pointwiseMin`
    /// is left as a call.
    @inline(__always)
    private static func minimum(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        a.replacing(with: b, where: b .< a)
    }

    /// 0xFF for each byte below 0x20, else 0. Written one operation a line with literal bytes,
    /// and reduced without `any` or `pointwiseMin` (which Swift left as calls): so it is vector
    /// code (see `AppleRecordSelector.specials16`).
    @inline(__always)
    private static func low16(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let low = bytes .< SIMD16<UInt8>(repeating: 0x20)
        return unsafeBitCast(low, to: SIMD16<UInt8>.self)
    }

    /// 0xFF for each byte below 0x20 other than a line feed or a carriage return, else 0.
    @inline(__always)
    private static func control16(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let lineFeeds = bytes .== SIMD16<UInt8>(repeating: 0x0A)
        let returns = bytes .== SIMD16<UInt8>(repeating: 0x0D)
        let ends = unsafeBitCast(lineFeeds .| returns, to: SIMD16<UInt8>.self)
        return low16(bytes | ends)
    }

    /// One byte of the prolog: comments, processing instructions and the XML declaration pass
    /// through (a `<` inside them is not the root), the DOCTYPE is dropped, wherever it stands.
    private mutating func step(_ byte: UInt8, into output: inout Writer) {
        if AppleXMLPrefilter.isControl(byte) {
            droppedControlCharacters += 1
            // After the bytes held back, which are written later.
            let held = if case .markupStart(let matched) = state { matched } else { 0 }
            dropped.record(1, at: emitted + Int64(output.count + held))
            return
        }
        switch state {
        case .prolog:
            if byte == UInt8(ascii: "<") {
                state = .markupStart(matched: 1)
            } else {
                output.append(byte)
            }
        case .markupStart(let matched):
            markup(byte, matched: matched, into: &output)
        case .commentOpening:
            output.append(byte)
            state = byte == UInt8(ascii: "-") ? .comment(dashes: 0) : .otherDeclaration
        case .comment(let dashes):
            output.append(byte)
            if byte == UInt8(ascii: ">") && dashes >= 2 {
                state = .prolog
            } else {
                state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
            }
        case .instruction(let sawQuestion):
            output.append(byte)
            state = byte == UInt8(ascii: ">") && sawQuestion ? .prolog : .instruction(sawQuestion: byte == UInt8(ascii: "?"))
        case .otherDeclaration:
            output.append(byte)
            if byte == UInt8(ascii: ">") { state = .prolog }
        case .doctypeHead(let quote):
            keepLineBreak(byte, into: &output)
            if quote != 0 {
                if byte == quote { state = .doctypeHead(quote: 0) }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .doctypeHead(quote: byte)
            } else if byte == UInt8(ascii: "[") {
                state = .internalSubset(.markup(opening: 0))
            } else if byte == UInt8(ascii: ">") {
                state = .prolog
            }
        case .internalSubset(let subset):
            keepLineBreak(byte, into: &output)
            let next = AppleXMLPrefilter.subset(after: byte, in: subset)
            if case .comment = subset {
                if case .comment = next {
                    if subsetComment.count < AppleXMLPrefilter.subsetCommentLimit { subsetComment.append(byte) }
                } else {
                    noteSubsetComment()
                }
            }
            state = next.map { .internalSubset($0) } ?? .prolog
        case .body:
            preconditionFailure("body bytes take the fast path")
        }
    }

    /// After `<` (and more of `<!DOCTYPE`) in the prolog: the DOCTYPE is held back until it is
    /// certain, a comment, an instruction or another declaration passes on, and anything else
    /// starts the root element.
    private mutating func markup(_ byte: UInt8, matched: Int, into output: inout Writer) {
        let pattern = AppleXMLPrefilter.doctype
        if byte == pattern[matched] {
            if matched + 1 == pattern.count {
                state = .doctypeHead(quote: 0)
                skippedDoctype = true
                dropped.record(Int64(pattern.count), at: emitted + Int64(output.count))
            } else {
                state = .markupStart(matched: matched + 1)
            }
            return
        }
        // Not a DOCTYPE: release what was held back.
        output.append(pattern[0..<matched])
        output.append(byte)
        switch matched {
        case 1:
            // `<?` opens an instruction; `<` and a name (or anything else) starts the root element.
            state = byte == UInt8(ascii: "?") ? .instruction(sawQuestion: false) : .body
        case 2:
            state = byte == UInt8(ascii: "-") ? .commentOpening : .otherDeclaration
        default:
            state = byte == UInt8(ascii: ">") ? .prolog : .otherDeclaration
        }
    }

    /// The next state of the internal subset's scan after `byte`; nil when the subset (and with it
    /// the DOCTYPE) has ended.
    private static func subset(after byte: UInt8, in subset: InternalSubset) -> InternalSubset? {
        switch subset {
        case .quoted(let quote):
            return byte == quote ? .markup(opening: 0) : subset
        case .comment(let dashes):
            if byte == UInt8(ascii: ">") && dashes >= 2 { return .markup(opening: 0) }
            return .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
        case .instruction(let sawQuestion):
            if byte == UInt8(ascii: ">") && sawQuestion { return .markup(opening: 0) }
            return .instruction(sawQuestion: byte == UInt8(ascii: "?"))
        case .afterBracket:
            if byte == UInt8(ascii: ">") { return nil }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return subset }
            return AppleXMLPrefilter.subset(after: byte, in: .markup(opening: 0))
        case .markup(let opening):
            // `opening`: 1 after `<`, 2 after `<!`, 3 after `<!-`.
            switch (opening, byte) {
            case (1, UInt8(ascii: "?")): return .instruction(sawQuestion: false)
            case (1, UInt8(ascii: "!")): return .markup(opening: 2)
            case (2, UInt8(ascii: "-")): return .markup(opening: 3)
            case (3, UInt8(ascii: "-")): return .comment(dashes: 0)
            case (_, UInt8(ascii: "<")): return .markup(opening: 1)
            case (_, UInt8(ascii: "\"")), (_, UInt8(ascii: "'")): return .quoted(byte)
            case (_, UInt8(ascii: "]")): return .afterBracket
            default: return .markup(opening: 0)
            }
        }
    }

    /// At the end of a comment of the internal subset: keeps the version it names, if it is
    /// `HealthKit Export Version: N` (the first one wins).
    private mutating func noteSubsetComment() {
        defer { subsetComment.removeAll(keepingCapacity: true) }
        guard healthKitExportVersion == nil else { return }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // The comment's text and the `--` that close it.
        var text = subsetComment[...]
        while let last = text.last, last == UInt8(ascii: "-") || isSpace(last) { text.removeLast() }
        while let first = text.first, isSpace(first) { text.removeFirst() }
        guard text.starts(with: AppleXMLPrefilter.versionLabel) else { return }
        var value = text.dropFirst(AppleXMLPrefilter.versionLabel.count)
        while let first = value.first, isSpace(first) { value.removeFirst() }
        guard !value.isEmpty else { return }
        healthKitExportVersion = String(decoding: value, as: UTF8.self)
    }

    /// Inside the DOCTYPE: a line break is kept, anything else dropped.
    @inline(__always)
    private mutating func keepLineBreak(_ byte: UInt8, into output: inout Writer) {
        if byte == 0x0A {
            output.append(0x0A)
        } else {
            dropped.record(1, at: emitted + Int64(output.count))
        }
    }
}
