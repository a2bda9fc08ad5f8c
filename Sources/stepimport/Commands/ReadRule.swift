import ExportParsers
import HealthDays
import Outputs

/// A day rule (`--rule`, `--metric`) of `apple` and `hc` as the one read pipeline (`ReadCommand.read(by:post:)`) runs it:
/// the sink the export is read into, the days it gives once read, how they are written, and its
/// summary on stderr. The highest source for steps (`HighestSourceSteps`) or for `--metric`
/// (`HighestSourceMetrics`), Health Connect's priority rule for either (`PrioritySteps`,
/// `PriorityMetrics`).
protocol ReadRule {
    /// The days one read gave.
    associatedtype Days
    /// What the export is read into (behind `--exclude-source` when it is given).
    var sink: RecordSink { get }
    /// Settles the rule once the last record is in.
    func finish() throws(ExportError)
    /// The days, once finished: every day with a value, and the rows to write (within `range`).
    func days(in range: ClosedRange<LocalDate>?) -> Days
    /// What the table's zone footer speaks of.
    var statistics: AggregationStats { get }
    /// Under `--rule hc-priority`, the list followed; nil under the highest-source rule.
    var priority: [String]? { get }
    /// The rows to write (within `--since`/`--until`), as every output takes them.
    func results(_ days: Days) -> DayResults
    /// The dates of the days with a value before and after `--since`/`--until`, and what they have.
    func filtered(_ days: Days) -> (all: [LocalDate], kept: [LocalDate], what: String)
    /// The step totals within `--since`/`--until`, which `--post` sends and the refusals list
    /// speaks of; nil when the rule gives none.
    func steps(_ days: Days) -> [DayTotal]?
    /// The rule's summary on stderr, from what was read to its zone notes; `timeOffset` is the
    /// daylight-saving hint of the days shown (`ImportResult.exportTimeOffset`).
    func report(_ result: ImportResult, _ days: Days, seconds: Double, timeOffset: ExportTimeOffset?, by command: ReadCommand)
    /// `--explain`: why the one day of `days` (read for the recorder's date alone) is what it is,
    /// one explanation per metric the rule totals.
    func explanations(of days: Days, _ recorder: DaySampleRecorder, excludedSources: [SourcePattern],
                      excludeManual: Bool) -> [DayExplanation]
}

/// The days of one read: every day with a value, and those within `--since`/`--until`.
struct ReadDays<Day> {
    let all: [Day]
    let shown: [Day]
    let range: ClosedRange<LocalDate>?

    init(_ all: [Day], within range: ClosedRange<LocalDate>?, date: (Day) -> LocalDate) {
        self.all = all
        self.shown = range.map { range in all.filter { range.contains(date($0)) } } ?? all
        self.range = range
    }
}

/// Steps, the highest source of each day (`DayTotal(highestSourceOn:among:)`); the one rule `--post` reads by.
struct HighestSourceSteps: ReadRule {
    let aggregator: DayAggregator

    init(zone: ZoneRule) {
        aggregator = DayAggregator(rule: zone)
    }

    var sink: RecordSink { aggregator }
    func finish() throws(ExportError) { try aggregator.finish() }
    func days(in range: ClosedRange<LocalDate>?) -> ReadDays<DayTotal> {
        ReadDays(aggregator.dayTotals(in: nil), within: range, date: \.date)
    }
    var statistics: AggregationStats { aggregator.statistics }
    var priority: [String]? { nil }

    func report(_ result: ImportResult, _ days: ReadDays<DayTotal>, seconds: Double, timeOffset: ExportTimeOffset?,
                by command: ReadCommand) {
        command.report(result, statistics, days: days.shown, allDays: days.all, seconds: seconds, timeOffset: timeOffset)
    }
}

/// The step rules' days are day totals: written as such, filtered by their dates, and posted.
extension ReadRule where Days == ReadDays<DayTotal> {
    func results(_ days: ReadDays<DayTotal>) -> DayResults {
        .dayTotals(days.shown)
    }

    func filtered(_ days: ReadDays<DayTotal>) -> (all: [LocalDate], kept: [LocalDate], what: String) {
        (days.all.map(\.date), days.shown.map(\.date), "steps")
    }

    func steps(_ days: ReadDays<DayTotal>) -> [DayTotal]? { days.shown }

    func explanations(of days: ReadDays<DayTotal>, _ recorder: DaySampleRecorder, excludedSources: [SourcePattern],
                      excludeManual: Bool) -> [DayExplanation] {
        [DayExplanation(recorder, excludedSources: excludedSources, excludeManual: excludeManual, day: days.shown.first,
                        priority: priority)]
    }
}

/// A rule of `--metric`: its days are written a column per column of the metrics asked for.
protocol MetricReadRule: ReadRule where Days == MetricReadDays {
    var metrics: MetricSet { get }
}

extension MetricReadRule {
    func results(_ days: MetricReadDays) -> DayResults {
        .metricDays(days.days.shown, sources: days.sources, columns: metrics.columns)
    }

    func filtered(_ days: MetricReadDays) -> (all: [LocalDate], kept: [LocalDate], what: String) {
        (days.days.all.map(\.date), days.days.shown.map(\.date), "values")
    }

    func explanations(of days: MetricReadDays, _ recorder: DaySampleRecorder, excludedSources: [SourcePattern],
                      excludeManual: Bool) -> [DayExplanation] {
        metrics.metrics.map { metric in
            DayExplanation(recorder, metric: metric, excludedSources: excludedSources, excludeManual: excludeManual,
                           metricDay: days.days.shown.first, sourceValues: days.sources, priority: priority)
        }
    }
}
