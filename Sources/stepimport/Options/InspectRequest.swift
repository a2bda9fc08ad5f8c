import CommandLineKit
import ExportParsers
import HealthDays
import Outputs

/// How `stepimport inspect` prints what it found.
enum InspectionFormat: String, CaseIterable, Sendable {
    /// Sections for people.
    case table
    /// One JSON object for scripts (its shape is in docs/guide.md).
    case json

    /// The output format of the same name, whose writer writes the inspection.
    var output: OutputFormat {
        // Each case is named after an output format.
        OutputFormat(rawValue: rawValue)!
    }
}

/// What `stepimport inspect` is asked to do: the export, and how to read and show it.
struct InspectRequest: ReadingRequest {
    var path = ""
    var read = ReadOptions()
    /// `--format`, else what `-o`'s name says (`resolveOutput`), else a table.
    var format = InspectionFormat.table
    var formatGiven = false
    /// `--ascii`: the chart of steps in ASCII, whatever the locale.
    var ascii = false

    /// `stepimport inspect`.
    static let command = Command<InspectRequest>(
        "inspect",
        abstract: .asWritten("""
            Show what is in an export (Apple Health or Android): format,
            metadata, record types, sources, offsets, duplicates, bad days.
            """),
        overview: "Show what is in an export, without the totals.",
        discussion: HelpText.inspectDiscussion,
        arguments: [
            Argument("export", help: .asWritten("""
                Any export `stepimport apple` or `stepimport hc` reads (zip,
                folder, XML, database, JSON, CSV), or - for standard input.
                """), missing: "missing the export to inspect (a path, or - for standard input)",
                     surplus: "one export at a time") { $0.path = $1 },
        ],
        options: [
            .value("--format", value: "format", help: "table (default) or json (its shape is in the README).") {
                (request, text) throws(Rejection) in
                guard let format = InspectionFormat(rawValue: text) else {
                    throw Rejection("unknown format '\(text)' (use table or json)")
                }
                request.format = format
                request.formatGiven = true
            }.choices(InspectionFormat.allCases.map(\.rawValue)),
            .output(help: .asWritten("""
                Write the report to this file instead of standard
                output, whole or not at all. Its format: --format,
                else the name (.json), else a table; CSV and databases
                have no room for sections of different columns.
                """)),
            .inputFormat,
            .zone(help: .asWritten("""
                The trainee's IANA zone (e.g. Europe/Berlin): the days are
                counted in it, and 'today' for the refused days is its date.
                Default: each sample's own offset, and this machine's today.
                """)),
            .skipInvalid(help: "Skip step records that cannot be read or are beyond the bounds, and report them, instead of stopping.")
                .usage(.helpOnly),
            .flag("--exclude-manual", help: "Leave records typed in by hand out of the days (they are counted per source either way).") {
                $0.read.excludeManual = true
            }.usage(.helpOnly),
            .strictXML(help: .asWritten("""
                Check the whole Apple export as XML, as apple --strict-xml
                does. Without it, records of types not asked for, activity
                summaries and workouts are counted and checked only for
                structure.
                """)).usage(.helpOnly),
            .flag("--ascii", help: .asWritten("""
                Draw the table's chart of steps with ASCII characters only,
                as when the locale (LC_ALL, LC_CTYPE, LANG) is not UTF-8.
                """)) { $0.ascii = true }.usage(.helpOnly),
            .noProgress(help: "Print no progress indicator.").usage(.never),
        ],
        sections: HelpText.inspectSections,
        finish: resolveOutput)

    /// The format from `-o`'s name when `--format` is not given: JSON for `.json`, a table for a
    /// name it does not know; a CSV or database name is refused, as nothing would fit in it.
    private static func resolveOutput(_ request: inout InspectRequest) throws(Rejection) {
        if request.read.output == "-" { request.read.output = nil }
        guard let output = request.read.output, !request.formatGiven else { return }
        switch OutputFormat(fileExtensionOf: output) {
        case .json?: request.format = .json
        case .csv?, .sqlite?:
            throw Rejection("-o \(output): inspect writes a table or JSON; its sections have different columns, "
                            + "which fit in no CSV or database: name the file .json or .txt, or give --format")
        case .table?, nil: request.format = .table
        }
    }
}
