/// What a command's arguments ask for.
public enum CommandRequest<Options> {
    /// `-h` or `--help`: print the command's help page.
    case help
    /// Run with these options.
    case run(Options)
}
