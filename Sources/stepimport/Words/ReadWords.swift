import DisplayText
import ExportParsers
import HealthDays

extension Diagnostics {
    /// `read export.zip: apple_health_export/export.xml (Apple Health XML, locale de_DE)`, then a
    /// line per note of the reader that `shows`; with `verbose`, the size and speed on the first
    /// line (`, 15.1 MB in 1.59 s, 9.5 MB/s`) and the details (`ImportNote.detail`) too. `given`
    /// is the path as the user gave it, for an input of many files.
    func reportRead(_ summary: ImportSummary, seconds: Double, given path: String, verbose: Bool,
                    shows: (ImportNote) -> Bool = { _ in true }) {
        // Several files: the input given (a folder's members each have a path of their own).
        let what = summary.locations.count == 1 ? "\(summary.locations[0])"
            : "\(summary.locations.count) files from \(InputLocation(path: path))"
        var figures = ""
        if verbose {
            let rate = seconds > 0 ? ", \(ByteCount.format(Int64(Double(summary.bytesRead) / seconds)))/s" : ""
            figures = ", \(ByteCount.format(summary.bytesRead)) in \(String(format: "%.2f", seconds)) s\(rate)"
        }
        note("read \(what) (\(summary.format)\(figures))")
        for readerNote in summary.notes where (verbose || !readerNote.isDetail) && shows(readerNote) {
            note(readerNote.words)
        }
    }
}
