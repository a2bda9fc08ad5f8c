import DisplayText

/// How the table format is shown where it goes: on a terminal, split into blocks of columns that
/// fit its width and coloured; in a pipe or a file, whole rows, plain (for grep and programs).
public struct TableDisplay: Sendable, Equatable {
    /// The columns a table may take before it is split into blocks; nil for whole rows.
    public let width: Int?
    /// Whether what the rule chose (the winning source) is coloured.
    public let styling: TextStyling

    public init(width: Int?, styling: TextStyling) {
        self.width = width
        self.styling = styling
    }

    /// Whole rows, no colour: pipes, files, tests.
    public static let plain = TableDisplay(width: nil, styling: .off)

    /// Prose beside a table (a footer) as shown: each line wider than `width` wrapped between
    /// words, its later lines under its indent; as it is without a width.
    public func fitted(_ text: String) -> String {
        guard let width else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line).displayWidth <= width ? String(line)
                : String(line).wrapped(width: width, continuationIndent: line.prefix { $0 == " " }.count).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
