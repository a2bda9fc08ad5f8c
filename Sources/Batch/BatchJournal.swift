import Foundation
import Platform

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
        /// nil once closed.
        var file: SystemFile?
        /// Where the next line goes: the end of the last whole line.
        var size: Int64
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
        func step<T>(_ what: String, _ call: () throws(SystemError) -> T) throws(BatchError) -> T {
            do {
                return try call()
            } catch {
                throw .journal(path: path, reason: "\(what): \(error)")
            }
        }
        let (file, created) = try step("cannot be opened for writing") { () throws(SystemError) in
            try SystemFile.openCreating(path, mode: 0o600)
        }
        var syncs = 0
        guard try step("cannot be locked", { () throws(SystemError) in try file.tryLockExclusive() }) else {
            throw .journalInUse(path: path)
        }
        if created {
            // The new name must survive a crash too, or the first entries could vanish with it.
            try step("cannot be synced to disk") { () throws(SystemError) in try file.sync() }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try step("its folder cannot be synced to disk") { () throws(SystemError) in try SystemFile.syncFolder(folder) }
            syncs += 2
        }
        let bytes = try step("cannot be read") { () throws(SystemError) in try file.readAll() }
        let (latest, validEnd) = try Self.parse(bytes, path)
        if validEnd < bytes.count {
            try step("its torn last line cannot be removed") { () throws(SystemError) in try file.truncate(to: Int64(validEnd)) }
            try step("cannot be synced to disk") { () throws(SystemError) in try file.sync() }
            syncs += 1
        }
        self.created = created
        repairedBytes = bytes.count - validEnd
        state = LockedState(State(file: file, size: Int64(validEnd), latest: latest, syncs: syncs))
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

    /// Where the journal goes for a run that writes days (`--output`) without posting, when
    /// `--journal` is not given: beside what it writes, so that writing the same manifest
    /// elsewhere starts afresh. In a folder of files `DIR/.stepimport.journal.jsonl`, beside a
    /// database `days.sqlite.journal.jsonl`; with `--shard 2/4`, `.shard-2-of-4` before `.journal`.
    public static func defaultPath(forOutput output: String, isFolder: Bool, shard: BatchShard = .all) -> String {
        let shardPart = shard.count > 1 ? ".shard-\(shard.index)-of-\(shard.count)" : ""
        guard isFolder else { return output + shardPart + ".journal.jsonl" }
        return (output.hasSuffix("/") ? output : output + "/") + ".stepimport" + shardPart + ".journal.jsonl"
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
        latest(for: account)?.status.isFinal ?? false
    }

    /// Appends the entry and returns once it is on disk (write, then fsync).
    ///
    /// On failure the file is cut back to where it was, so that it never ends in half a line.
    public func record(_ entry: BatchJournalEntry) throws(BatchError) {
        let line = Array(entry.jsonLine.utf8)
        let path = self.path
        try state.withLock { (state) throws(BatchError) in
            guard let file = state.file else {
                throw .journal(path: path, reason: "already closed")
            }
            let size = state.size
            let written = line.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in try file.writeAll(buffer, at: size) }
            }
            if case .failure(let error) = written {
                try? file.truncate(to: size)
                throw .journal(path: path, reason: "cannot be written: \(error)")
            }
            do {
                try file.sync()
            } catch {
                try? file.truncate(to: size)
                throw .journal(path: path, reason: "cannot be synced to disk: \(error)")
            }
            state.syncs += 1
            state.size += Int64(line.count)
            state.latest[entry.account] = entry
        }
    }

    /// Releases the file and its lock; `record` fails afterwards. Called on deinit.
    public func close() {
        state.withLock { state in
            state.file = nil
        }
    }

    /// fsync calls so far (file and folder), for tests.
    var syncCount: Int {
        state.withLock { $0.syncs }
    }

    // MARK: - Reading

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
}

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
