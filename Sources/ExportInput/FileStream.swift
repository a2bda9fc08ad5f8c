import HealthDays
import Platform

/// Reads a file (or standard input) through a file descriptor, with bytes already read put back in front.
public final class FileStream: ByteStream {
    public let location: InputLocation
    public let totalBytes: Int64?
    private let file: SystemFile
    private var pending: [UInt8]
    private var pendingOffset = 0

    /// Opens a regular file for reading; errors name it `shownAs` (default: the path).
    public init(path: String, shownAs name: String? = nil) throws(ExportError) {
        do {
            file = try SystemFile.open(path)
        } catch {
            throw FileStream.openError(path: path, error)
        }
        let status = try? file.status()
        self.location = InputLocation(path: name ?? path)
        self.totalBytes = status?.kind == .regular ? status?.size : nil
        self.pending = []
    }

    /// Wraps an open descriptor (standard input), replaying `prefix`, the bytes already read from it.
    public init(descriptor: Int32, location: InputLocation, prefix: [UInt8]) {
        self.location = location
        self.totalBytes = nil
        self.file = SystemFile(descriptor: descriptor, owned: false)
        self.pending = prefix
    }

    /// Puts bytes already read back in front of the rest, so that they are read again.
    package func putBack(_ bytes: [UInt8]) {
        pending = bytes + pending[pendingOffset...]
        pendingOffset = 0
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
        do {
            return try file.read(into: buffer)
        } catch {
            throw ExportError.unreadable(location, reason: error.description)
        }
    }


    /// The error for a path that cannot be opened: not found, or unreadable and why.
    package static func openError(path: String, _ error: SystemError) -> ExportError {
        if error.isNotFound {
            return .notFound(path: path)
        }
        return .unreadable(InputLocation(path: path), reason: error.description)
    }
}
