import HealthDays
/// A source of bytes read front to back: a file, standard input or a zip entry.
public protocol ByteStream: AnyObject {
    /// Where the bytes come from, for error messages.
    var location: InputLocation { get }
    /// The total length when known in advance (for progress), else nil.
    var totalBytes: Int64? { get }
    /// The compressed size of a zip entry (for the caps on temporary copies); nil for anything else.
    var compressedBytes: Int64? { get }
    /// Reads up to `buffer.count` bytes; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int
}

extension ByteStream {
    public var compressedBytes: Int64? { nil }

    /// Reads the first `length` bytes (fewer if the stream is shorter), for recognising a format
    /// by its content. The bytes are consumed: open the input again to read it from the start.
    package func readHead(_ length: Int) throws(ExportError) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            // withUnsafeMutableBytes does not carry typed throws, so the error is passed out in a Result.
            let outcome: Result<Int, ExportError> = head.withUnsafeMutableBytes { buffer in
                Result { () throws(ExportError) -> Int in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            }
            let count = try outcome.get()
            if count == 0 { break }
            filled += count
        }
        head.removeLast(length - filled)
        return head
    }
}
