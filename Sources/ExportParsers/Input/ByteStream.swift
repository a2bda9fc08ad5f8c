/// A source of bytes read front to back: a file, standard input or a zip entry.
public protocol ByteStream: AnyObject {
    /// Where the bytes come from, for error messages.
    var location: InputLocation { get }
    /// The total length when known in advance (for progress), else nil.
    var totalBytes: Int64? { get }
    /// Reads up to `buffer.count` bytes; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int
}
