import Foundation
import HealthDays
import Platform

/// Copies a stream into a temporary file, for inputs that must be read from the end or by name.
///
/// A zip's directory sits at its end, so a zip arriving on standard input (or nested inside
/// another zip) cannot be read as a stream: it is spooled to a file with no name, unlinked as
/// soon as it is created, so nothing is left behind even if the process is killed. A database
/// goes to a named copy (SQLite opens files by name) through the same `copy`. Every copy keeps
/// to `TemporaryCopyLimits`.
package enum TemporarySpool {
    /// The folder for temporary files: `$TMPDIR`, else `/tmp`.
    package static var folder: String {
        SystemFile.temporaryFolder(ProcessInfo.processInfo.environment)
    }

    /// Writes `prefix` and then the rest of `stream` to a new unnamed file; returns it at offset 0.
    package static func spool(_ stream: ByteStream, prefix: [UInt8] = [],
                              limits: TemporaryCopyLimits = .standard) throws(ExportError) -> SystemFile {
        let directory = limits.resolvedFolder
        let file: SystemFile
        do {
            file = try SystemFile.anonymous(in: directory, prefix: "stepimport-")
        } catch {
            throw ExportError.unreadable(stream.location, reason: "cannot create a temporary file in \(directory): \(error)")
        }
        try copy(stream, prefix: prefix, into: file, location: stream.location, limits: limits, progress: nil)
        do {
            try file.seek(to: 0)
        } catch {
            throw ExportError.unreadable(stream.location, reason: error.description)
        }
        return file
    }

    /// Writes `prefix` and the rest of `stream` to `file` (in `limits`' folder), stopping with
    /// `ExportError.copyRefused` when it passes a cap; `progress` is called with the bytes
    /// copied so far and the total when known. The caller removes the file on an error.
    package static func copy(_ stream: ByteStream, prefix: [UInt8], into file: SystemFile, location: InputLocation,
                             limits: TemporaryCopyLimits, progress: ((Int64, Int64?) -> Void)?) throws(ExportError) {
        let budget = try CopyBudget(stream, prefixCount: prefix.count, folder: limits.resolvedFolder, limits: limits)
        func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
            do {
                try file.writeAll(bytes)
            } catch {
                throw ExportError.unreadable(location, reason: "cannot write the temporary copy: \(error)")
            }
        }
        let prefixWritten = prefix.withUnsafeBytes { raw in Result { () throws(ExportError) in try write(raw) } }
        try prefixWritten.get()
        var copied = Int64(prefix.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            try budget.check(copied + Int64(count))
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            copied += Int64(count)
            progress?(copied, stream.totalBytes.map { $0 + Int64(prefix.count) })
        }
    }
}
