import HealthDays
import Platform

/// Checks on the file itself, made before SQLite sees it.
extension HealthConnectDatabase {
    /// SQLite's magic string, the first 16 bytes of every database file.
    static let magic: [UInt8] = Array("SQLite format 3\0".utf8)

    /// Reads the 100-byte header of the file at `path` and checks that it is a whole SQLite database.
    ///
    /// SQLite itself treats an empty file as an empty database and reads a truncated one until it
    /// reaches a missing page, which may be after part of the steps were read. The header says how
    /// long the file must be, so a cut-off download is caught before any sample is handed on.
    static func checkFile(path: String, location: InputLocation) throws(ExportError) {
        let file: SystemFile
        let status: FileStatus
        var header = [UInt8](repeating: 0, count: 100)
        let filled: Int
        do {
            file = try SystemFile.open(path)
        } catch {
            if error.isNoEntry { throw ExportError.notFound(path: location.path) }
            throw ExportError.unreadable(location, reason: error.description)
        }
        do {
            status = try file.status()
            if status.kind == .directory {
                throw ExportError.unreadable(location, reason: "it is a folder, not a database file")
            }
            filled = try header.withUnsafeMutableBytes { buffer throws(SystemError) in try file.readFully(into: buffer) }
        } catch let error as SystemError {
            throw ExportError.unreadable(location, reason: error.description)
        } catch let error as ExportError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        try checkHeader(header[0..<filled], fileSize: status.size, location: location)
    }

    /// Checks the magic string, the page size and, where the header records it, the database's length.
    static func checkHeader(_ header: ArraySlice<UInt8>, fileSize: Int64, location: InputLocation) throws(ExportError) {
        let hint = Remedy.useHealthConnectDatabase
        if header.isEmpty {
            throw ExportError.notAnExport(location, expected: .android, found: "the file is empty", remedy: hint)
        }
        guard header.count >= magic.count, header.prefix(magic.count).elementsEqual(magic) else {
            throw ExportError.notAnExport(location, expected: .android,
                                          found: "it is not an SQLite database (it does not start with \"SQLite format 3\")",
                                          remedy: hint)
        }
        let truncated = "the database is truncated"
        let again = "copy it again from the phone or make a new export (Settings > Health Connect > Backup and restore)"
        guard header.count == 100 else {
            throw ExportError.malformed(location, at: .none,
                                        problem: "\(truncated): it ends inside its 100-byte header; \(again)")
        }
        func bigEndian(_ offset: Int, _ width: Int) -> Int64 {
            var value: Int64 = 0
            for index in 0..<width { value = value << 8 | Int64(header[header.startIndex + offset + index]) }
            return value
        }
        let rawPageSize = bigEndian(16, 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw ExportError.malformed(location, at: .none,
                                        problem: "the database header is damaged (page size \(rawPageSize)); \(again)")
        }
        guard fileSize >= pageSize else {
            throw ExportError.malformed(location, at: .none,
                                        problem: "\(truncated): the file has \(fileSize) bytes, less than one page of \(pageSize); \(again)")
        }
        // The page count at offset 28 is valid when the change counter (24) equals the
        // version-valid-for number (92); writers before SQLite 3.7.0 left it stale.
        let pageCount = bigEndian(28, 4)
        if pageCount > 0, bigEndian(24, 4) == bigEndian(92, 4) {
            let expected = pageCount * pageSize
            if fileSize < expected {
                throw ExportError.malformed(location, at: .none,
                                            problem: "\(truncated): its header says \(expected) bytes (\(pageCount) pages of \(pageSize)), the file has \(fileSize); \(again)")
            }
        }
    }
}

