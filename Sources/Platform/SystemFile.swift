import Glibc

/// An open file descriptor, closed when the value goes away: the one place stepimport reads,
/// writes, seeks, syncs and locks files. Every call retries on `EINTR` and short transfers.
public final class SystemFile {
    /// How to open a file.
    public enum Access: Sendable {
        /// Read only.
        case read
        /// Read and write, creating the file with `mode` when it does not exist.
        case readWriteCreating(mode: mode_t)
        /// Write only, creating the file with `mode` or emptying the one there.
        case writeReplacing(mode: mode_t)
        /// Write only, a file that exists (a FIFO, a device), neither created nor emptied.
        case writeExisting
    }

    public let descriptor: Int32
    private var owned: Bool

    /// Takes over `descriptor`; it is closed with this value unless `owned` is false.
    public init(descriptor: Int32, owned: Bool = true) {
        self.descriptor = descriptor
        self.owned = owned
    }

    deinit {
        if owned { Glibc.close(descriptor) }
    }

    /// Opens `path` (close-on-exec).
    public static func open(_ path: String, _ access: Access = .read) throws(SystemError) -> SystemFile {
        let descriptor: Int32
        switch access {
        case .read: descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        case .readWriteCreating(let mode): descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        case .writeReplacing(let mode): descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        case .writeExisting: descriptor = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw SystemError.last }
        return SystemFile(descriptor: descriptor)
    }

    /// Opens `path` for reading and writing, creating it with `mode` when missing; `created` says
    /// whether this call made it (so that the caller can make the new name durable).
    public static func openCreating(_ path: String, mode: mode_t) throws(SystemError) -> (file: SystemFile, created: Bool) {
        var descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if descriptor >= 0 { return (SystemFile(descriptor: descriptor), true) }
        guard errno == EEXIST else { throw SystemError.last }
        descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.last }
        return (SystemFile(descriptor: descriptor), false)
    }

    /// Makes a folder (its parent must exist); one that is already there is fine.
    public static func makeFolder(_ path: String, mode: mode_t = 0o777) throws(SystemError) {
        guard mkdir(path, mode) == 0 || errno == EEXIST else { throw SystemError.last }
    }

    /// Flushes a folder's entries to the disk, so that a file just created there survives a crash.
    public static func syncFolder(_ folder: String) throws(SystemError) {
        let descriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.last }
        try SystemFile(descriptor: descriptor).sync()
    }

    /// Reads the whole file from its start, whatever the file position.
    public func readAll() throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let offset = Int64(bytes.count)
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try read(at: offset, into: buffer) }
            }.get()
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Creates a new file, mode 0600, named `prefix` and six random characters in `folder`; the
    /// caller removes the name (`unlinkName`) when it is no longer needed.
    public static func createTemporary(in folder: String, prefix: String) throws(SystemError) -> (file: SystemFile, path: String) {
        var template = Array("\(folder)/\(prefix)XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SystemError.last }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (SystemFile(descriptor: descriptor), path)
    }

    /// A file with no name in `folder`, so nothing is left behind even if the process is killed:
    /// made nameless by `O_TMPFILE` where the file system supports it, else created and unlinked
    /// at once.
    public static func anonymous(in folder: String, prefix: String) throws(SystemError) -> SystemFile {
        let nameless = Glibc.open(folder, SystemFile.openTemporaryFile | O_RDWR | O_CLOEXEC, mode_t(0o600))
        if nameless >= 0 { return SystemFile(descriptor: nameless) }
        // Older kernels and some file systems refuse O_TMPFILE (EOPNOTSUPP, EISDIR, EINVAL); any
        // other failure (no such folder, no permission) is the same for mkstemp.
        let (file, path) = try createTemporary(in: folder, prefix: prefix)
        unlinkName(path)
        return file
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's module does not export.
    static let openTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY

    /// Removes a name from the file system, ignoring failure (a temporary file's name).
    public static func unlinkName(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// The folder for temporary files: `$TMPDIR` when set and not empty, else `/tmp`.
    public static func temporaryFolder(_ environment: [String: String]) -> String {
        environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Gives the descriptor away (to a library that closes it itself); this value no longer closes it.
    public func releaseDescriptor() -> Int32 {
        owned = false
        return descriptor
    }

    /// Closes now, reporting a failure (a delayed write error shows here).
    public func close() throws(SystemError) {
        guard owned else { return }
        owned = false
        guard Glibc.close(descriptor) == 0 else { throw SystemError.last }
    }

    /// The file's status.
    public func status() throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemError.last }
        return FileStatus(info)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemError.last }
        }
    }

    /// Reads until `buffer` is full or the file ends; returns the bytes read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Reads up to `buffer.count` bytes at `offset`, without moving the file position.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno != EINTR { throw SystemError.last }
        }
    }

    /// Writes all of `bytes`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try SystemFile.writeAll(bytes, to: descriptor)
    }

    /// Writes all of `bytes` at `offset`, without moving the file position.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            done += written
        }
    }

    /// Writes all of `bytes` to a descriptor this type does not own (standard output).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            done += written
        }
    }

    /// Writes all of `text`'s UTF-8 bytes to a descriptor this type does not own, without a copy.
    public static func writeAll(_ text: String, to descriptor: Int32) throws(SystemError) {
        var text = text
        let failure: SystemError? = text.withUTF8 { bytes in
            do throws(SystemError) {
                try SystemFile.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Moves the file position to `offset` from the start.
    public func seek(to offset: Int64) throws(SystemError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw SystemError.last }
    }

    /// Cuts or extends the file to `length` bytes.
    public func truncate(to length: Int64) throws(SystemError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw SystemError.last }
    }

    /// Flushes the file's data and metadata to the disk (`fsync`).
    public func sync() throws(SystemError) {
        guard fsync(descriptor) == 0 else { throw SystemError.last }
    }

    /// Takes an exclusive advisory lock without waiting; false when another process holds one.
    public func tryLockExclusive() throws(SystemError) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw SystemError.last
    }
}
