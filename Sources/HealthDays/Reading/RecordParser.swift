/// A push-style parser of one export format: bytes in, in chunks of any size split anywhere;
/// step samples out, to the `RecordSink` it was made with.
///
/// Parsers never open files: files, zip entries and standard input all drive them through
/// `StreamPump`, and tests can cut their input at every chunk size.
public protocol RecordParser: AnyObject {
    /// Parses the next piece of input.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure)
    /// Ends the input; fails when it stops in the middle of something (a truncated file).
    func finish() throws(ParseFailure)
}
