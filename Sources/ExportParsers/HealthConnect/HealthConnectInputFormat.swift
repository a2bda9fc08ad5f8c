import HealthDays
/// The kinds of file `stepimport hc` reads, for `--input-format` (zips are always recognised).
public enum HealthConnectInputFormat: String, CaseIterable, Sendable {
    /// Health Connect's own export database (`health_connect_export.db`).
    case sqlite
    /// JSON dumps of apps and Google Fit Takeout's raw step streams.
    case json
    /// Record or day-total CSV, and Google Fit Takeout's CSVs.
    case csv
}

/// A parser that can describe what it read, in the words of the import report.
protocol SummarizingParser: StepRecordParser {
    /// Adds this parser's counts, notes and skipped records to `summary`.
    func summarize(into summary: inout ImportSummary, at location: InputLocation)
    /// A few words on the format found, e.g. "react-native-health-connect JSON".
    var formatName: String { get }
    /// Adds what this parser recognised to an inventory (`stepimport inspect`).
    func takeStock(into inventory: inout ExportInventory)
    /// Whether what it read gives steps alone, whatever `--metric` asked for (the summary says so).
    var givesStepsOnly: Bool { get }
}

extension SummarizingParser {
    var givesStepsOnly: Bool { true }
}
