import Platform

/// A file opened for writing through plain system calls (`SystemFile`), fed in large chunks.
///
/// System calls rather than `FileHandle` so that a write error is an error value with
/// `errno` instead of an Objective-C style exception, and so that a placeholder
/// written early (the export date) can be patched in place.
struct OutputFile: ~Copyable {
    /// The path the file was opened at, for messages.
    let path: String
    private let file: SystemFile
    private var pending: [UInt8]
    /// Bytes handed to `write(_:)` so far, buffered or not.
    private(set) var bytesWritten: Int = 0

    /// Size at which buffered bytes are handed to the kernel: big enough that
    /// system calls cost nothing next to formatting, small enough to stay in L2/L3.
    private static let flushThreshold = 4 << 20

    /// Creates or truncates `path` (mode 0644 before the umask).
    init(path: String) throws(SynthError) {
        do {
            file = try SystemFile.open(path, .writeReplacing(mode: 0o644))
        } catch {
            throw SynthError.cannotCreate(path: path, reason: error.description)
        }
        self.path = path
        pending = []
        pending.reserveCapacity(OutputFile.flushThreshold + (1 << 20))
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
        let failure = bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try file.writeAll(raw, at: Int64(offset)) }
        }
        if case .failure(let error) = failure {
            throw SynthError.writeFailed(path: path, reason: error.description)
        }
    }

    /// Writes everything still buffered.
    mutating func flush() throws(SynthError) {
        let failure = pending.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try file.writeAll(raw) }
        }
        if case .failure(let error) = failure {
            throw SynthError.writeFailed(path: path, reason: error.description)
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes; errors from `close` (delayed write errors) are reported.
    mutating func finish() throws(SynthError) {
        try flush()
        do {
            try file.close()
        } catch {
            throw SynthError.writeFailed(path: path, reason: error.description)
        }
    }
}
