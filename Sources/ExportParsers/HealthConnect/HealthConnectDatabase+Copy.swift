import Foundation
import Platform
import HealthDays
import ExportInput

/// Databases read through a private copy: a zip entry (`Health Connect.zip`), standard input, or
/// a database with its write-ahead log or rollback journal beside it.
extension HealthConnectDatabase {
    /// A journal found beside a database (`NAME-wal` or `NAME-journal`), applied on a private copy.
    public struct Journal: Equatable, Sendable {
        public enum Kind: String, Sendable, CaseIterable {
            case writeAheadLog = "-wal"
            case rollbackJournal = "-journal"
        }

        public let kind: Kind
        /// The journal's name as the user sees it (the file beside the database, or the zip entry).
        public let name: String
        public let byteSize: Int64
    }

    /// Copies `stream` (after `prefix`, bytes already read from it) to a temporary file and opens
    /// the copy; the copy's name is removed as soon as SQLite holds it open.
    ///
    /// SQLite needs a real path: it resolves symbolic links in the name it is given, so the
    /// `/proc/self/fd/N` of an already unlinked file (what `TemporarySpool` makes) ends at
    /// "... (deleted)" and cannot be opened.
    /// The copy therefore keeps a name, in a private folder (mode 0700) in `$TMPDIR` registered
    /// with `TemporaryCleanup`, only until the open succeeds or fails. `progress` is called with
    /// the bytes copied so far and the total when known; the copy keeps to `limits`.
    public convenience init(copying stream: ByteStream, prefix: [UInt8] = [], location: InputLocation? = nil,
                            limits: TemporaryCopyLimits = .standard,
                            progress: ((Int64, Int64?) -> Void)? = nil) throws(ExportError) {
        try self.init(copying: stream, prefix: prefix, journal: nil, location: location, limits: limits, progress: progress)
    }

    /// The same, with the copy made in `folder`, so tests can watch it.
    convenience init(copying stream: ByteStream, prefix: [UInt8], location: InputLocation?,
                     progress: ((Int64, Int64?) -> Void)?, in folder: String) throws(ExportError) {
        try self.init(copying: stream, prefix: prefix, journal: nil, location: location,
                      limits: TemporaryCopyLimits(folder: folder), progress: progress)
    }

    /// Copies the database and, when there is one, its journal (`kind`, read from `stream`, shown
    /// as `name`) into a new private folder, and opens the copy. Without a journal the copy is
    /// opened `immutable` and its folder removed at once; with one, SQLite must apply it (a WAL
    /// needs its `-shm` index beside it, a hot journal a rollback), so the copy is opened
    /// read-write and its folder is removed with the connection.
    convenience init(copying stream: ByteStream, prefix: [UInt8],
                     journal: (kind: Journal.Kind, stream: ByteStream, name: String)?,
                     location: InputLocation?, limits: TemporaryCopyLimits,
                     progress: ((Int64, Int64?) -> Void)?) throws(ExportError) {
        let location = location ?? stream.location
        let parent = limits.resolvedFolder
        let folder: PrivateFolder
        do {
            folder = try PrivateFolder.create(in: parent, prefix: "stepimport-hc-")
        } catch {
            throw ExportError.unreadable(location, reason: "cannot create a temporary copy in \(parent): \(error)")
        }
        let name = "health_connect_export.db"
        let path = folder.file(named: name)
        for kind in Journal.Kind.allCases { _ = folder.file(named: name + kind.rawValue) }
        _ = folder.file(named: name + "-shm")
        try HealthConnectDatabase.copy(stream, prefix: prefix, to: path, location: location, limits: limits, progress: progress)
        guard let journal else {
            try self.init(opening: path, location: location)
            // SQLite holds the file open: its name goes now.
            folder.remove()
            return
        }
        try HealthConnectDatabase.copy(journal.stream, prefix: [], to: path + journal.kind.rawValue,
                                       location: journal.stream.location, limits: limits, progress: nil)
        let size = (try? FileStatus.of(path: path + journal.kind.rawValue).size) ?? 0
        try self.init(opening: path, location: location, privateCopy: folder,
                      journal: Journal(kind: journal.kind, name: journal.name, byteSize: size))
    }

    /// A database at `path` with a non-empty `-wal` or `-journal` beside it is read through a
    /// private copy of both, never where it is: opening it there would write beside the input.
    static func journalBeside(_ path: String) -> (kind: Journal.Kind, path: String)? {
        for kind in Journal.Kind.allCases {
            let candidate = path + kind.rawValue
            if let status = try? FileStatus.of(path: candidate), status.kind == .regular, status.size > 0 {
                return (kind, candidate)
            }
        }
        return nil
    }

    /// Whether `path` names an open descriptor rather than a file (`/proc/self/fd/N`, `/dev/fd/N`).
    static func isDescriptorPath(_ path: String) -> Bool {
        for prefix in ["/proc/self/fd/", "/dev/fd/"] where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            return !rest.isEmpty && rest.allSatisfy(\.isASCII) && rest.allSatisfy(\.isNumber)
        }
        return false
    }

    /// Writes `prefix` and the rest of `stream` to a new file at `path` (mode 0600), within `limits`.
    private static func copy(_ stream: ByteStream, prefix: [UInt8], to path: String, location: InputLocation,
                             limits: TemporaryCopyLimits, progress: ((Int64, Int64?) -> Void)?) throws(ExportError) {
        let file: SystemFile
        do {
            file = try SystemFile.open(path, .writeReplacing(mode: 0o600))
        } catch {
            throw ExportError.unreadable(location, reason: "cannot create a temporary copy in \(limits.resolvedFolder): \(error)")
        }
        try TemporarySpool.copy(stream, prefix: prefix, into: file, location: location, limits: limits, progress: progress)
        do {
            try file.close()
        } catch {
            throw ExportError.unreadable(location, reason: "cannot write the temporary copy: \(error)")
        }
    }
}
