/// What output for people adapts to: how many columns it may take, and whether the terminal shows
/// UTF-8. The one rule for help pages, messages wrapped on standard error, tables split into blocks
/// of columns, and `inspect`'s chart.
public enum TerminalDisplay {
    /// The width when neither `COLUMNS` nor a terminal gives one: what text was always written for.
    public static let defaultColumns = 80
    /// `COLUMNS` beyond this is not a terminal's width but a mistake, and ignored.
    public static let widestColumns = 10_000

    /// The columns for text written to `stream`: `columns(environment:terminalColumns:)` with the
    /// width of the terminal `stream` is, if it is one.
    public static func columns(for stream: StandardStreams.Stream, environment: [String: String]) -> Int {
        columns(environment: environment, terminalColumns: stream.terminalColumns)
    }

    /// The columns to lay out for: `COLUMNS` when it is a whole number from 1 to `widestColumns`
    /// (as a shell sets it, and as a user sets it to ask for a width), else `terminalColumns` (the
    /// terminal's own width; nil when the output is no terminal), else `defaultColumns`. Callers
    /// cap it where long lines read badly (help pages at 100).
    public static func columns(environment: [String: String], terminalColumns: Int?) -> Int {
        if let text = environment["COLUMNS"], text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
           let columns = Int(text), (1...widestColumns).contains(columns) {
            return columns
        }
        if let terminalColumns, terminalColumns > 0 { return terminalColumns }
        return defaultColumns
    }

    /// Whether the locale's character set is UTF-8, by the variables that choose it, in POSIX's
    /// order: `LC_ALL`, else `LC_CTYPE`, else `LANG` (the first one set and not empty). None of
    /// them is the C locale, which is ASCII; `C.UTF-8` and `en_US.utf8` are UTF-8.
    public static func showsUnicode(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        guard let dot = locale.firstIndex(of: ".") else { return false }
        let codeset = locale[locale.index(after: dot)...].prefix { $0 != "@" }
        return codeset.lowercased().filter { $0 != "-" && $0 != "_" } == "utf8"
    }
}
