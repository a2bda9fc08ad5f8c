import Foundation
import Platform
import HealthDays
import ExportInput

/// Databases that arrive as a stream: a zip entry (`Health Connect.zip`) or standard input.
extension HealthConnectDatabase {
    /// Copies `stream` (after `prefix`, bytes already read from it) to a temporary file and opens
    /// the copy; the copy's name is removed as soon as SQLite holds it open.
    ///
    /// SQLite needs a real path: it resolves symbolic links in the name it is given, so the
    /// `/proc/self/fd/N` of an already unlinked file (what `TemporarySpool` makes) ends at
    /// "... (deleted)" and cannot be opened.
    /// The copy therefore keeps a name (in `$TMPDIR`, mode 0600) only until the open succeeds
    /// or fails. `progress` is called with the bytes copied so far and the total when known.
    public convenience init(copying stream: ByteStream, prefix: [UInt8] = [], location: InputLocation? = nil,
                            progress: ((Int64, Int64?) -> Void)? = nil) throws(ExportError) {
        try self.init(copying: stream, prefix: prefix, location: location, progress: progress, in: nil)
    }

    /// The same, with the copy made in `folder` (nil: `$TMPDIR` or `/tmp`), so tests can watch it.
    convenience init(copying stream: ByteStream, prefix: [UInt8], location: InputLocation?,
                     progress: ((Int64, Int64?) -> Void)?, in folder: String?) throws(ExportError) {
        let location = location ?? stream.location
        let path = try HealthConnectDatabase.copyToTemporaryFile(stream, prefix: prefix, location: location,
                                                                 progress: progress, in: folder)
        defer { SystemFile.unlinkName(path) }
        try self.init(opening: path, location: location)
    }

    /// Whether `path` names an open descriptor rather than a file (`/proc/self/fd/N`, `/dev/fd/N`).
    static func isDescriptorPath(_ path: String) -> Bool {
        for prefix in ["/proc/self/fd/", "/dev/fd/"] where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            return !rest.isEmpty && rest.allSatisfy(\.isASCII) && rest.allSatisfy(\.isNumber)
        }
        return false
    }

    /// Writes `prefix` and the rest of `stream` to a new file in the temporary folder; returns its path.
    static func copyToTemporaryFile(_ stream: ByteStream, prefix: [UInt8], location: InputLocation,
                                    progress: ((Int64, Int64?) -> Void)?, in folder: String?) throws(ExportError) -> String {
        let folder = folder ?? TemporarySpool.folder
        let file: SystemFile
        let path: String
        do {
            (file, path) = try SystemFile.createTemporary(in: folder, prefix: "stepimport-hc-")
        } catch {
            throw ExportError.unreadable(location, reason: "cannot create a temporary copy in \(folder): \(error)")
        }
        do throws(ExportError) {
            try TemporarySpool.copy(stream, prefix: prefix, into: file, location: location, progress: progress)
            do {
                try file.close()
            } catch {
                throw ExportError.unreadable(location, reason: "cannot write the temporary copy: \(error)")
            }
        } catch {
            SystemFile.unlinkName(path)
            throw error
        }
        return path
    }
}
