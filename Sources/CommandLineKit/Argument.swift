/// A command's positional argument, given exactly once (`<export>`). `-` is an argument (standard
/// input) and `--` makes every later word one, in commands that take arguments.
public struct Argument<Options>: Sendable {
    /// `export`, shown as `<export>`.
    public let name: String
    public let help: HelpProse
    /// The error when it is missing.
    public let missing: String
    /// The error when more are given; "; got N: ..." follows.
    public let surplus: String
    /// The words it may be, for shell completion; empty when it is a path.
    public let choices: [String]
    /// Checks the text and stores it, after the options are read and checked.
    let set: @Sendable (inout Options, String) throws(Rejection) -> Void

    public init(_ name: String, help: HelpProse, missing: String, surplus: String, choices: [String] = [],
                set: @escaping @Sendable (inout Options, String) throws(Rejection) -> Void) {
        self.choices = choices
        self.name = name
        self.help = help
        self.missing = missing
        self.surplus = surplus
        self.set = set
    }
}
