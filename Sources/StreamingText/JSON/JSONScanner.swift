import HealthDays
/// The state machine behind `JSONTokenizer`: one byte loop, with all state in this struct so that
/// a chunk is scanned without touching the heap (the tokenizer calls `scan` once per chunk, and
/// inside it the state lives in registers and on the stack).
///
/// Lexical state (`lexeme`: between tokens, inside a string, an escape, a number, a literal) is kept
/// apart from the grammar (`expect`: what the next token may be) and the stack of open containers.
struct JSONScanner {
    enum Lexeme: UInt8 {
        case between, string, escape, unicode, surrogateBackslash, surrogateU, number, literal
    }

    enum Expectation: UInt8 {
        /// A value: at the top level, after `:` or after `,` in an array.
        case value
        /// Just after `[`.
        case valueOrArrayEnd
        /// Just after `{`.
        case keyOrObjectEnd
        /// After `,` in an object.
        case key
        /// After a key.
        case colon
        /// After a value inside a container.
        case commaOrEnd
        /// After a complete top-level value.
        case end
        /// After a top-level number or literal: white space must come before another value
        /// (`1 2` is two values, `truefalse` is not).
        case endAfterScalar
    }

    enum NumberPart: UInt8 {
        case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent
    }

    enum Literal: UInt8 {
        case `true`, `false`, null

        var text: StaticString {
            switch self {
            case .true: return "true"
            case .false: return "false"
            case .null: return "null"
            }
        }
    }

    let maxDepth: Int
    let maxStringLength: Int
    let allowsMultipleValues: Bool

    /// Unescaped bytes of a string or number that did not lie whole in one chunk, or had escapes.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCount = 0
    private var scratchCapacity: Int
    /// Whether the current token's earlier bytes are in `scratch` (else it is still in the chunk).
    private var copying = false

    /// For each open container: whether it is an array, and where it was opened (for messages).
    private let containerIsArray: UnsafeMutablePointer<Bool>
    private let containerPosition: UnsafeMutablePointer<JSONPosition>
    private var depth = 0

    private var lexeme = Lexeme.between
    private var expect = Expectation.value

    // Position: the line, the absolute offset of its first byte, and the UTF-8 continuation
    // bytes seen on it so far (columns count characters, not bytes).
    private var line = 1
    private var lineStart: Int64 = 0
    private var lineContinuations: Int64 = 0
    /// Bytes before the current chunk.
    private var consumed: Int64 = 0

    // The token being read.
    private var tokenPosition = JSONPosition(line: 1, column: 1)
    private var tokenIsKey = false
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

    /// Top-level values completed.
    private var values = 0

    init(maxDepth: Int, maxStringLength: Int, allowsMultipleValues: Bool) {
        self.maxDepth = maxDepth
        self.maxStringLength = maxStringLength
        self.allowsMultipleValues = allowsMultipleValues
        scratchCapacity = min(4096, maxStringLength + 4)
        scratch = .allocate(capacity: scratchCapacity)
        containerIsArray = .allocate(capacity: maxDepth)
        containerPosition = .allocate(capacity: maxDepth)
    }

    func deallocate() {
        scratch.deallocate()
        containerIsArray.deallocate()
        containerPosition.deallocate()
    }

    var endPosition: JSONPosition {
        JSONPosition(line: line, column: Int(consumed - lineStart - lineContinuations) + 1)
    }

    @inline(__always)
    private func position(_ index: Int) -> JSONPosition {
        JSONPosition(line: line, column: Int(consumed + Int64(index) - lineStart - lineContinuations) + 1)
    }

    // MARK: - The byte loop

    mutating func scan<H: JSONTokenHandler>(_ bytes: UnsafeRawBufferPointer, _ handler: H) throws(ParseFailure) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        if !bomDone {
            i = try skipByteOrderMark(p, n)
        }
        // Start of the bytes of the current string or number not yet copied to `scratch`.
        var runStart = i

