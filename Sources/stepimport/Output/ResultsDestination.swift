import Foundation
import HealthDays
import Outputs
import Platform

/// Where a command's results go: standard output, a file (`-o FILE`, put in place when complete)
/// or a database (`-o FILE.sqlite`): the one place that chooses. Made before the export is read, so
/// that a folder that does not exist, or a database that is not stepimport's, fails before any work.
///
/// A run that fails, or ends without `finish`, leaves the path as it was: the temporary file of a
/// file or new database goes with the value (and on a signal, with `TemporaryCleanup`).
final class ResultsDestination {
    private enum Place {
        case standardOutput
        case file(FileOutputSink)
        case database(ResultsDatabase)
    }

    let format: OutputFormat
    /// `-o`'s path as given; nil for standard output.
    let path: String?
    /// How a table is shown there (`TableDisplay.results(toFile:color:)`).
    let display: TableDisplay
    private let place: Place

    /// `path` nil (or `-`) is standard output. A format other than the one the file's name says is
    /// written as asked, with a warning (`days.csv` holding JSON surprises whoever opens it).
    /// `color` is `--color`: a file is coloured only when it says `always`.
    init(path: String?, format: OutputFormat, formatGiven: Bool, color: ColorChoice, diagnostics: Diagnostics) throws(CommandError) {
        self.format = format
        guard let path, path != "-" else {
            self.path = nil
            display = .results(toFile: false, color: color)
            place = .standardOutput
            return
        }
        self.path = path
        display = .results(toFile: true, color: color)
        if formatGiven, let named = OutputFormat(fileExtensionOf: path), named != format {
            diagnostics.warn("-o \(path.escapingControlCharacters()): written as \(format.rawValue) (--format), "
                             + "though its name says \(named.rawValue)")
        }
        do throws(OutputError) {
            place = format == .sqlite ? .database(try ResultsDatabase(path: path)) : .file(try FileOutputSink(path: path))
        } catch {
            throw .output(Self.words(error))
        }
    }

    /// The width of the terminal the results go to; nil for a file, or a standard output that is
    /// no terminal.
    var terminalColumns: Int? {
        guard case .standardOutput = place else { return nil }
        return StandardStreams.Stream.output.terminalColumns
    }

    /// Writes a text result (days, the plan, the inspection, an explanation) with the format's
    /// writer, its tables shown as `display` says; the file is complete and in place when this returns.
    func write(_ body: (any ResultsWriter, any OutputSink) throws(OutputError) -> Void) throws(CommandError) {
        guard let writer = format.textWriter(display: display) else {
            throw .output("-o \(path ?? "-"): this result is text; an SQLite database holds days only")
        }
        let sink: any OutputSink
        switch place {
        case .standardOutput: sink = StandardOutputSink()
        case .file(let file): sink = file
        case .database: throw .output("-o \(path ?? "-"): this result is text; an SQLite database holds days only")
        }
        do throws(OutputError) {
            try body(writer, sink)
            try sink.finish()
        } catch {
            throw .output(Self.words(error))
        }
    }

    /// Writes the days: as text, or as one import's rows of the database (`record` says what was
    /// imported; asked for only then).
    func writeDays(_ results: DayResults, _ layout: DayLayout, record: () -> ResultsDatabase.Import) throws(CommandError) {
        guard case .database(let database) = place else {
            return try write { (writer, sink) throws(OutputError) in try writer.writeDays(results, layout, to: sink) }
        }
        do throws(OutputError) {
            try database.write(record(), results, layout)
            try database.finish()
        } catch {
            throw .output(Self.words(error))
        }
    }

    /// The summary's last line, `wrote 45 days to days.csv (csv)`; nil for standard output.
    func wrote(_ what: String) -> String? {
        path.map { "wrote \(what) to \($0.escapingControlCharacters()) (\(format.rawValue))" }
    }

    /// An output error in words: `-o` and the path, or standard output.
    private static func words(_ error: OutputError) -> String {
        if case .standardOutput = error { return "cannot write the results to standard output: \(error)" }
        return "-o \(error.description.escapingControlCharacters())"
    }
}

extension ResultsDatabase.Import {
    /// What a single run of `apple` or `hc` imported: the export as an absolute path (`-` for
    /// standard input), its format, the zone rule, the day rule and the command line.
    static func singleRun(path: String, format: String, zone: ZoneRule, rule: DayRule?) -> ResultsDatabase.Import {
        let file = path == "-" ? "-" : URL(fileURLWithPath: path).standardizedFileURL.path
        return ResultsDatabase.Import(account: "", file: file, format: format, zone: zone.jsonName,
                                      rule: (rule ?? .highestSource).rawValue, options: Array(CommandLine.arguments.dropFirst()),
                                      version: HelpText.version)
    }
}
