import HealthDays
/// The grammar behind `JSONTokenizer`: the tokens from `JSONLexer` in, checked for their order
/// (what may follow what, the nesting and its limit, one value or several at the top level), and
/// the events of a `JSONTokenHandler` out.
///
/// It sees no byte of the text but the first of a token, which names the token in messages. Not
/// generic itself, only its methods are (over the handler): a generic struct would need its type
/// metadata looked up at run time on every token, as `JSONTokenizer` is not specialized.
struct JSONGrammar {
    /// What the next token may be.
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

    let maxDepth: Int
    let allowsMultipleValues: Bool

    /// For each open container: whether it is an array, and where it was opened (for messages).
    private let containerIsArray: UnsafeMutablePointer<Bool>
    private let containerPosition: UnsafeMutablePointer<JSONPosition>
    private var depth = 0

    private(set) var expect = Expectation.value
    /// Whether the string being read is a member name.
    private var stringIsKey = false
    /// Top-level values completed.
    private var values = 0

    /// - Parameters:
    ///   - maxDepth: the deepest nesting of objects and arrays accepted.
    ///   - allowsMultipleValues: accept several top-level values (JSON Lines).
    init(maxDepth: Int, allowsMultipleValues: Bool) {
        self.maxDepth = maxDepth
        self.allowsMultipleValues = allowsMultipleValues
        containerIsArray = .allocate(capacity: maxDepth)
        containerPosition = .allocate(capacity: maxDepth)
    }

    /// Frees the nesting stack; the owner calls it once, from its `deinit`.
    func deallocate() {
        containerIsArray.deallocate()
        containerPosition.deallocate()
    }

    // MARK: - Tokens

    /// Takes the next token: checks that it may come here, and hands it to `handler`.
    @inline(always)
    mutating func accept<Handler: JSONTokenHandler>(_ token: JSONToken, to handler: Handler) throws(ParseFailure) {
        switch token.kind {
        case .whiteSpace:
            if expect == .endAfterScalar {
                expect = .end
            }
        case .objectStart: try objectStart(at: token.position, handler)
        case .objectEnd: try objectEnd(at: token.position, handler)
        case .arrayStart: try arrayStart(at: token.position, handler)
        case .arrayEnd: try arrayEnd(at: token.position, handler)
        case .comma:
            guard expect == .commaOrEnd else { throw unexpected(0x2C, at: token.position) }
            expect = containerIsArray[depth - 1] ? .value : .key
        case .colon:
            guard expect == .colon else { throw unexpected(0x3A, at: token.position) }
            expect = .value
        case .stringStart: try stringStart(at: token.position)
        case .string: try string(token.text, at: token.position, handler)
        case .scalarStart:
            guard valueMayBegin else { throw unexpected(token.byte, at: token.position) }
        case .number:
            afterValue(scalar: true)
            try handler.number(token.text, at: token.position)
        case .true, .false:
            afterValue(scalar: true)
            try handler.bool(token.kind == .true, at: token.position)
        case .null:
            afterValue(scalar: true)
            try handler.null(at: token.position)
        case .unexpected:
            throw unexpected(token.byte, at: token.position, nearStart: token.offset < 2)
        }
    }

    @inline(always)
    private mutating func objectStart<Handler: JSONTokenHandler>(at position: JSONPosition,
                                                                 _ handler: Handler) throws(ParseFailure) {
        guard valueMayBegin else { throw unexpected(0x7B, at: position) }
        try open(array: false, at: position)
        expect = .keyOrObjectEnd
        try handler.objectStart(at: position)
    }

    @inline(always)
    private mutating func arrayStart<Handler: JSONTokenHandler>(at position: JSONPosition,
                                                                _ handler: Handler) throws(ParseFailure) {
        guard valueMayBegin else { throw unexpected(0x5B, at: position) }
        try open(array: true, at: position)
        expect = .valueOrArrayEnd
        try handler.arrayStart(at: position)
    }

    @inline(always)
    private mutating func objectEnd<Handler: JSONTokenHandler>(at position: JSONPosition,
                                                               _ handler: Handler) throws(ParseFailure) {
        guard expect == .keyOrObjectEnd || (expect == .commaOrEnd && !containerIsArray[depth - 1]) else {
            throw unexpected(0x7D, at: position)
        }
        close()
        try handler.objectEnd(at: position)
    }

    @inline(always)
    private mutating func arrayEnd<Handler: JSONTokenHandler>(at position: JSONPosition,
                                                              _ handler: Handler) throws(ParseFailure) {
        guard expect == .valueOrArrayEnd || (expect == .commaOrEnd && containerIsArray[depth - 1]) else {
            throw unexpected(0x5D, at: position)
        }
        close()
        try handler.arrayEnd(at: position)
    }

