/// A rule over several options of a command, checked after every argument is read, in the order
/// the command lists them (after the group gates, before the arguments).
public enum OptionRule: Sendable, Equatable {
    /// The option must be given, with a value that is not empty. The usage line shows it without
    /// brackets.
    case required(String)
    /// At most one of the two; the usage line shows them as `[a | b]`. With a reason the error says
    /// "a and b do not go together: reason"; without, "give either 'a' or 'b', not both".
    case exclusive(String, String, reason: String?)
    /// Each of `options` needs `gate`, and none of `without`; the error names the first one given
    /// and adds the reason. Its options are left out of their group's own gate check.
    case needs(gate: String, options: [String], without: [String], reason: String?)
}
