/// What to do with a step record that is well-formed but unusable (a bad date or value).
public enum InvalidRecordPolicy: Sendable {
    /// Stop with an error: the default, because a skipped record makes a day's total low.
    case fail
    /// Skip it, count it and keep the first few for the report.
    case skip
}

/// A step record that was skipped, with where it stood.
public struct SkippedRecord: Equatable, Sendable {
    public let line: Int
    public let column: Int
    /// The problem in words, fit to show: `SkippedRecords.add` escapes its control characters.
    public let problem: String

    public init(line: Int, column: Int, problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }
}
