import Glibc
import HealthDays

/// Reads a file (or standard input) through a file descriptor, with bytes already read put back in front.
public final class FileStream: ByteStream {
    public let location: InputLocation
    public let totalBytes: Int64?
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var pending: [UInt8]
    private var pendingOffset = 0

    /// Opens a regular file for reading; errors name it `shownAs` (default: the path).
    public init(path: String, shownAs name: String? = nil) throws(ExportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FileStream.openError(path: path, errno: errno)
        }
        var info = stat()
        let size: Int64? = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        self.location = InputLocation(path: name ?? path)
        self.totalBytes = size
        self.descriptor = descriptor
        self.ownsDescriptor = true
        self.pending = []
    }

    /// Wraps an open descriptor (standard input), replaying `prefix`, the bytes already read from it.
    public init(descriptor: Int32, location: InputLocation, prefix: [UInt8]) {
        self.location = location
        self.totalBytes = nil
        self.descriptor = descriptor
        self.ownsDescriptor = false
        self.pending = prefix
    }

    /// Puts bytes already read back in front of the rest, so that they are read again.
    package func putBack(_ bytes: [UInt8]) {
        pending = bytes + pending[pendingOffset...]
        pendingOffset = 0
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        guard buffer.count > 0 else { return 0 }
        if pendingOffset < pending.count {
            let count = min(buffer.count, pending.count - pendingOffset)
            pending.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + pendingOffset, byteCount: count)
            }
            pendingOffset += count
            if pendingOffset == pending.count { pending = [] ; pendingOffset = 0 }
            return count
        }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw ExportError.unreadable(location, reason: String(cString: strerror(errno)))
        }
    }

    /// Reads until `buffer` is full or the input ends; returns how many bytes were read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    package static func openError(path: String, errno code: Int32) -> ExportError {
        if code == ENOENT || code == ENOTDIR {
            return .notFound(path: path)
        }
        return .unreadable(InputLocation(path: path), reason: String(cString: strerror(code)))
    }
}