    /// The opening quote: of a key where one may stand, else of a value.
    @inline(always)
    private mutating func stringStart(at position: JSONPosition) throws(ParseFailure) {
        if expect == .keyOrObjectEnd || expect == .key {
            stringIsKey = true
        } else if valueMayBegin {
            stringIsKey = false
        } else {
            throw unexpected(0x22, at: position)
        }
    }

    @inline(always)
    private mutating func string<Handler: JSONTokenHandler>(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition,
                                                            _ handler: Handler) throws(ParseFailure) {
        if stringIsKey {
            expect = .colon
            try handler.key(utf8, at: position)
        } else {
            afterValue()
            try handler.string(utf8, at: position)
        }
    }

    /// Fails when the input stops inside an object or array, or holds no value at all.
    mutating func end(at position: JSONPosition, inputIsEmpty: Bool) throws(ParseFailure) {
        if depth > 0 {
            let kind = containerIsArray[depth - 1] ? "an array" : "an object"
            let open = depth == 1 ? "" : " (\(depth) objects and arrays are open)"
            throw ParseFailure.jsonTruncated(inside: "\(kind) that begins at \(containerPosition[depth - 1])\(open)",
                                             at: position)
        }
        if values == 0 {
            throw ParseFailure.json(inputIsEmpty ? "the input is empty: expected a JSON value"
                                        : "the input holds only white space: expected a JSON value", at: position)
        }
    }

    // MARK: - Containers and values

    /// Whether a value may begin here; where one may not, no token but `"` (of a key) or a
    /// closing bracket, comma or colon may.
    @inline(always)
    private var valueMayBegin: Bool {
        switch expect {
        case .value, .valueOrArrayEnd: return true
        case .end: return allowsMultipleValues
        default: return false
        }
    }

    @inline(always)
    private mutating func afterValue(scalar: Bool = false) {
        if depth == 0 {
            expect = scalar && allowsMultipleValues ? .endAfterScalar : .end
            values += 1
        } else {
            expect = .commaOrEnd
        }
    }

    @inline(always)
    private mutating func open(array: Bool, at position: JSONPosition) throws(ParseFailure) {
        guard depth < maxDepth else {
            throw ParseFailure.json("objects and arrays are nested more than \(maxDepth) levels deep", at: position)
        }
        containerIsArray[depth] = array
        containerPosition[depth] = position
        depth += 1
    }

    @inline(always)
    private mutating func close() {
        depth -= 1
        afterValue()
    }

    // MARK: - Errors

    /// The error for `byte` where the grammar allows no such token; `nearStart` is whether it is
    /// one of the first two bytes of the input, where a UTF-16 text shows itself.
    @inline(never)
    private func unexpected(_ byte: UInt8, at position: JSONPosition, nearStart: Bool = false) -> ParseFailure {
        let inArray = depth > 0 && containerIsArray[depth - 1]
        var hint = ""
        switch byte {
        case 0x5D, 0x7D:
            if expect == .key || (expect == .value && inArray) {
                hint = " (JSON allows no comma before a closing bracket)"
            }
        case 0x27: hint = " (JSON strings use double quotes)"
        case 0x2F: hint = " (JSON has no comments)"
        case 0x22 where expect == .commaOrEnd: hint = " (a comma is missing)"
        case 0xFE, 0xFF, 0x00: if nearStart { hint = " (the file looks like UTF-16; JSON must be UTF-8)" }
        default: break
        }
        let found = ParseFailure.describeJSON(byte)
        return ParseFailure.json("expected \(expected(inArray: inArray)), found \(found)\(hint)", at: position)
    }

    /// What may come next, in words.
    private func expected(inArray: Bool) -> String {
        switch expect {
        case .value:
            if depth == 0 {
                return "a JSON value (an object, array, string, number, true, false or null)"
            }
            return inArray ? "a value after ','" : "a value after ':'"
        case .valueOrArrayEnd: return "a value or ']'"
        case .keyOrObjectEnd: return "a key in double quotes or '}'"
        case .key: return "a key in double quotes after ','"
        case .colon: return "':' after the key"
        case .commaOrEnd: return inArray ? "',' or ']'" : "',' or '}'"
        case .end:
            return allowsMultipleValues ? "another top-level value or the end of the input"
                : "the end of the input after the top-level value"
        case .endAfterScalar:
            return "white space or the end of the input after the top-level value"
        }
    }
}
