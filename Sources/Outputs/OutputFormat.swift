/// How results are written.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// A readable table with a footer.
    case table
    /// Exactly the body of `POST /v1/trainee/health/days`.
    case json
    /// Comma-separated values with a header.
    case csv
    /// An SQLite database (`ResultsDatabase`, docs/sqlite.md): a file, never standard output.
    case sqlite
}

extension OutputFormat {
    /// The writer of a text format, its tables shown plain (whole rows, no colour).
    public var textWriter: (any ResultsWriter)? {
        textWriter(display: .plain)
    }

    /// The writer of a text format, its tables shown as `display` says (the other formats are for
    /// programs and ignore it): the one place the format is switched on. A new text output is a
    /// writer (a `ResultsWriter`) and its case here; nil for `sqlite`, whose days go to a
    /// `ResultsDatabase` instead.
    public func textWriter(display: TableDisplay) -> (any ResultsWriter)? {
        switch self {
        case .table: TableWriter(display: display)
        case .json: JSONWriter()
        case .csv: CSVWriter()
        case .sqlite: nil
        }
    }

    /// The format a file's name asks for: `.json`, `.csv`, `.sqlite`, `.sqlite3` or `.db`, in any
    /// case; nil for any other name (a table, unless `--format` says otherwise).
    public init?(fileExtensionOf path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "csv": self = .csv
        case "sqlite", "sqlite3", "db": self = .sqlite
        default: return nil
        }
    }
}
