import HealthDays
/// The lexer behind `JSONTokenizer`: bytes in, in chunks split anywhere; `JSONToken`s with their
/// positions out, one per call to `next`. It checks everything inside a token (escapes, surrogate
/// pairs, UTF-8, the form of numbers, literals, the length limit) and nothing about their order.
///
/// Pull-style within a chunk, so that it knows nothing of who takes the tokens: `startChunk`,
/// then `next` until it returns nil, then `endChunk`. Every step is forced inline into `next`, so
/// that the caller's loop over a chunk is one loop, with no call and no heap access per token (but
/// for strings and numbers split between chunks or escaped). The caller keeps the `Chunk`, the
/// reading position, as a local: there it lives in registers.
struct JSONLexer {
    /// A chunk being read: the caller's bytes, and how far the lexer has got in them.
    struct Chunk {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        /// The next byte to read.
        var index: Int
        /// The first byte of the current string or number not yet copied to the scratch buffer.
        var runStart: Int
    }

    /// The literals `true`, `false` and `null`.
    enum Literal: UInt8 {
        case `true`, `false`, null

        var text: StaticString {
            switch self {
            case .true: return "true"
            case .false: return "false"
            case .null: return "null"
            }
        }

        var token: JSONToken.Kind {
            switch self {
            case .true: return .true
            case .false: return .false
            case .null: return .null
            }
        }
    }

    /// Where the lexer is: between tokens, or inside one.
    enum Lexeme: UInt8 {
        case between, string, escape, unicode, surrogateBackslash, surrogateU, number, literal
    }

    /// The last part of a number read, which decides what may follow.
    enum NumberPart: UInt8 {
        case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent
    }

    let maxStringLength: Int

    /// Unescaped bytes of a string or number that did not lie whole in one chunk, or had escapes.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCount = 0
    private var scratchCapacity: Int
    /// Whether the current token's earlier bytes are in `scratch` (else it is still in the chunk).
    private var copying = false

    private var lexeme = Lexeme.between

    // Position: the line, the absolute offset of its first byte, and the UTF-8 continuation
    // bytes seen on it so far (columns count characters, not bytes).
    private var line = 1
    private var lineStart: Int64 = 0
    private var lineContinuations: Int64 = 0
    /// Bytes before the current chunk.
    private var consumed: Int64 = 0

    // The token being read.
    private var tokenPosition = JSONPosition(line: 1, column: 1, offset: 0)
    private var utf8Remaining = 0
    private var utf8Low: UInt8 = 0x80
    private var utf8High: UInt8 = 0xBF
    private var hexCount = 0
    private var hexValue: UInt32 = 0
    private var highSurrogate: UInt32 = 0
    private var numberPart = NumberPart.minus
    private var literal = Literal.null
    private var literalIndex = 0

    private var bomMatched = 0
    private var bomDone = false

    /// - Parameter maxStringLength: the longest string or number accepted, in bytes once unescaped.
    init(maxStringLength: Int) {
        self.maxStringLength = maxStringLength
        scratchCapacity = min(4096, maxStringLength + 4)
        scratch = .allocate(capacity: scratchCapacity)
    }

    /// Frees the scratch buffer; the owner calls it once, from its `deinit`.
    func deallocate() {
        scratch.deallocate()
    }

    /// The position just after the last byte of the last chunk ended.
    var endPosition: JSONPosition {
        JSONPosition(line: line, column: Int(consumed - lineStart - lineContinuations) + 1, offset: consumed)
    }

    /// The position of the byte at `index` in the chunk. Wrapping arithmetic (offsets stay far from
    /// overflow): a checked one could trap, so it would be computed even where it goes unused.
    @inline(always)
    private func position(_ index: Int) -> JSONPosition {
        let column = consumed &+ Int64(index) &- lineStart &- lineContinuations &+ 1
        return JSONPosition(line: line, column: Int(truncatingIfNeeded: column), offset: consumed &+ Int64(index))
    }

    // MARK: - Chunks

