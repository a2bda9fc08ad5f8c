import HealthDays
import ExportParsers
import CommandLineKit
import Outputs

/// Options shared by every subcommand that reads an export.
struct ReadOptions {
    /// `--format`, else what `output`'s name says (`resolveOutput`), else a table.
    var format: OutputFormat = .table
    /// Whether `--format` was given (a name's extension does not override it).
    var formatGiven = false
    /// `-o FILE`: where the results go; nil (or `-`) for standard output.
    var output: String?
    /// `--metric`: the metrics to total (docs/metrics.md); steps alone print what they always printed.
    var metrics: MetricSet = .steps
    /// Whether `--metric` was given (a first `--metric` replaces the default instead of adding to it).
    var metricsGiven = false
    var bySource = false
    /// `--rule`: how a day's total is worked out from its sources; nil when not given (the
    /// highest source, or hc-priority when `--priority` is given).
    var rule: DayRule?
    /// `hc --priority`: apps' package names, highest first (the sources they count under); nil when not given.
    var priority: [String]?
    var zone: ZoneRule = .recordedOffset
    var since: LocalDate?
    var until: LocalDate?
    var skipInvalid = false
    /// `apple --strict-xml`: check the whole document as XML, records of every type included.
    var strictXML = false
    /// `--exclude-source`: sources left out before the day rule.
    var excludedSources: [SourcePattern] = []
    /// `--exclude-manual`: leave out records typed in by hand.
    var excludeManual = false
    /// `--explain DATE`: why that day's steps (or metrics) are what they are, instead of the days.
    var explain: LocalDate?
    var quiet = false
    /// `-v, --verbose`: the notes a user cannot act on too (sizes, speed, repairs of the file).
    var verbose = false
    /// `--color`: whether errors, warnings and the winning source are coloured.
    var color = ColorChoice.auto
    var progress = true
    /// `hc --input-format`: nil to detect.
    var inputFormat: String?
    /// `--post` and its options; nil when only printing.
    var post: PostOptions?
}

/// `--rule`: the day rule.
enum DayRule: String, CaseIterable {
    /// The highest single source's total per day (docs/rules.md, *The highest-source rule*): the default, and what is posted.
    case highestSource = "highest-source"
    /// Health Connect's own aggregate: per slice of time the record of the highest-priority app.
    case hcPriority = "hc-priority"
}

extension ReadOptions {
    /// `-o` and `--format` together: the format from the file's name when `--format` is not given,
    /// and what cannot be written where (a database needs a file; `--post` prints nothing).
    mutating func resolveOutput() throws(Rejection) {
        if output == "-" { output = nil }
        if let output, !formatGiven, let named = OutputFormat(fileExtensionOf: output) {
            format = named
        }
        if let post, !post.plan, !post.dryRun, let output {
            throw Rejection("-o \(output) writes what is printed, and --post prints nothing (it sends the days); "
                            + "--report FILE writes what was sent")
        }
        guard format == .sqlite else { return }
        guard let output else {
            throw Rejection("--format sqlite writes a database, which needs a file: add -o days.sqlite")
        }
        let what = formatGiven ? "--format sqlite" : "-o \(output)"
        let clash = explain != nil ? "--explain" : post?.plan == true ? "--plan" : post?.dryRun == true ? "--dry-run" : nil
        if let clash {
            throw Rejection("\(what) writes days into a database; \(clash) prints something else: "
                            + "give -o a .json, .csv or .txt name, or --format table, json or csv")
        }
    }
}
