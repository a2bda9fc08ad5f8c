import Glibc
import Foundation
import HealthDays

/// Copies a stream into an anonymous temporary file, for zips that must be read from the end.
///
/// A zip's directory sits at its end, so a zip arriving on standard input (or nested inside
/// another zip) cannot be read as a stream. The file is unlinked as soon as it is created:
/// nothing is left behind, even if the process is killed.
package enum TemporarySpool {
    /// Writes `prefix` and then the rest of `stream` to a new unlinked file; returns its descriptor, at offset 0.
    package static func spool(_ stream: ByteStream, prefix: [UInt8] = []) throws(ExportError) -> Int32 {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/stepimport-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ExportError.unreadable(stream.location,
                                         reason: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        do throws(ExportError) {
            try writeAll(descriptor, prefix, stream.location)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try stream.read(into: buffer)
                if count == 0 { break }
                try writeAll(descriptor, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), stream.location)
            }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw ExportError.unreadable(stream.location, reason: String(cString: strerror(errno)))
            }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ location: InputLocation) throws(ExportError) {
        let result = bytes.withUnsafeBytes { raw -> ExportError? in
            do throws(ExportError) { try writeAll(descriptor, raw, location); return nil } catch { return error }
        }
        if let result { throw result }
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ location: InputLocation) throws(ExportError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ExportError.unreadable(location, reason: "cannot write the temporary copy: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
