/// A token of a JSON text, as `JSONLexer` reads it and `JSONGrammar` takes it.
///
/// A string, number or literal comes as two tokens: its first byte (`stringStart`, `scalarStart`),
/// handed over before the rest is read, then the whole of it. So the grammar refuses a token out
/// of place where it begins, ahead of anything wrong inside it: `{"a" "b\x` lacks a colon, whatever
/// follows. A byte that begins no token is a token too (`unexpected`): what to expect instead is
/// the grammar's to say.
struct JSONToken {
    enum Kind: UInt8 {
        case objectStart, objectEnd, arrayStart, arrayEnd, comma, colon
        /// The opening quote of a string.
        case stringStart
        /// A whole string: `text` is its content, unescaped.
        case string
        /// The first byte of a number (`-` or a digit) or a literal (`t`, `f`, `n`), in `byte`.
        case scalarStart
        /// A whole number: `text` is as written, checked against JSON's grammar.
        case number
        case `true`, `false`, null
        /// A run of white space (several when the run spans chunks).
        case whiteSpace
        /// A byte, in `byte`, that begins no token; `offset` counts the bytes before it.
        case unexpected
    }

    var kind: Kind
    /// Where the token begins: for a whole string, number or literal, its first byte.
    var position: JSONPosition
    /// For `string` and `number`, the bytes; valid until the lexer is called again.
    var text: UnsafeRawBufferPointer
    /// For `scalarStart` and `unexpected`, the byte.
    var byte: UInt8
    /// For `unexpected`, the number of bytes in the input before it.
    var offset: Int64

    /// The text of a token that has none.
    static var noText: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    @inline(always)
    init(_ kind: Kind, at position: JSONPosition, text: UnsafeRawBufferPointer = JSONToken.noText,
         byte: UInt8 = 0, offset: Int64 = 0) {
        self.kind = kind
        self.position = position
        self.text = text
        self.byte = byte
        self.offset = offset
    }
}
