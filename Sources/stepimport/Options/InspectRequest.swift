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

    /// Why there is no CSV or database of an inspection: the reason both `--format csv` and
    /// `-o report.csv` are refused with.
    static let whyNoRows = "inspect writes a table or JSON: its sections (records, sources, offsets, refused days) "
        + "have different columns, which fit in no CSV or database"
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
        abstract: "Show what is in an export, without the totals.",
        overview: "Show what is in an export, without the totals.",
        discussion: HelpText.inspectDiscussion,
        arguments: [
            Argument("export", help: "Any export apple or hc reads, or - (standard input).",
                     missing: "missing the export to inspect (a path, or - for standard input)",
                     surplus: "one export at a time") { $0.path = $1 },
        ],
        options: [
            .value("--format", value: "format", help: "table (default) or json.") { (request, text) throws(Rejection) in
                let word = text.lowercased()
                guard let format = InspectionFormat(rawValue: word) else {
                    if OutputFormat(rawValue: word) != nil {
                        throw Rejection("--format \(word): \(InspectionFormat.whyNoRows); use --format json for programs")
                    }
                    throw Rejection("unknown format '\(text)' (use table or json)")
                }
                request.format = format
                request.formatGiven = true
            }.choices(InspectionFormat.allCases.map(\.rawValue))
                .manual("table (default) or json (its shape is in the README). No csv: the sections have different columns."),
            .output(help: "Write the report to this file, whole or not at all.", manual: """
                Write the report to this file instead of standard output, whole or not at all. Its format: \
                --format, else the name (.json), else a table; CSV and databases have no room for sections of \
                different columns.
                """),
            .inputFormat,
            .zone(help: "Count the days in this IANA zone (Europe/Berlin).", manual: """
                The trainee's IANA zone (e.g. Europe/Berlin): the days are counted in it, and 'today' for the \
                refused days is its date. Default: each sample's own offset, and this machine's today.
                """),
            .skipInvalid(help: "Skip and report invalid records instead of stopping.",
                         manual: "Skip step records that cannot be read or are beyond the bounds, and report them, instead of stopping.")
                .usage(.helpOnly),
            .flag("--exclude-manual", help: "Leave records typed in by hand out of the days.") {
                $0.read.excludeManual = true
            }.manual("Leave records typed in by hand out of the days (they are counted per source either way).").usage(.helpOnly),
            .strictXML(help: "Check the whole Apple export as XML.", manual: """
                Check the whole Apple export as XML, as apple --strict-xml does. Without it, records of types not \
                asked for, activity summaries and workouts are counted and checked only for structure.
                """).usage(.helpOnly),
            .flag("--ascii", help: "Draw the chart of steps in ASCII only.") { $0.ascii = true }.manual("""
                Draw the table's chart of steps with ASCII characters only, as when the locale (LC_ALL, LC_CTYPE, \
                LANG) is not UTF-8.
                """).usage(.helpOnly),
            .verbose(help: "Also print what was read, its size and speed.").usage(.helpOnly),
            .color,
            .noProgress(help: "Print no progress indicator.").usage(.helpOnly),
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
            throw Rejection("-o \(output): \(InspectionFormat.whyNoRows); name the file .json or .txt, or give --format")
        case .table?, nil: request.format = .table
        }
    }
}
