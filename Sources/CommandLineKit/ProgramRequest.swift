/// What a program's arguments ask for at the top level.
public enum ProgramRequest: Sendable, Equatable {
    /// A help page: the program's (nil) or a subcommand's (`help apple`).
    case help(command: String?)
    /// A section of the program's page alone (`help exit-status`).
    case topic(String)
    /// `--version`.
    case version
    /// A subcommand, with the arguments after its name.
    case run(command: String, arguments: [String])
}
