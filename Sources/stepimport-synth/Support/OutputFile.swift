import Glibc

/// A file opened for writing through plain POSIX calls, fed in large chunks.
///
/// POSIX rather than `FileHandle` so that a write error is an error value with
/// `errno` instead of an Objective-C style exception, and so that a placeholder
/// written early (the export date) can be patched in place with `pwrite`.
struct OutputFile: ~Copyable {
    /// The path the file was opened at, for messages.
    let path: String
    private var descriptor: Int32
    private var pending: [UInt8]
    /// Bytes handed to `write(_:)` so far, buffered or not.
    private(set) var bytesWritten: Int = 0

    /// Size at which buffered bytes are handed to the kernel: big enough that
    /// system calls cost nothing next to formatting, small enough to stay in L2/L3.
    private static let flushThreshold = 4 << 20

    /// Creates or truncates `path` (mode 0644 before the umask).
    init(path: String) throws(SynthError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SynthError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        descriptor = fd
        pending = []
        pending.reserveCapacity(OutputFile.flushThreshold + (1 << 20))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends bytes; they reach the file when the buffer fills or on `finish()`.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws(SynthError) {
        pending.append(contentsOf: bytes)
        bytesWritten += bytes.count
        if pending.count >= OutputFile.flushThreshold {
            try flush()
        }
    }

    mutating func write(_ bytes: [UInt8]) throws(SynthError) {
        try write(bytes[...])
    }

    /// Overwrites bytes already written at `offset` (which must have been flushed
    /// or be pending; pending bytes are flushed first).
    mutating func patch(_ bytes: [UInt8], at offset: Int) throws(SynthError) {
        try flush()
        let result = bytes.withUnsafeBytes { raw in
            pwrite(descriptor, raw.baseAddress, raw.count, off_t(offset))
        }
        guard result == bytes.count else {
            throw SynthError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes everything still buffered.
    mutating func flush() throws(SynthError) {
        var start = 0
        let total = pending.count
        var failure: Int32 = 0
        pending.withUnsafeBytes { raw in
            while start < total {
                let n = Glibc.write(descriptor, raw.baseAddress! + start, total - start)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                start += n
            }
        }
        guard failure == 0 else {
            throw SynthError.writeFailed(path: path, reason: String(cString: strerror(failure)))
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; errors from `close` (delayed write errors) are reported.
    mutating func finish() throws(SynthError) {
        try flush()
        let fd = descriptor
        descriptor = -1
        guard close(fd) == 0 else {
            throw SynthError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
