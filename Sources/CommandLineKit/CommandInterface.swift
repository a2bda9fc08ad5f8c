/// What a program needs of each of its subcommands, whatever their `Options`: the name, the line
/// in the SUBCOMMANDS list, the help page and the usage lines.
///
/// Generators that walk every command (a man page, shell completions) extend this protocol.
public protocol CommandInterface: Sendable {
    var name: String { get }
    /// Its entry in the program's SUBCOMMANDS list.
    var abstract: HelpProse { get }
    /// Every option name the command parses, help included (for "did you mean").
    var optionNames: [String] { get }
    /// The `--help` page.
    func helpPage(in program: Program) -> String
    /// The arguments and options of the usage line, after `<program> <command> `.
    func synopsis(_ form: SynopsisForm, in program: Program) -> String
    /// The table as the man page and the shell completions read it.
    func manual(in program: Program) -> CommandManual
}
