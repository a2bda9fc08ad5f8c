import CLibZip
import HealthDays
import Platform

/// A zip archive opened read-only through libzip.
///
/// Opened without `ZIP_CHECKCONS`: Apple's own export zips fail that consistency check
/// although every entry reads correctly. Released with `zip_discard`, which never writes.
public final class ZipArchive {
    /// The version of libzip the process runs with (`1.7.3`).
    public static var libraryVersion: String { String(cString: zip_libzip_version()) }

    /// One file in the archive.
    public struct Entry: Sendable {
        public let index: UInt64
        /// The name as libzip decodes it (UTF-8, or CP437 converted to UTF-8 when the flag is missing).
        public let name: String
        /// The uncompressed size.
        public let size: Int64
        /// The compressed size, as the archive declares it.
        public let compressedSize: Int64
        /// The CRC-32 of the uncompressed bytes, as the directory declares it; nil when libzip knows none.
        let crc: UInt32?
        /// Whether the entry is deflated and not encrypted: the only kind `ZipInflateStream` reads.
        let isPlainDeflate: Bool
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    public let location: InputLocation
    private let archive: OpaquePointer
    public private(set) var entries: [Entry] = []

    /// Opens the zip file at `path`.
    public convenience init(path: String, location: InputLocation) throws(ExportError) {
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_RDONLY, &code) else {
            throw ZipArchive.openError(code: code, location: location)
        }
        try self.init(archive: archive, location: location)
    }

    /// Opens a zip from a file positioned at its start; libzip takes the descriptor over.
    public convenience init(file: SystemFile, location: InputLocation) throws(ExportError) {
        var code: Int32 = 0
        guard let archive = zip_fdopen(file.descriptor, 0, &code) else {
            throw ZipArchive.openError(code: code, location: location)
        }
        _ = file.releaseDescriptor()
        try self.init(archive: archive, location: location)
    }

    private init(archive: OpaquePointer, location: InputLocation) throws(ExportError) {
        self.archive = archive
        self.location = location
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else {
            throw ExportError.badArchive(location, reason: String(cString: zip_strerror(archive)))
        }
        for index in 0..<UInt64(count) {
            var info = zip_stat_t()
            zip_stat_init(&info)
            guard zip_stat_index(archive, index, 0, &info) == 0, let name = info.name else { continue }
            let known = { (flag: UInt32) in info.valid & UInt64(flag) != 0 }
            let isPlainDeflate = known(ZIP_STAT_COMP_METHOD) && info.comp_method == Int32(ZIP_CM_DEFLATE)
                && known(ZIP_STAT_ENCRYPTION_METHOD) && info.encryption_method == UInt16(ZIP_EM_NONE)
            entries.append(Entry(index: index, name: String(cString: name), size: Int64(clamping: info.size),
                                 compressedSize: Int64(clamping: info.comp_size),
                                 crc: known(ZIP_STAT_CRC) ? info.crc : nil, isPlainDeflate: isPlainDeflate))
        }
    }

    deinit {
        zip_discard(archive)
    }

    /// Opens one entry for streaming its decompressed bytes.
    ///
    /// A deflated entry that is not encrypted and has a CRC-32 is inflated by ISA-L
    /// (`ZipInflateStream`) unless `inflater` is `.zlib`; everything else (stored entries, other
    /// methods, encrypted entries, which libzip refuses) is read by libzip itself.
    public func open(_ entry: Entry, inflater: ZipInflater = .processDefault) throws(ExportError) -> ByteStream {
        if inflater == .isal, entry.isPlainDeflate, let crc = entry.crc {
            guard let raw = zip_fopen_index(archive, entry.index, zip_flags_t(ZIP_FL_COMPRESSED)) else {
                throw ExportError.badArchive(location.entering(entry.name), reason: String(cString: zip_strerror(archive)))
            }
            return ZipInflateStream(archive: self, compressed: raw, entry: entry, crc: crc)
        }
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
            throw ExportError.badArchive(location.entering(entry.name), reason: String(cString: zip_strerror(archive)))
        }
        return ZipEntryStream(archive: self, file: file, entry: entry)
    }

    /// libzip's own words for one of its error codes (with zlib's words for `ZIP_ER_ZLIB`), so
    /// that an entry ISA-L inflates fails with the words libzip would have used.
    static func libzipReason(_ code: Int32, systemError: Int32 = 0) -> String {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        zip_error_set(&error, code, systemError)
        return String(cString: zip_error_strerror(&error))
    }

    private static func openError(code: Int32, location: InputLocation) -> ExportError {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        let reason = String(cString: zip_error_strerror(&error))
        switch code {
        case ZIP_ER_NOENT:
            return .notFound(path: location.path)
        case ZIP_ER_OPEN, ZIP_ER_READ:
            return .unreadable(location, reason: reason)
        case ZIP_ER_NOZIP, ZIP_ER_INCONS:
            return .badArchive(location, reason: "\(reason); its directory, at the end of the file, is missing or damaged (a truncated download?)")
        default:
            return .badArchive(location, reason: reason)
        }
    }
}

/// The decompressed bytes of one zip entry, read front to back without extracting it.
public final class ZipEntryStream: ByteStream {
    public let location: InputLocation
    public let totalBytes: Int64?
    public let compressedBytes: Int64?
    private let archive: ZipArchive
    private let file: OpaquePointer

    init(archive: ZipArchive, file: OpaquePointer, entry: ZipArchive.Entry) {
        self.archive = archive
        self.file = file
        self.location = archive.location.entering(entry.name)
        self.totalBytes = entry.size
        self.compressedBytes = entry.compressedSize
    }

    deinit {
        zip_fclose(file)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        let count = zip_fread(file, buffer.baseAddress!, UInt64(buffer.count))
        guard count >= 0 else {
            let reason = String(cString: zip_error_strerror(zip_file_get_error(file)))
            throw ExportError.badArchive(location, reason: reason)
        }
        return Int(count)
    }
}