        while i < n {
            switch lexeme {
            case .between:
                let b = p[i]
                if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                    i += 1
                    if expect == .endAfterScalar {
                        expect = .end
                    }
                    if b == 0x0A {
                        line += 1
                        lineStart = consumed + Int64(i)
                        lineContinuations = 0
                    }
                    continue
                }
                switch expect {
                case .commaOrEnd:
                    let inArray = containerIsArray[depth - 1]
                    if b == 0x2C {
                        expect = inArray ? .value : .key
                    } else if b == (inArray ? 0x5D : 0x7D) {
                        try close(inArray, at: i, handler)
                    } else {
                        throw unexpected(b, at: i)
                    }
                    i += 1
                case .colon:
                    guard b == 0x3A else { throw unexpected(b, at: i) }
                    expect = .value
                    i += 1
                case .keyOrObjectEnd, .key:
                    if b == 0x22 {
                        tokenPosition = position(i)
                        tokenIsKey = true
                        lexeme = .string
                        i += 1
                        runStart = i
                    } else if b == 0x7D && expect == .keyOrObjectEnd {
                        try close(false, at: i, handler)
                        i += 1
                    } else {
                        throw unexpected(b, at: i)
                    }
                case .value, .valueOrArrayEnd, .end, .endAfterScalar:
                    if (expect == .end && !allowsMultipleValues) || expect == .endAfterScalar {
                        throw unexpected(b, at: i)
                    }
                    switch b {
                    case 0x22:
                        tokenPosition = position(i)
                        tokenIsKey = false
                        lexeme = .string
                        i += 1
                        runStart = i
                    case 0x7B:
                        try open(array: false, at: i)
                        expect = .keyOrObjectEnd
                        try handler.objectStart(at: containerPosition[depth - 1])
                        i += 1
                    case 0x5B:
                        try open(array: true, at: i)
                        expect = .valueOrArrayEnd
                        try handler.arrayStart(at: containerPosition[depth - 1])
                        i += 1
                    case 0x2D, 0x30...0x39:
                        tokenPosition = position(i)
                        numberPart = b == 0x2D ? .minus : (b == 0x30 ? .zero : .integer)
                        lexeme = .number
                        runStart = i
                        i += 1
                    case 0x74, 0x66, 0x6E:
                        tokenPosition = position(i)
                        literal = b == 0x74 ? .true : (b == 0x66 ? .false : .null)
                        literalIndex = 1
                        lexeme = .literal
                        i += 1
                    case 0x5D where expect == .valueOrArrayEnd:
                        try close(true, at: i, handler)
                        i += 1
                    default:
                        throw unexpected(b, at: i)
                    }
                }

            case .string:
                if utf8Remaining > 0 {
                    let b = p[i]
                    guard b >= utf8Low && b <= utf8High else { throw badUTF8(b, at: i) }
                    utf8Remaining -= 1
                    utf8Low = 0x80
                    utf8High = 0xBF
                    lineContinuations += 1
                    i += 1
                    continue
                }
                // The hot loop: plain ASCII up to a quote, a backslash, a control or a non-ASCII byte,
                // eight bytes at a time, then byte by byte for the rest.
                while i &+ 8 <= n {
                    let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                    let special = JSONScanner.specialBytes(word)
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
                guard i < n else { break }
                let b = p[i]
                if b == 0x22 {
                    try endString(p, runStart, i, handler)
                    i += 1
                } else if b == 0x5C {
                    try append(p + runStart, i - runStart)
                    lexeme = .escape
                    i += 1
                } else if b < 0x20 {
                    throw controlCharacter(b, at: i)
                } else {
                    try startMultiByte(b, at: i)
                    i += 1
                }

            case .escape:
                let b = p[i]
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
                    i += 1
                    continue
                default:
                    throw failure(at: i, "invalid escape \\\(JSONScanner.describeInline(b)) in a string; "
                                  + "JSON allows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX")
                }
                try appendByte(unescaped)
                lexeme = .string
                i += 1
                runStart = i

            case .unicode:
                let b = p[i]
                let digit: UInt32
                switch b {
                case 0x30...0x39: digit = UInt32(b - 0x30)
                case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
                default:
                    throw failure(at: i, "expected a hexadecimal digit in a \\u escape, found \(JSONScanner.describe(b))")
                }
                hexValue = hexValue << 4 | digit
                hexCount += 1
                i += 1
                guard hexCount == 4 else { continue }
                if highSurrogate != 0 {
                    guard hexValue >= 0xDC00 && hexValue <= 0xDFFF else {
                        throw failure(at: i - 1, "the escape \\u\(JSONScanner.hex(highSurrogate)) (a high surrogate) "
                                      + "must be followed by a low surrogate \\uDC00-\\uDFFF, not \\u\(JSONScanner.hex(hexValue))")
                    }
                    let scalar = 0x10000 + ((highSurrogate - 0xD800) << 10) + (hexValue - 0xDC00)
                    highSurrogate = 0
                    try appendScalar(scalar)
                    lexeme = .string
                    runStart = i
                } else if hexValue >= 0xD800 && hexValue <= 0xDBFF {
                    highSurrogate = hexValue
                    lexeme = .surrogateBackslash
                } else if hexValue >= 0xDC00 && hexValue <= 0xDFFF {
                    throw failure(at: i - 1, "the escape \\u\(JSONScanner.hex(hexValue)) is a low surrogate "
                                  + "without the high surrogate that must come before it")
                } else {
                    try appendScalar(hexValue)
                    lexeme = .string
                    runStart = i
                }

            case .surrogateBackslash, .surrogateU:
                let b = p[i]
                let wanted: UInt8 = lexeme == .surrogateBackslash ? 0x5C : 0x75
                guard b == wanted else {
                    throw failure(at: i, "the escape \\u\(JSONScanner.hex(highSurrogate)) (a high surrogate) "
                                  + "must be followed by a \\u escape of a low surrogate, found \(JSONScanner.describe(b))")
                }
                if lexeme == .surrogateBackslash {
                    lexeme = .surrogateU
                } else {
                    hexCount = 0
                    hexValue = 0
                    lexeme = .unicode
                }
                i += 1

            case .number:
                let b = p[i]
                let isDigit = b &- 0x30 < 10
                switch numberPart {
                case .integer, .fraction, .exponent:
                    if isDigit {
                        i += 1
                        while i < n && p[i] &- 0x30 < 10 { i += 1 }
                        continue
                    }
                    if b == 0x2E && numberPart == .integer {
                        numberPart = .dot
                    } else if (b == 0x65 || b == 0x45) && numberPart != .exponent {
                        numberPart = .exponentMark
                    } else {
                        try endNumber(p, runStart, i, handler)
                        continue
                    }
                case .zero:
                    if b == 0x2E {
                        numberPart = .dot
                    } else if b == 0x65 || b == 0x45 {
                        numberPart = .exponentMark
                    } else if isDigit {
                        throw failure(at: i, "a number may not start with 0 followed by more digits")
                    } else {
                        try endNumber(p, runStart, i, handler)
                        continue
                    }
                case .minus:
                    guard isDigit else {
                        throw failure(at: i, "expected a digit after '-', found \(JSONScanner.describe(b))")
                    }
                    numberPart = b == 0x30 ? .zero : .integer
                case .dot:
                    guard isDigit else {
                        throw failure(at: i, "expected a digit after the decimal point, found \(JSONScanner.describe(b))")
                    }
                    numberPart = .fraction
                case .exponentMark:
                    if b == 0x2B || b == 0x2D {
                        numberPart = .exponentSign
                    } else if isDigit {
                        numberPart = .exponent
                    } else {
                        throw failure(at: i, "expected a digit or a sign in the exponent, found \(JSONScanner.describe(b))")
                    }
                case .exponentSign:
                    guard isDigit else {
                        throw failure(at: i, "expected a digit in the exponent, found \(JSONScanner.describe(b))")
                    }
                    numberPart = .exponent
                }
                i += 1

            case .literal:
                let b = p[i]
                let text = literal.text
                guard b == text.utf8Start[literalIndex] else {
                    throw badLiteral(b, at: i)
                }
                literalIndex += 1
                i += 1
                if literalIndex == text.utf8CodeUnitCount {
                    lexeme = .between
                    let at = tokenPosition
                    afterValue(scalar: true)
                    switch literal {
                    case .true: try handler.bool(true, at: at)
                    case .false: try handler.bool(false, at: at)
                    case .null: try handler.null(at: at)
                    }
                }
            }
        }

        // Keep the unfinished part of a string or number for the next chunk.
        switch lexeme {
        case .string, .number:
            try append(p + runStart, n - runStart)
        default:
            break
        }
        consumed += Int64(n)
    }

    mutating func finish<H: JSONTokenHandler>(_ handler: H) throws(ParseFailure) {
        if !bomDone && bomMatched > 0 {
            throw ParseFailure(kind: .malformed, line: 1, column: 1,
                               message: "the input ends inside a byte order mark: the file is truncated or not JSON")
        }
        switch lexeme {
        case .between:
            break
        case .number:
            switch numberPart {
            case .zero, .integer, .fraction, .exponent:
                let at = tokenPosition
                lexeme = .between
                afterValue()
                try handler.number(UnsafeRawBufferPointer(start: scratch, count: scratchCount), at: at)
                scratchCount = 0
                copying = false
            default:
                throw truncated("inside a number that begins at \(tokenPosition)")
            }
        case .literal:
            throw truncated("inside the literal \(literal.text) that begins at \(tokenPosition)")
        default:
            throw truncated("inside a string that begins at \(tokenPosition)")
        }
        if depth > 0 {
            let kind = containerIsArray[depth - 1] ? "an array" : "an object"
            let open = depth == 1 ? "" : " (\(depth) objects and arrays are open)"
            throw truncated("inside \(kind) that begins at \(containerPosition[depth - 1])\(open)")
        }
        if values == 0 {
            let empty = consumed == 0 || (bomDone && bomMatched == 3 && consumed == 3)
            throw ParseFailure(kind: .malformed, line: line, column: endPosition.column,
                               message: empty ? "the input is empty: expected a JSON value"
                                   : "the input holds only white space: expected a JSON value")
        }
    }

    // MARK: - Containers and values

    @inline(__always)
    private mutating func afterValue(scalar: Bool = false) {
        if depth == 0 {
            expect = scalar && allowsMultipleValues ? .endAfterScalar : .end
            values += 1
        } else {
            expect = .commaOrEnd
        }
    }

    @inline(__always)
    private mutating func open(array: Bool, at index: Int) throws(ParseFailure) {
        guard depth < maxDepth else {
            throw failure(at: index, "objects and arrays are nested more than \(maxDepth) levels deep")
        }
        containerIsArray[depth] = array
        containerPosition[depth] = position(index)
        depth += 1
    }

    @inline(__always)
    private mutating func close<H: JSONTokenHandler>(_ array: Bool, at index: Int, _ handler: H) throws(ParseFailure) {
        depth -= 1
        afterValue()
        if array {
            try handler.arrayEnd(at: position(index))
        } else {
            try handler.objectEnd(at: position(index))
        }
    }

    /// The bytes of the token ending at `end`: in the input when all of it is in this chunk,
    /// else what earlier chunks left in `scratch` plus the rest. Valid until the next token.
    @inline(__always)
    private mutating func tokenText(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                    _ what: StaticString) throws(ParseFailure) -> UnsafeRawBufferPointer {
        if copying {
            try append(p + start, end - start)
            return UnsafeRawBufferPointer(start: scratch, count: scratchCount)
        }
        guard end - start <= maxStringLength else { throw tooLong(what) }
        return UnsafeRawBufferPointer(start: p + start, count: end - start)
    }

    @inline(__always)
    private mutating func endString<H: JSONTokenHandler>(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                                          _ handler: H) throws(ParseFailure) {
        let text = try tokenText(p, start, end, "string")
        lexeme = .between
        let at = tokenPosition
        if tokenIsKey {
            expect = .colon
            try handler.key(text, at: at)
        } else {
            afterValue()
            try handler.string(text, at: at)
        }
        scratchCount = 0
        copying = false
    }

    @inline(__always)
    private mutating func endNumber<H: JSONTokenHandler>(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                                          _ handler: H) throws(ParseFailure) {
        let text = try tokenText(p, start, end, "number")
        lexeme = .between
        afterValue(scalar: true)
        try handler.number(text, at: tokenPosition)
        scratchCount = 0
        copying = false
    }

    // MARK: - UTF-8 inside strings

    /// The high bit set in each byte of `word` that ends a plain run in a string: `"`, `\`, a control
    /// character or a non-ASCII byte. Bytes above a match may be flagged falsely (borrows), never
    /// below one, so the lowest flag is always a real match.
    @inline(__always)
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

    @inline(__always)
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

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, _ count: Int) throws(ParseFailure) {
        copying = true
        guard count > 0 else { return }
        guard scratchCount + count <= maxStringLength else { throw tooLong(lexeme == .number ? "number" : "string") }
        reserve(count)
        (scratch + scratchCount).update(from: source, count: count)
        scratchCount += count
    }

    @inline(__always)
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
    @inline(__always)
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
                throw ParseFailure(kind: .malformed, line: 1, column: 1,
                                   message: "the input starts with a broken UTF-8 byte order mark")
            }
        }
        return i
    }

    // MARK: - Errors

    private func failure(at index: Int, _ message: String) -> ParseFailure {
        let at = position(index)
        return ParseFailure(kind: .malformed, line: at.line, column: at.column, message: message)
    }

    private func truncated(_ place: String) -> ParseFailure {
        let at = endPosition
        return ParseFailure(kind: .malformed, line: at.line, column: at.column,
                            message: "the input ends \(place): the file is truncated")
    }

    @inline(never)
    private func tooLong(_ what: StaticString) -> ParseFailure {
        ParseFailure(kind: .malformed, line: tokenPosition.line, column: tokenPosition.column,
                     message: "a \(what) longer than \(maxStringLength) bytes begins here, over the limit for one value")
    }

    private func controlCharacter(_ b: UInt8, at index: Int) -> ParseFailure {
        let escape: String
        switch b {
        case 0x0A: escape = " (a line break, write it as \\n)"
        case 0x0D: escape = " (a carriage return, write it as \\r)"
        case 0x09: escape = " (a tab, write it as \\t)"
        default: escape = ""
        }
        return failure(at: index, "the control character U+00\(JSONScanner.hex(UInt32(b)).suffix(2))\(escape) "
                       + "must be escaped inside a string")
    }

    private func badUTF8(_ b: UInt8, at index: Int) -> ParseFailure {
        failure(at: index, "invalid UTF-8 in a string (byte 0x\(JSONScanner.hex(UInt32(b)).suffix(2))): "
                + "JSON text must be UTF-8")
    }

    private func badLiteral(_ b: UInt8, at index: Int) -> ParseFailure {
        let text = literal.text
        let prefix = String(decoding: UnsafeBufferPointer(start: text.utf8Start, count: literalIndex), as: UTF8.self)
        return failure(at: index, "expected \(text) but found \"\(prefix)\" followed by \(JSONScanner.describe(b))")
    }

    private func unexpected(_ b: UInt8, at index: Int) -> ParseFailure {
        let inArray = depth > 0 && containerIsArray[depth - 1]
        let wanted: String
        switch expect {
        case .value:
            if depth == 0 {
                wanted = "a JSON value (an object, array, string, number, true, false or null)"
            } else if inArray {
                wanted = "a value after ','"
            } else {
                wanted = "a value after ':'"
            }
        case .valueOrArrayEnd: wanted = "a value or ']'"
        case .keyOrObjectEnd: wanted = "a key in double quotes or '}'"
        case .key: wanted = "a key in double quotes after ','"
        case .colon: wanted = "':' after the key"
        case .commaOrEnd: wanted = inArray ? "',' or ']'" : "',' or '}'"
        case .end:
            wanted = allowsMultipleValues ? "another top-level value or the end of the input"
                : "the end of the input after the top-level value"
        case .endAfterScalar:
            wanted = "white space or the end of the input after the top-level value"
        }
        var hint = ""
        switch b {
        case 0x5D, 0x7D:
            if expect == .key || (expect == .value && inArray) {
                hint = " (JSON allows no comma before a closing bracket)"
            }
        case 0x27: hint = " (JSON strings use double quotes)"
        case 0x2F: hint = " (JSON has no comments)"
        case 0x22 where expect == .commaOrEnd: hint = " (a comma is missing)"
        case 0xFE, 0xFF, 0x00: if consumed + Int64(index) < 2 { hint = " (the file looks like UTF-16; JSON must be UTF-8)" }
        default: break
        }
        return failure(at: index, "expected \(wanted), found \(JSONScanner.describe(b))\(hint)")
    }

    /// A byte as the user would name it in a message.
    static func describe(_ b: UInt8) -> String {
        switch b {
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0x09: return "a tab"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(b)))'"
        case 0x20: return "a space"
        case 0x00..<0x20, 0x7F: return "the control character U+00\(hex(UInt32(b)).suffix(2))"
        default: return "the byte 0x\(hex(UInt32(b)).suffix(2)) (a character outside a string)"
        }
    }

    /// A byte as it appears after a backslash in a message.
    static func describeInline(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? String(Character(Unicode.Scalar(b))) : "<0x\(hex(UInt32(b)).suffix(2))>"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
