/// The two usage lines of a command.
public enum SynopsisForm: Sendable, Equatable {
    /// The line printed with a usage error: the options marked `always`, on one line.
    case error
    /// The line of `--help` and the man page: every option, wrapped in `--help`.
    case help
}
