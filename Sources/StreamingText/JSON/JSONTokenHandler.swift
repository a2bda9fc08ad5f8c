import HealthDays
/// Receives the tokens of a JSON text from `JSONTokenizer`, in document order.
///
/// Byte buffers handed over are valid only during the call: they point into the caller's chunk
/// or into the tokenizer's scratch buffer, which the next token reuses. A handler that throws
/// stops the tokenizer; the error comes out of `feed` or `finish` unchanged.
public protocol JSONTokenHandler: AnyObject {
    /// `{`, at its position.
    func objectStart(at position: JSONPosition) throws(ParseFailure)
    /// `}`, at its position.
    func objectEnd(at position: JSONPosition) throws(ParseFailure)
    /// `[`, at its position.
    func arrayStart(at position: JSONPosition) throws(ParseFailure)
    /// `]`, at its position.
    func arrayEnd(at position: JSONPosition) throws(ParseFailure)
    /// A member name, unescaped UTF-8; `position` is its opening quote.
    func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure)
    /// A string value, unescaped UTF-8; `position` is its opening quote.
    func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure)
    /// A number exactly as written (checked against JSON's grammar, not converted), so that the
    /// handler decides how to read it: an integer of nanoseconds does not survive a `Double`.
    func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure)
    /// `true` or `false`.
    func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure)
    /// `null`.
    func null(at position: JSONPosition) throws(ParseFailure)
}
