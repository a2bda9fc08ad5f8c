import HealthDays

/// A `ByteStream` over bytes in memory that hands them out at most `readSize` at a time, as a
/// pipe might: for tests, fuzz targets and callers that already hold an export.
public final class MemoryStream: ByteStream {
    public let location: InputLocation
    public let totalBytes: Int64?
    private let bytes: [UInt8]
    private let readSize: Int
    private var offset = 0

    public init(_ bytes: [UInt8], name: String = "export.xml", readSize: Int = 1 << 20) {
        self.bytes = bytes
        self.readSize = max(1, readSize)
        location = InputLocation(path: name)
        totalBytes = Int64(bytes.count)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        let count = min(readSize, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
