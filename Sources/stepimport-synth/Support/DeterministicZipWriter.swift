import CLibZip
import Glibc

/// Writes a zip whose bytes depend only on what is put in it: every entry deflated, with a
/// fixed time and permissions. Files are streamed from disk by libzip (never held in memory),
/// and libzip switches to Zip64 by itself for entries of 4 GiB and more.
final class DeterministicZipWriter {
    private let path: String
    private let modified: Int64
    private var archive: OpaquePointer?

    /// Starts `path` (replacing it); entries get the time `modified` (seconds since 1970).
    init(path: String, modified: Int64) throws(SynthError) {
        // libzip converts times to MS-DOS fields with localtime(): pin the zone so that the
        // archive does not depend on the machine's TZ.
        setenv("TZ", "UTC", 1)
        tzset()
        var code: Int32 = 0
        guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            let reason = String(cString: zip_error_strerror(&error))
            zip_error_fini(&error)
            throw SynthError.cannotCreate(path: path, reason: reason)
        }
        self.path = path
        self.modified = modified
        self.archive = archive
    }

    deinit {
        if let archive { zip_discard(archive) }
    }

    /// Adds the file at `file` as entry `name`.
    func addFile(_ name: String, from file: String) throws(SynthError) {
        let archive = try open()
        guard let source = zip_source_file(archive, file, 0, -1) else { throw failure() }
        try add(name, source)
    }

    /// Adds `bytes` as entry `name`.
    func addBytes(_ name: String, _ bytes: [UInt8]) throws(SynthError) {
        let archive = try open()
        // libzip frees this copy itself once the archive is written (freep = 1).
        guard let copy = malloc(max(1, bytes.count)) else { throw failure() }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { memcpy(copy, base, raw.count) }
        }
        guard let source = zip_source_buffer(archive, copy, zip_uint64_t(bytes.count), 1) else {
            free(copy)
            throw failure()
        }
        try add(name, source)
    }

    /// Writes the archive.
    func close() throws(SynthError) {
        let archive = try open()
        guard zip_close(archive) == 0 else { throw failure() }
        self.archive = nil
    }

    private func open() throws(SynthError) -> OpaquePointer {
        guard let archive else { throw SynthError.zip(path: path, reason: "the archive is already closed") }
        return archive
    }

    private func add(_ name: String, _ source: OpaquePointer) throws(SynthError) {
        let archive = try open()
        let index = zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw failure()
        }
        let entry = zip_uint64_t(index)
        guard zip_set_file_compression(archive, entry, ZIP_CM_DEFLATE, 0) == 0,
              zip_file_set_mtime(archive, entry, time_t(modified), 0) == 0,
              zip_file_set_external_attributes(archive, entry, 0, zip_uint8_t(ZIP_OPSYS_UNIX),
                                               zip_uint32_t(0o100644) << 16) == 0
        else { throw failure() }
    }

    private func failure() -> SynthError {
        let reason = archive.map { String(cString: zip_strerror($0)) } ?? "unknown"
        return SynthError.zip(path: path, reason: reason)
    }
}
