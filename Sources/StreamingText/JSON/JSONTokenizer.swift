import HealthDays
/// A push-style, incremental JSON tokenizer (SAX style): bytes in, in chunks of any size split
/// anywhere; tokens out, to its handler, as soon as each one is complete.
///
/// Strict RFC 8259: UTF-8 only (a leading byte order mark is skipped), checked escapes and
/// surrogate pairs, no comments, no trailing commas, no leading zeros. Memory is constant: the
/// nesting is limited to `maxDepth` and a string (or number) to `maxStringLength` bytes once
/// unescaped; nothing else is kept. A string that lies whole in one chunk and has no escapes is
/// handed over in place, without a copy.
///
/// Several top-level values one after the other (JSON Lines, concatenated JSON) are accepted
/// when `allowsMultipleValues` is true, the default: phone exporters write records one per line
/// as often as in one array. With it false, anything after the first value is an error.
///
/// Two stages: a `JSONLexer` reads the bytes into tokens, a `JSONGrammar` checks their order and
/// calls the handler.
public final class JSONTokenizer<Handler: JSONTokenHandler> {
    /// Where the tokens go.
    public let handler: Handler
    /// The two stages, in one stored property so that reading a chunk holds one dynamic exclusive
    /// access, not two: every access the handler makes meanwhile is checked against each one open.
    private var stages: (lexer: JSONLexer, grammar: JSONGrammar)
    private var failure: ParseFailure?
    private var finished = false

    /// - Parameters:
    ///   - maxDepth: the deepest nesting of objects and arrays accepted.
    ///   - maxStringLength: the longest string or number accepted, in bytes once unescaped.
    ///   - allowsMultipleValues: accept several top-level values (JSON Lines).
    public init(handler: Handler, maxDepth: Int = 512, maxStringLength: Int = 1 << 20,
                allowsMultipleValues: Bool = true) {
        precondition(maxDepth > 0 && maxStringLength > 0)
        self.handler = handler
        stages = (JSONLexer(maxStringLength: maxStringLength),
                  JSONGrammar(maxDepth: maxDepth, allowsMultipleValues: allowsMultipleValues))
    }

    deinit {
        stages.lexer.deallocate()
        stages.grammar.deallocate()
    }

    /// Reads the next piece of the text; tokens completed by it go to the handler before it returns.
    ///
    /// After an error (the tokenizer's or the handler's) every later call throws the same error.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        if let failure { throw failure }
        precondition(!finished, "JSONTokenizer.feed after finish")
        do {
            try Self.read(bytes, &stages, handler)
        } catch {
            failure = error
            throw error
        }
    }

    /// Ends the text: delivers a number that ran up to the end, and fails when the text stops
    /// inside a string, object or array (a truncated file) or holds no value at all.
    public func finish() throws(ParseFailure) {
        if let failure { throw failure }
        guard !finished else { return }
        finished = true
        do {
            if let last = try stages.lexer.finish() {
                try stages.grammar.accept(last, to: handler)
            }
            try stages.grammar.end(at: stages.lexer.endPosition, inputIsEmpty: stages.lexer.inputIsEmpty)
        } catch {
            failure = error
            throw error
        }
    }

    /// The loop over one chunk, into which the lexer's steps and the grammar's are inlined. The
    /// stages come in as an `inout` argument rather than through `self`, so that the compiler knows
    /// nothing else touches them (the handler's calls included) and need not reload them after each
    /// call; and as one, because two `inout` arguments from one property would be two accesses to it.
    private static func read(_ bytes: UnsafeRawBufferPointer, _ stages: inout (lexer: JSONLexer, grammar: JSONGrammar),
                             _ handler: Handler) throws(ParseFailure) {
        var chunk = try stages.lexer.startChunk(bytes)
        while let token = try stages.lexer.next(&chunk) {
            try stages.grammar.accept(token, to: handler)
        }
        try stages.lexer.endChunk(chunk)
    }

    /// The position just after the last byte fed.
    public var position: JSONPosition {
        stages.lexer.endPosition
    }
}
