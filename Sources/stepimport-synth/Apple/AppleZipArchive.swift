/// Packs a generated export the way the Health app's `export.zip` holds it:
/// `apple_health_export/export.xml` and `apple_health_export/export_cda.xml`,
/// both deflated.
///
/// The XML is streamed from its file (never held in memory); the archive's
/// bytes depend only on its content (`DeterministicZipWriter`).
enum AppleZipArchive {
    /// Entry name of the main document.
    static let exportEntry = "apple_health_export/export.xml"
    /// Entry name of the clinical document.
    static let clinicalEntry = "apple_health_export/export_cda.xml"

    /// Writes `archivePath` from the XML file at `xmlPath` and `clinical` bytes.
    static func write(archivePath: String, xmlPath: String, clinical: [UInt8],
                      modified: Int64) throws(SynthError) {
        let zip = try DeterministicZipWriter(path: archivePath, modified: modified)
        try zip.addFile(exportEntry, from: xmlPath)
        try zip.addBytes(clinicalEntry, clinical)
        try zip.close()
    }
}
