import Glibc
import Foundation

/// The batch's memory across runs: an append-only file of JSON lines, one `BatchJournalEntry` per
/// account outcome, each on disk (written and fsynced) before `record` returns.
///
/// A process killed at any moment leaves at worst a torn last line, which `init` drops, truncating
/// the file so that later lines start clean; the account it was about is simply tried again. Only
/// one process may hold a journal at a time (an exclusive `flock`). Thread-safe: parallel uploads
/// may record through one journal.
public final class BatchJournal: Sendable {
    public let path: String
    /// Bytes of a torn last line that opening removed (0 when the file was whole), for a warning.
    public let repairedBytes: Int
    /// Whether opening created the file.
    public let created: Bool

    private struct State {
        var descriptor: Int32
        /// Where the next line goes: the end of the last whole line.
        var size: off_t
        var latest: [String: BatchJournalEntry]
        /// fsync calls that succeeded, for tests.
        var syncs: Int
    }

    private let state: LockedState<State>

    /// Opens the journal at `path`, creating it (mode 600) when missing, and reads its entries.
    ///
    /// Fails when another process holds the journal, or when a line other than the last is not a
    /// journal entry (someone edited it: fix or delete the line, or start over with `--redo`).
    public init(path: String) throws(BatchError) {
        self.path = path
        var created = true
        var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EEXIST {
            created = false
            descriptor = open(path, O_RDWR | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw Self.failure(path, "cannot be opened for writing") }
        var syncs = 0
        do throws(BatchError) {
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                if errno == EWOULDBLOCK {
                    throw .journalInUse(path: path)
                }
                throw Self.failure(path, "cannot be locked")
            }
            if created {
                // The new name must survive a crash too, or the first entries could vanish with it.
                guard fsync(descriptor) == 0 else { throw Self.failure(path, "cannot be synced to disk") }
                try Self.syncFolder(of: path)
                syncs += 2
            }
            let bytes = try Self.readAll(descriptor, path)
            let (latest, validEnd) = try Self.parse(bytes, path)
            if validEnd < bytes.count {
                guard ftruncate(descriptor, off_t(validEnd)) == 0 else {
                    throw Self.failure(path, "its torn last line cannot be removed")
                }
                guard fsync(descriptor) == 0 else { throw Self.failure(path, "cannot be synced to disk") }
                syncs += 1
            }
            self.created = created
            repairedBytes = bytes.count - validEnd
            state = LockedState(State(descriptor: descriptor, size: off_t(validEnd), latest: latest, syncs: syncs))
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
    }

    deinit {
        close()
    }

    /// Where the journal goes when `--journal` is not given: beside the manifest, named after it
    /// (`accounts.csv` gives `accounts.journal.jsonl`, or `accounts.shard-2-of-4.journal.jsonl` for
    /// shard 2/4, so that shards sharing a folder do not share a journal).
    public static func defaultPath(forManifest manifest: String, shard: BatchShard = .all) -> String {
        let url = URL(fileURLWithPath: manifest)
        let folder = manifest.contains("/") ? String(manifest[...manifest.lastIndex(of: "/")!]) : ""
        var stem = url.deletingPathExtension().lastPathComponent
        if shard.count > 1 {
            stem += ".shard-\(shard.index)-of-\(shard.count)"
        }
        return folder + stem + ".journal.jsonl"
    }

    /// The latest entry of every account in the journal.
    public var latest: [String: BatchJournalEntry] {
        state.withLock { $0.latest }
    }

    /// The latest entry for this account, if any.
    public func latest(for account: String) -> BatchJournalEntry? {
        state.withLock { $0.latest[account] }
    }

    /// Whether the account's latest entry says it is done (a re-run skips it).
    public func isDone(_ account: String) -> Bool {
        latest(for: account)?.status == .done
    }

    /// Appends the entry and returns once it is on disk (write, then fsync).
    ///
    /// On failure the file is cut back to where it was, so that it never ends in half a line.
    public func record(_ entry: BatchJournalEntry) throws(BatchError) {
        let line = Array(entry.jsonLine.utf8)
        let path = self.path
        try state.withLock { (state) throws(BatchError) in
            guard state.descriptor >= 0 else {
                throw .journal(path: path, reason: "already closed")
            }
            var written = 0
            while written < line.count {
                let count = line.withUnsafeBytes { buffer in
                    pwrite(state.descriptor, buffer.baseAddress! + written, buffer.count - written,
                           state.size + off_t(written))
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    let failure = Self.failure(path, "cannot be written")
                    _ = ftruncate(state.descriptor, state.size)
                    throw failure
                }
                written += count
            }
            guard fsync(state.descriptor) == 0 else {
                let failure = Self.failure(path, "cannot be synced to disk")
                _ = ftruncate(state.descriptor, state.size)
                throw failure
            }
            state.syncs += 1
            state.size += off_t(line.count)
            state.latest[entry.account] = entry
        }
    }

    /// Releases the file and its lock; `record` fails afterwards. Called on deinit.
    public func close() {
        state.withLock { state in
            if state.descriptor >= 0 {
                closeDescriptor(state.descriptor)
                state.descriptor = -1
            }
        }
    }

    /// fsync calls so far (file and folder), for tests.
    var syncCount: Int {
        state.withLock { $0.syncs }
    }

    // MARK: - Reading

    private static func readAll(_ descriptor: Int32, _ path: String) throws(BatchError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "cannot be read")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            offset += off_t(count)
        }
    }

    /// The latest entry per account and the end of the last whole line. A last line that is not
    /// whole (no line end, or not an entry: the tail of a write cut short) ends before it.
    private static func parse(_ bytes: [UInt8], _ path: String) throws(BatchError) -> ([String: BatchJournalEntry], Int) {
        var latest: [String: BatchJournalEntry] = [:]
        let decoder = JSONDecoder()
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            lineNumber += 1
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                return (latest, start)
            }
            let line = bytes[start..<newline]
            let isLast = newline + 1 == bytes.count
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                start = newline + 1
                continue
            }
            guard let entry = try? decoder.decode(BatchJournalEntry.self, from: Data(line)) else {
                if isLast { return (latest, start) }
                throw .journal(path: path, reason: "line \(lineNumber) is not a journal entry; fix or delete "
                    + "that line, or run again with --redo to start over")
            }
            latest[entry.account] = entry
            start = newline + 1
        }
        return (latest, start)
    }

    private static func syncFolder(of path: String) throws(BatchError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "its folder cannot be opened to sync it") }
        defer { closeDescriptor(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(path, "its folder cannot be synced to disk") }
    }

    private static func failure(_ path: String, _ what: String) -> BatchError {
        .journal(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// `close(2)`, out of reach of `BatchJournal.close()`, which shadows it inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// A value behind an `NSLock`. Swift's `Mutex` would do, but on Linux it is a bare futex that
/// ThreadSanitizer cannot see, so it reports races between threads that the lock keeps apart;
/// a pthread mutex keeps `--sanitize=thread` runs of `batch --jobs` quiet and meaningful.
private final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
