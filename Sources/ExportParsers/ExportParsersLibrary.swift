import CLibXML2
import HealthDays

/// Process-wide set-up of the C libraries under the parsers.
public enum ExportParsersLibrary {
    /// Initialises libxml2 once, on the calling thread. Call it before reading exports on
    /// several threads at once (`stepimport batch --jobs`), so that no two parsers race to
    /// set up libxml2's globals.
    public static func prepareForThreads() {
        xmlInitParser()
    }
}
