import HealthDays
import ExportParsers
import Outputs

/// Options shared by every subcommand that reads an export.
struct ReadOptions {
    var format: OutputFormat = .table
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
