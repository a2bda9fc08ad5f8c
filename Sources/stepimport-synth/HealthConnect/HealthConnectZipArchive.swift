import CLibZip
import Glibc

/// Packs a generated database the way Health Connect's backup holds it: a zip (named as the
/// user likes, e.g. `Health Connect.zip`) with one deflated entry, `health_connect_export.db`.
///
/// The database is streamed from its file by libzip. Entry time and permissions are fixed, so
/// the same arguments give the same archive bytes. (Health Connect's own zips come from Java's
/// zip library with data descriptors; libzip writes sizes in the local headers instead, which
/// every reader takes as well.)
enum HealthConnectZipArchive {
    static let entryName = "health_connect_export.db"

    /// Writes `archivePath` holding the database file at `databasePath`.
    static func write(archivePath: String, databasePath: String, modified: Int64) throws(SynthError) {
        // libzip converts times to MS-DOS fields with localtime(): pin the zone.
        setenv("TZ", "UTC", 1)
        tzset()

        var code: Int32 = 0
        guard let archive = zip_open(archivePath, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            let reason = String(cString: zip_error_strerror(&error))
            zip_error_fini(&error)
            throw SynthError.cannotCreate(path: archivePath, reason: reason)
        }
        func failure() -> SynthError {
            let reason = String(cString: zip_strerror(archive))
            zip_discard(archive)
            return SynthError.zip(path: archivePath, reason: reason)
        }
        guard let source = zip_source_file(archive, databasePath, 0, -1) else { throw failure() }
        let index = zip_file_add(archive, entryName, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
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
        guard zip_close(archive) == 0 else { throw failure() }
    }
}
