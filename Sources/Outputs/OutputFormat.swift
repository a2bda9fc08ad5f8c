/// How day totals are printed.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// A readable table with a footer.
    case table
    /// Exactly the body of `POST /v1/trainee/health/days`.
    case json
    /// Comma-separated values with a header.
    case csv
}

extension OutputFormat {
    /// The writer of this format: the one place the format is switched on. A new output is a
    /// writer (a `ResultsWriter`) and its case here.
    public var writer: any ResultsWriter {
        switch self {
        case .table: TableWriter()
        case .json: JSONWriter()
        case .csv: CSVWriter()
        }
    }
}
