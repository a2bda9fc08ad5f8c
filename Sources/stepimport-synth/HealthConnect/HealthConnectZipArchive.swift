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
        let zip = try DeterministicZipWriter(path: archivePath, modified: modified)
        try zip.addFile(entryName, from: databasePath)
        try zip.close()
    }
}
