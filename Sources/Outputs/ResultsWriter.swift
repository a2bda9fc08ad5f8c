import BackendUpload
import DisplayText
import Foundation
import HealthDays

/// One output format: every result the commands print, each written to a sink as it goes.
/// `OutputFormat.textWriter` chooses one; a new format is a new conformer and its case there.
public protocol ResultsWriter {
    /// Day totals (`apple`, `hc`; `--by-source` shows each day's sources).
    func writeDayTotals(_ days: [DayTotal], _ layout: DayLayout, to sink: any OutputSink) throws(OutputError)
    /// The days of `--metric`, a column per metric column; with `--by-source` the sources' values.
    func writeMetricDays(_ days: [MetricDay], sources: [MetricSourceValue], columns: [MetricColumn], _ layout: DayLayout,
                         to sink: any OutputSink) throws(OutputError)
    /// `--plan`: per day the server's value, the new one and what a post would do.
    func writePlan(_ prepared: PreparedUpload, zone: TimeZone, to sink: any OutputSink) throws(OutputError)
    /// `--dry-run`: the requests a post would make.
    func writeBatches(_ plan: UploadPlan, to sink: any OutputSink) throws(OutputError)
    /// What `inspect` found.
    func writeInspection(_ inspection: Inspection, to sink: any OutputSink) throws(OutputError)
    /// `--explain DATE`: why one day is what it is.
    func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError)
}

/// How days are shown, beside the days themselves.
public struct DayLayout: Sendable {
    /// Show every source's value per day and mark the one the rule took.
    public let bySource: Bool
    /// Words for the table footer: which zone rule placed the values.
    public let zoneDescription: String
    /// Under `--rule hc-priority`, the priority list used (sources, highest first): each day is then
    /// Health Connect's total, its sources what each app gave, with its place in the list.
    public let priority: [String]?
    /// With `bySource`: the sources' days whose steps came partly from records typed in by hand.
    public let enteredByHand: Set<SourceDay>

    public init(bySource: Bool, zoneDescription: String, priority: [String]? = nil, enteredByHand: Set<SourceDay> = []) {
        self.bySource = bySource
        self.zoneDescription = zoneDescription
        self.priority = priority
        self.enteredByHand = enteredByHand
    }

    /// Whether `source`'s steps on `date` came partly from hand entries.
    func byHand(_ date: LocalDate, _ source: String) -> Bool {
        !enteredByHand.isEmpty && enteredByHand.contains(SourceDay(date: date, source: source))
    }
}

/// One source on one day.
public struct SourceDay: Hashable, Sendable {
    public let date: LocalDate
    public let source: String

    public init(date: LocalDate, source: String) {
        self.date = date
        self.source = source
    }
}

/// An app's place in a priority list, 1 the highest; 0 when absent (such an app gives nothing).
func priorityPlace(of source: String, in priority: [String]) -> Int {
    (priority.firstIndex(of: source) ?? -1) + 1
}

/// A metric value as every format writes it: whole columns as integers, the others with one decimal.
public func metricValueText(_ value: Double, _ column: MetricColumn) -> String {
    if column.decimals == 0, let whole = Int(exactly: value) { return String(whole) }
    return String(format: "%.\(column.decimals)f", value)
}

extension MetricDay {
    /// The value of `column` as written, empty where the day has none.
    func cell(_ column: MetricColumn) -> String {
        self[column].map { metricValueText($0, column) } ?? ""
    }
}

extension MetricSourceValue.Standing {
    /// `yes`, `no` or `implausible` (left out of the day's choice), as CSV and JSON write it.
    var word: String {
        switch self {
        case .winner: "yes"
        case .other: "no"
        case .implausible: "implausible"
        }
    }
}

/// A CSV field, with control characters escaped as in the table (`\u{1b}`: CSV is text that ends up
/// on terminals and in spreadsheets; `--format json` keeps a name's exact characters), then quoted
/// per RFC 4180 when it holds a comma or a quote. A field therefore never holds a line break.
public func csvField(_ text: String) -> String {
    let shown = text.escapingControlCharacters()
    guard shown.contains(where: { $0 == "," || $0 == "\"" }) else { return shown }
    return "\"" + shown.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// UTC offsets as Apple writes them: +0100, -0430.
public enum OffsetText {
    public static func format(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(Int(seconds)) / 60
        return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}
