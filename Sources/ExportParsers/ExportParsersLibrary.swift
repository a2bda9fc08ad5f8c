import CLibXML2
import CSQLite
import ExportInput
import HealthDays

/// Process-wide set-up of the C libraries under the parsers.
public enum ExportParsersLibrary {
    /// Initialises libxml2 once, on the calling thread. Call it before reading exports on
    /// several threads at once (`stepimport batch --jobs`), so that no two parsers race to
    /// set up libxml2's globals.
    public static func prepareForThreads() {
        xmlInitParser()
    }

    /// The versions of the C libraries the readers run with (not those built against), for
    /// `--version` and bug reports: libxml2, libzip, ISA-L (the version built against: it reports
    /// none at run time) and SQLite, by name.
    public static var libraryVersions: [(name: String, version: String)] {
        [("libxml2", libxml2Version), ("libzip", ZipArchive.libraryVersion), ("ISA-L", ZipInflater.isalVersion),
         ("SQLite", String(cString: sqlite3_libversion()))]
    }

    /// libxml2 writes its version as one number, 20914 for 2.9.14.
    private static var libxml2Version: String {
        let written = __xmlParserVersion()?.pointee.map { String(cString: $0) } ?? "unknown"
        guard let number = Int(written) else { return written }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
