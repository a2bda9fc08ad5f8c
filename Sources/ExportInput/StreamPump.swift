import HealthDays
/// Reads a stream to its end through a `RecordParser`.
public enum StreamPump {
    /// Size of each read.
    static let chunkSize = 256 * 1024

    /// Feeds all of `stream` to `parser`; returns the number of bytes read.
    ///
    /// `progress` is called after each chunk with the bytes read so far and the total when known.
    @discardableResult
    public static func run(_ stream: ByteStream, into parser: RecordParser, expected: ExportFamily, grammar: String,
                           progress: ((Int64, Int64?) -> Void)? = nil) throws(ExportError) -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        do {
            while true {
                let count = try readChunk(stream, buffer)
                if count == 0 { break }
                total += Int64(count)
                try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                progress?(total, stream.totalBytes)
            }
            try parser.finish()
        } catch let failure as ParseFailure {
            throw ExportError(failure, at: stream.location, expected: expected, grammar: grammar)
        } catch let error as ExportError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return total
    }

    private static func readChunk(_ stream: ByteStream, _ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try stream.read(into: buffer)
    }
}
