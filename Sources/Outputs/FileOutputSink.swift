import Glibc
import Platform

/// A file of `-o FILE`, complete or not there: the bytes go to a temporary file beside it
/// (`FileReplacement`), made when the sink is, so that a folder that does not exist fails before
/// any work; `finish()` flushes it to the disk and renames it into place. Until then, and when
/// the run fails or is stopped by a signal, the file that was there stays as it was.
///
/// A path that is no regular file (a FIFO, a terminal, `/dev/null`) cannot be replaced: it is
/// written directly, as a shell's `>` would; `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the
/// process's own descriptors, written where they stand (a `>>` stays an append).
public final class FileOutputSink: OutputSink {
    /// The path as given, for messages.
    public let path: String
    private let replacement: FileReplacement?
    /// The descriptor written: the temporary file's, or the device's.
    private let file: SystemFile
    private var buffer = WriteBuffer(flushSize: StandardOutputSink.flushSize)

    /// Makes the temporary file beside `path` (or opens a device or FIFO); fails at once when
    /// it cannot, with nothing made.
    public init(path: String) throws(OutputError) {
        self.path = path
        if let descriptor = Self.descriptor(named: path) {
            file = SystemFile(descriptor: descriptor, owned: false)
            replacement = nil
            return
        }
        let status = try? FileStatus.of(path: path)
        if status?.kind == .directory {
            throw .file(path: path, .create(folder: path), SystemError(code: EISDIR))
        }
        if status?.kind == .other {
            do {
                file = try SystemFile.open(path, .writeExisting)
            } catch {
                throw .file(path: path, .write, error)
            }
            replacement = nil
            return
        }
        do {
            let replacement = try FileReplacement(replacing: path)
            self.replacement = replacement
            file = replacement.file
        } catch {
            throw .file(path: path, error.step, error.error)
        }
    }

    public func write(_ text: String) throws(OutputError) {
        do {
            try buffer.write(text, to: file.descriptor)
        } catch {
            discard()
            throw .file(path: path, .write, error)
        }
    }

    /// Writes what is held and puts the file in place.
    public func finish() throws(OutputError) {
        do {
            try buffer.flush(to: file.descriptor)
        } catch {
            discard()
            throw .file(path: path, .write, error)
        }
        guard let replacement else { return }
        do {
            try replacement.commit()
        } catch {
            throw .file(path: path, error.step, error.error)
        }
    }

    /// The descriptor a path names: `/dev/stdout` 1, `/dev/stderr` 2, `/dev/fd/N` and
    /// `/proc/self/fd/N` N; nil for any other path.
    static func descriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count)).flatMap { $0 >= 0 ? $0 : nil }
            }
            return nil
        }
    }

    /// Removes the temporary file: the path keeps what it had. Nothing more is written.
    public func discard() {
        replacement?.discard()
    }
}
