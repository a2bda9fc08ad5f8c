/// A mistake on the command line: the problem, and the command whose usage line to print with it
/// (nil for the program's own).
public struct UsageError: Error, Sendable, Equatable {
    public let problem: UsageProblem
    /// The subcommand whose arguments were being read; nil at the top level.
    public let command: String?

    public init(_ problem: UsageProblem, command: String?) {
        self.problem = problem
        self.command = command
    }

    /// The problem's sentence.
    public var message: String { problem.message }
}
