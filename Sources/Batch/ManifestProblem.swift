import DisplayText

/// One thing wrong with a batch manifest: where (line and column name) and what.
public struct ManifestProblem: Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line of the row (1 is the header).
    public let line: Int
    /// The header name of the column at fault, or nil when the whole row is at fault.
    public let column: String?
    public let message: String

    public init(line: Int, column: String?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 4, kind: ...`, or `line 4: ...` for a whole row; the message quotes the manifest's
    /// values, so its control characters are escaped.
    public var description: String {
        "line \(line)\(column.map { ", \($0)" } ?? ""): \(message.escapingControlCharacters())"
    }
}