    /// Begins reading `bytes`, which must stay valid until `endChunk`.
    mutating func startChunk(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) -> Chunk {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return Chunk(bytes: UnsafePointer(scratch), count: 0, index: 0, runStart: 0)
        }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let start = bomDone ? 0 : try skipByteOrderMark(p, bytes.count)
        return Chunk(bytes: p, count: bytes.count, index: start, runStart: start)
    }

    /// The next token in the chunk, or nil when the chunk is used up (the rest of a token cut by
    /// its end comes from the next chunk).
    @inline(always)
    mutating func next(_ chunk: inout Chunk) throws(ParseFailure) -> JSONToken? {
        while chunk.index < chunk.count {
            switch lexeme {
            case .between: return scanBetween(&chunk)
            case .string: if let token = try scanString(&chunk) { return token }
            case .escape: try scanEscape(&chunk)
            case .unicode: try scanUnicode(&chunk)
            case .surrogateBackslash, .surrogateU: try scanSurrogate(&chunk)
            case .number: if let token = try scanNumber(&chunk) { return token }
            case .literal: if let token = try scanLiteral(&chunk) { return token }
            }
        }
        return nil
    }

    /// Ends the chunk: keeps the part of a string or number cut by its end for the next one.
    mutating func endChunk(_ chunk: Chunk) throws(ParseFailure) {
        switch lexeme {
        case .string, .number:
            try append(chunk.bytes + chunk.runStart, chunk.count - chunk.runStart)
        default:
            break
        }
        consumed += Int64(chunk.count)
    }

    /// Ends the input: the number that runs up to the end, if any; fails inside any other token.
    mutating func finish() throws(ParseFailure) -> JSONToken? {
        if !bomDone && bomMatched > 0 {
            throw ParseFailure.json("the input ends inside a byte order mark: the file is truncated or not JSON",
                                    at: JSONPosition(line: 1, column: 1, offset: 0))
        }
        switch lexeme {
        case .between:
            return nil
        case .number:
            switch numberPart {
            case .zero, .integer, .fraction, .exponent:
                lexeme = .between
                return wholeToken(.number, UnsafeRawBufferPointer(start: scratch, count: scratchCount))
            default:
                throw ParseFailure.jsonTruncated(inside: "a number that begins at \(tokenPosition)", at: endPosition)
            }
        case .literal:
            throw ParseFailure.jsonTruncated(inside: "the literal \(literal.text) that begins at \(tokenPosition)",
                                             at: endPosition)
        default:
            throw ParseFailure.jsonTruncated(inside: "a string that begins at \(tokenPosition)", at: endPosition)
        }
    }

    /// Whether the input held no byte but a byte order mark (else, if it held no token, only white space).
    var inputIsEmpty: Bool {
        consumed == 0 || (bomDone && bomMatched == 3 && consumed == 3)
    }

    // MARK: - Between tokens

    /// White space, punctuation, or the first byte of a string, number or literal.
    @inline(always)
    private mutating func scanBetween(_ chunk: inout Chunk) -> JSONToken {
        let p = chunk.bytes
        let i = chunk.index
        let b = p[i]
        chunk.index = i + 1
        switch b {
        case 0x20, 0x0A, 0x0D, 0x09:
            let at = position(i)
            var j = i
            repeat {
                j += 1
                if p[j - 1] == 0x0A {
                    line += 1
                    lineStart = consumed + Int64(j)
                    lineContinuations = 0
                }
            } while j < chunk.count && JSONLexer.isWhiteSpace(p[j])
            chunk.index = j
            return JSONToken(.whiteSpace, at: at)
        case 0x22:
            tokenPosition = position(i)
            lexeme = .string
            chunk.runStart = i + 1
            return JSONToken(.stringStart, at: tokenPosition)
        case 0x2C: return JSONToken(.comma, at: position(i))
        case 0x3A: return JSONToken(.colon, at: position(i))
        case 0x7B: return JSONToken(.objectStart, at: position(i))
        case 0x7D: return JSONToken(.objectEnd, at: position(i))
        case 0x5B: return JSONToken(.arrayStart, at: position(i))
        case 0x5D: return JSONToken(.arrayEnd, at: position(i))
        case 0x2D, 0x30...0x39:
            tokenPosition = position(i)
            numberPart = b == 0x2D ? .minus : (b == 0x30 ? .zero : .integer)
            lexeme = .number
            chunk.runStart = i
            return JSONToken(.scalarStart, at: tokenPosition, byte: b)
        case 0x74, 0x66, 0x6E:
            tokenPosition = position(i)
            literal = b == 0x74 ? .true : (b == 0x66 ? .false : .null)
            literalIndex = 1
            lexeme = .literal
            return JSONToken(.scalarStart, at: tokenPosition, byte: b)
        default:
            return JSONToken(.unexpected, at: position(i), byte: b, offset: consumed + Int64(i))
        }
    }

    @inline(always)
    static func isWhiteSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// The token just completed, whose first byte was at `tokenPosition`; the scratch buffer is
    /// emptied for the next token but keeps these bytes until then.
    @inline(always)
    private mutating func wholeToken(_ kind: JSONToken.Kind, _ text: UnsafeRawBufferPointer) -> JSONToken {
        scratchCount = 0
        copying = false
        return JSONToken(kind, at: tokenPosition, text: text)
    }

    // MARK: - Strings

    /// A run of a string's content, up to the end of the chunk or to a byte that is not plain ASCII;
    /// the whole string when that byte is its closing quote.
    @inline(always)
    private mutating func scanString(_ chunk: inout Chunk) throws(ParseFailure) -> JSONToken? {
        let p = chunk.bytes
        let n = chunk.count
        var i = chunk.index
        if utf8Remaining > 0 {
            let b = p[i]
            guard b >= utf8Low && b <= utf8High else { throw badUTF8(b, at: i) }
            utf8Remaining -= 1
            utf8Low = 0x80
            utf8High = 0xBF
            lineContinuations += 1
            chunk.index = i + 1
            return nil
        }
        // The hot loop: plain ASCII up to a quote, a backslash, a control or a non-ASCII byte,
        // eight bytes at a time, then byte by byte for the rest.
        while i &+ 8 <= n {
            let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            let special = JSONLexer.specialBytes(word)
            if special != 0 {
                i &+= special.trailingZeroBitCount >> 3
                break
            }
            i &+= 8
        }
        while i < n {
            let b = p[i]
            if b >= 0x20 && b < 0x80 && b != 0x22 && b != 0x5C {
                i += 1
            } else {
                break
            }
        }
        chunk.index = i
        guard i < n else { return nil }
        let b = p[i]
        chunk.index = i + 1
        if b == 0x22 {
            let text = try tokenText(p, chunk.runStart, i, "string")
            lexeme = .between
            return wholeToken(.string, text)
        } else if b == 0x5C {
            try append(p + chunk.runStart, i - chunk.runStart)
            lexeme = .escape
        } else if b < 0x20 {
            throw controlCharacter(b, at: i)
        } else {
            try startMultiByte(b, at: i)
        }
        return nil
    }

    /// The byte after a backslash.
    @inline(always)
    private mutating func scanEscape(_ chunk: inout Chunk) throws(ParseFailure) {
        let b = chunk.bytes[chunk.index]
        let unescaped: UInt8
        switch b {
        case 0x22, 0x5C, 0x2F: unescaped = b
        case 0x62: unescaped = 0x08
        case 0x66: unescaped = 0x0C
        case 0x6E: unescaped = 0x0A
        case 0x72: unescaped = 0x0D
        case 0x74: unescaped = 0x09
        case 0x75:
            hexCount = 0
            hexValue = 0
            lexeme = .unicode
            chunk.index += 1
            return
        default:
            throw failure(at: chunk.index, "invalid escape \\\(ParseFailure.describeJSONInline(b)) in a string; "
                          + "JSON allows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX")
        }
        try appendByte(unescaped)
        lexeme = .string
        chunk.index += 1
        chunk.runStart = chunk.index
    }

    /// A hexadecimal digit of a `\u` escape; the fourth completes a scalar or the high half of a pair.
    @inline(always)
    private mutating func scanUnicode(_ chunk: inout Chunk) throws(ParseFailure) {
        let b = chunk.bytes[chunk.index]
        let digit: UInt32
        switch b {
        case 0x30...0x39: digit = UInt32(b - 0x30)
        case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
        case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
        default:
            throw failure(at: chunk.index,
                          "expected a hexadecimal digit in a \\u escape, found \(ParseFailure.describeJSON(b))")
        }
        hexValue = hexValue << 4 | digit
        hexCount += 1
        chunk.index += 1
        guard hexCount == 4 else { return }
        if highSurrogate != 0 {
            guard hexValue >= 0xDC00 && hexValue <= 0xDFFF else {
                throw failure(at: chunk.index - 1,
                              "the escape \\u\(ParseFailure.hex(highSurrogate)) (a high surrogate) must be followed "
                              + "by a low surrogate \\uDC00-\\uDFFF, not \\u\(ParseFailure.hex(hexValue))")
            }
            let scalar = 0x10000 + ((highSurrogate - 0xD800) << 10) + (hexValue - 0xDC00)
            highSurrogate = 0
            try appendScalar(scalar)
            lexeme = .string
            chunk.runStart = chunk.index
        } else if hexValue >= 0xD800 && hexValue <= 0xDBFF {
            highSurrogate = hexValue
            lexeme = .surrogateBackslash
        } else if hexValue >= 0xDC00 && hexValue <= 0xDFFF {
            throw failure(at: chunk.index - 1, "the escape \\u\(ParseFailure.hex(hexValue)) is a low surrogate "
                          + "without the high surrogate that must come before it")
        } else {
            try appendScalar(hexValue)
            lexeme = .string
            chunk.runStart = chunk.index
        }
    }

    /// The `\` or the `u` that must follow the escape of a high surrogate.
    @inline(always)
    private mutating func scanSurrogate(_ chunk: inout Chunk) throws(ParseFailure) {
        let b = chunk.bytes[chunk.index]
        let wanted: UInt8 = lexeme == .surrogateBackslash ? 0x5C : 0x75
        guard b == wanted else {
            throw failure(at: chunk.index,
                          "the escape \\u\(ParseFailure.hex(highSurrogate)) (a high surrogate) must be followed "
                          + "by a \\u escape of a low surrogate, found \(ParseFailure.describeJSON(b))")
        }
        if lexeme == .surrogateBackslash {
            lexeme = .surrogateU
        } else {
            hexCount = 0
            hexValue = 0
            lexeme = .unicode
        }
        chunk.index += 1
    }

    // MARK: - Numbers and literals

    /// The next bytes of a number; the whole number at the first byte that cannot continue it,
    /// which is left to be read again between tokens.
    @inline(always)
    private mutating func scanNumber(_ chunk: inout Chunk) throws(ParseFailure) -> JSONToken? {
        let p = chunk.bytes
        let n = chunk.count
        var i = chunk.index
        let b = p[i]
        let isDigit = b &- 0x30 < 10
        switch numberPart {
        case .integer, .fraction, .exponent:
            if isDigit {
                i += 1
                while i < n && p[i] &- 0x30 < 10 { i += 1 }
                chunk.index = i
                return nil
            }
            if b == 0x2E && numberPart == .integer {
                numberPart = .dot
            } else if (b == 0x65 || b == 0x45) && numberPart != .exponent {
                numberPart = .exponentMark
            } else {
                return try endNumber(&chunk, i)
            }
        case .zero:
            if b == 0x2E {
                numberPart = .dot
            } else if b == 0x65 || b == 0x45 {
                numberPart = .exponentMark
            } else if isDigit {
                throw failure(at: i, "a number may not start with 0 followed by more digits")
            } else {
                return try endNumber(&chunk, i)
            }
        case .minus, .dot, .exponentMark, .exponentSign:
            numberPart = try afterNumberSign(b, isDigit: isDigit, at: i)
        }
        chunk.index = i + 1
        return nil
    }

    /// The part of a number that `b` begins after a minus, a decimal point or an exponent mark or
    /// sign, where a digit (or in an exponent, a sign) must come.
    @inline(always)
    private func afterNumberSign(_ b: UInt8, isDigit: Bool, at i: Int) throws(ParseFailure) -> NumberPart {
        switch numberPart {
        case .minus:
            guard isDigit else {
                throw failure(at: i, "expected a digit after '-', found \(ParseFailure.describeJSON(b))")
            }
            return b == 0x30 ? .zero : .integer
        case .dot:
            guard isDigit else {
                throw failure(at: i, "expected a digit after the decimal point, found \(ParseFailure.describeJSON(b))")
            }
            return .fraction
        case .exponentMark:
            if b == 0x2B || b == 0x2D { return .exponentSign }
            guard isDigit else {
                throw failure(at: i,
                              "expected a digit or a sign in the exponent, found \(ParseFailure.describeJSON(b))")
            }
            return .exponent
        default:
            guard isDigit else {
                throw failure(at: i, "expected a digit in the exponent, found \(ParseFailure.describeJSON(b))")
            }
            return .exponent
        }
    }

    /// The number that ends just before `end`.
    @inline(always)
    private mutating func endNumber(_ chunk: inout Chunk, _ end: Int) throws(ParseFailure) -> JSONToken {
        let text = try tokenText(chunk.bytes, chunk.runStart, end, "number")
        lexeme = .between
        chunk.index = end
        return wholeToken(.number, text)
    }

    /// The next byte of `true`, `false` or `null`; the literal when it is the last.
    @inline(always)
    private mutating func scanLiteral(_ chunk: inout Chunk) throws(ParseFailure) -> JSONToken? {
        let b = chunk.bytes[chunk.index]
        let text = literal.text
        guard b == text.utf8Start[literalIndex] else {
            throw badLiteral(b, at: chunk.index)
        }
        literalIndex += 1
        chunk.index += 1
        guard literalIndex == text.utf8CodeUnitCount else { return nil }
        lexeme = .between
        return JSONToken(literal.token, at: tokenPosition)
    }

    // MARK: - Token text

    /// The bytes of the token ending at `end`: in the input when all of it is in this chunk,
    /// else what earlier chunks left in `scratch` plus the rest. Valid until the next token.
    @inline(always)
    private mutating func tokenText(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                    _ what: StaticString) throws(ParseFailure) -> UnsafeRawBufferPointer {
        if copying {
            try append(p + start, end - start)
            return UnsafeRawBufferPointer(start: scratch, count: scratchCount)
        }
        guard end - start <= maxStringLength else { throw tooLong(what) }
        return UnsafeRawBufferPointer(start: p + start, count: end - start)
    }

    /// The high bit set in each byte of `word` that ends a plain run in a string: `"`, `\`, a control
    /// character or a non-ASCII byte. Bytes above a match may be flagged falsely (borrows), never
    /// below one, so the lowest flag is always a real match.
    @inline(always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote & high
        let isBackslash = (backslash &- ones) & ~backslash & high
        let isControl = (word &- ones &* 0x20) & ~word & high
        return isQuote | isBackslash | isControl | (word & high)
    }

    @inline(always)
    private mutating func startMultiByte(_ b: UInt8, at index: Int) throws(ParseFailure) {
        // Unicode 15, table 3-7: the well-formed byte sequences.
        utf8Low = 0x80
        utf8High = 0xBF
        switch b {
        case 0xC2...0xDF: utf8Remaining = 1
        case 0xE0: utf8Remaining = 2; utf8Low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: utf8Remaining = 2
        case 0xED: utf8Remaining = 2; utf8High = 0x9F
        case 0xF0: utf8Remaining = 3; utf8Low = 0x90
        case 0xF1...0xF3: utf8Remaining = 3
        case 0xF4: utf8Remaining = 3; utf8High = 0x8F
        default: throw badUTF8(b, at: index)
        }
    }

    // MARK: - The scratch buffer

    @inline(always)
    private mutating func append(_ source: UnsafePointer<UInt8>, _ count: Int) throws(ParseFailure) {
        copying = true
        guard count > 0 else { return }
        guard scratchCount + count <= maxStringLength else { throw tooLong(lexeme == .number ? "number" : "string") }
        reserve(count)
        (scratch + scratchCount).update(from: source, count: count)
        scratchCount += count
    }

    @inline(always)
    private mutating func appendByte(_ byte: UInt8) throws(ParseFailure) {
        guard scratchCount < maxStringLength else { throw tooLong("string") }
        reserve(1)
        scratch[scratchCount] = byte
        scratchCount += 1
    }

    private mutating func appendScalar(_ scalar: UInt32) throws(ParseFailure) {
        reserve(4)
        switch scalar {
        case 0..<0x80:
            scratch[scratchCount] = UInt8(scalar)
            scratchCount += 1
        case 0x80..<0x800:
            scratch[scratchCount] = UInt8(0xC0 | scalar >> 6)
            scratch[scratchCount + 1] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 2
        case 0x800..<0x10000:
            scratch[scratchCount] = UInt8(0xE0 | scalar >> 12)
            scratch[scratchCount + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            scratch[scratchCount + 2] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 3
        default:
            scratch[scratchCount] = UInt8(0xF0 | scalar >> 18)
            scratch[scratchCount + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            scratch[scratchCount + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            scratch[scratchCount + 3] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 4
        }
        // The limit is on the unescaped length; the buffer has 4 bytes of slack for this check.
        if scratchCount > maxStringLength { throw tooLong("string") }
    }

    /// Makes room for `count` more bytes; callers have checked the limit, so this never goes
    /// beyond `maxStringLength` plus the 4 bytes of slack that `appendScalar` may use.
    @inline(always)
    private mutating func reserve(_ count: Int) {
        let needed = scratchCount + count
        guard needed > scratchCapacity else { return }
        let capacity = min(max(needed, scratchCapacity * 2), maxStringLength + 4)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: scratch, count: scratchCount)
        scratch.deallocate()
        scratch = larger
        scratchCapacity = capacity
    }

    // MARK: - Byte order mark

    private mutating func skipByteOrderMark(_ p: UnsafePointer<UInt8>, _ n: Int) throws(ParseFailure) -> Int {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var i = 0
        while !bomDone && i < n {
            if p[i] == mark[bomMatched] {
                bomMatched += 1
                i += 1
                if bomMatched == 3 {
                    bomDone = true
                    // Columns start after the mark.
                    lineStart = 3
                }
            } else if bomMatched == 0 {
                bomDone = true
            } else {
                throw ParseFailure.json("the input starts with a broken UTF-8 byte order mark",
                                        at: JSONPosition(line: 1, column: 1, offset: 0))
            }
        }
        return i
    }

    // MARK: - Errors

    private func failure(at index: Int, _ message: String) -> ParseFailure {
        ParseFailure.json(message, at: position(index))
    }

    @inline(never)
    private func tooLong(_ what: StaticString) -> ParseFailure {
        ParseFailure.json("a \(what) longer than \(maxStringLength) bytes begins here, over the limit for one value",
                          at: tokenPosition)
    }

    private func controlCharacter(_ b: UInt8, at index: Int) -> ParseFailure {
        let escape: String
        switch b {
        case 0x0A: escape = " (a line break, write it as \\n)"
        case 0x0D: escape = " (a carriage return, write it as \\r)"
        case 0x09: escape = " (a tab, write it as \\t)"
        default: escape = ""
        }
        return failure(at: index, "the control character U+00\(ParseFailure.hex(UInt32(b)).suffix(2))\(escape) "
                       + "must be escaped inside a string")
    }

    private func badUTF8(_ b: UInt8, at index: Int) -> ParseFailure {
        failure(at: index, "invalid UTF-8 in a string (byte 0x\(ParseFailure.hex(UInt32(b)).suffix(2))): "
                + "JSON text must be UTF-8")
    }

    private func badLiteral(_ b: UInt8, at index: Int) -> ParseFailure {
        let text = literal.text
        let prefix = String(decoding: UnsafeBufferPointer(start: text.utf8Start, count: literalIndex), as: UTF8.self)
        let found = ParseFailure.describeJSON(b)
        return failure(at: index, "expected \(text) but found \"\(prefix)\" followed by \(found)")
    }
}
