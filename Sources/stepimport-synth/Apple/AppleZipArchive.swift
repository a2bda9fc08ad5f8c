import CLibZip
import Glibc

/// Packs a generated export the way the Health app's `export.zip` holds it:
/// `apple_health_export/export.xml` and `apple_health_export/export_cda.xml`,
/// both deflated.
///
/// The XML is streamed from a file by libzip (never held in memory); libzip
/// switches to Zip64 by itself for entries of 4 GiB and more. Entry times and
/// permissions are fixed so the same arguments give the same archive bytes.
enum AppleZipArchive {
    /// Entry name of the main document.
    static let exportEntry = "apple_health_export/export.xml"
    /// Entry name of the clinical document.
    static let clinicalEntry = "apple_health_export/export_cda.xml"

    /// Writes `archivePath` from the XML file at `xmlPath` and `clinical` bytes.
    static func write(archivePath: String, xmlPath: String, clinical: [UInt8],
                      modified: Int64) throws(SynthError) {
        // libzip converts times to MS-DOS fields with localtime(); pin the zone
        // so that the archive does not depend on the machine's TZ.
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

        guard let xmlSource = zip_source_file(archive, xmlPath, 0, -1) else { throw failure() }
        let xmlIndex = zip_file_add(archive, exportEntry, xmlSource, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard xmlIndex >= 0 else {
            zip_source_free(xmlSource)
            throw failure()
        }

        // libzip frees this copy itself once the archive is written (freep = 1).
        guard let copy = malloc(max(1, clinical.count)) else { throw failure() }
        clinical.withUnsafeBytes { raw in
            if let base = raw.baseAddress { memcpy(copy, base, raw.count) }
        }
        guard let clinicalSource = zip_source_buffer(archive, copy, zip_uint64_t(clinical.count), 1) else {
            free(copy)
            throw failure()
        }
        let clinicalIndex = zip_file_add(archive, clinicalEntry, clinicalSource, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard clinicalIndex >= 0 else {
            zip_source_free(clinicalSource)
            throw failure()
        }

        for index in [xmlIndex, clinicalIndex] {
            let entry = zip_uint64_t(index)
            guard zip_set_file_compression(archive, entry, ZIP_CM_DEFLATE, 0) == 0,
                  zip_file_set_mtime(archive, entry, time_t(modified), 0) == 0,
                  zip_file_set_external_attributes(archive, entry, 0, zip_uint8_t(ZIP_OPSYS_UNIX),
                                                   zip_uint32_t(0o100644) << 16) == 0
            else { throw failure() }
        }

        guard zip_close(archive) == 0 else { throw failure() }
    }
}
