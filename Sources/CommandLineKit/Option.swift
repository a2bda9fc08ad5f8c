/// One option of a command, declared once: its names, what it takes, its help, where it shows in
/// the usage line, and what it does to the command's `Options` when given.
///
/// The parser, the usage lines and `--help` all read this declaration, so an option cannot be
/// documented and not parsed, or the reverse.
public struct Option<Options>: Sendable {
    /// What giving the option does.
    enum Role: Sendable {
        /// Sets the options; a flag's closure gets nil.
        case sets(@Sendable (inout Options, String?) throws(Rejection) -> Void)
        /// Asks for the command's help page (`-h`, `--help`).
        case help
        /// Not an option of its own: a second help entry, in another group, for the option named
        /// `names[0]`.
        case note
    }

    /// Every name, short first: `["-q", "--quiet"]`.
    public let names: [String]
    public let kind: OptionKind
    public let help: HelpProse
    public private(set) var usage = UsageVisibility.always
    /// Shown after the help as `(default: ...)`; nil when the help says it, or there is none.
    public private(set) var defaultValue: String?
    /// How the usage line writes the value when it says more than its name (`normal|broken|none`).
    public private(set) var synopsisValue: String?
    /// The words the value may be, for shell completion; empty when it is free text or a path.
    public private(set) var choices: [String] = []
    let role: Role

    init(names: [String], kind: OptionKind, help: HelpProse, role: Role) {
        precondition(!names.isEmpty, "an option has a name")
        self.names = names
        self.kind = kind
        self.help = help
        self.role = role
    }

    /// An option that takes no value.
    public static func flag(_ names: String..., help: HelpProse,
                            set: @escaping @Sendable (inout Options) -> Void) -> Option {
        Option(names: names, kind: .flag, help: help, role: .sets { options, _ in set(&options) })
    }

    /// An option that takes one value (`value` names it in the usage line and the help); `set`
    /// checks the text and stores it, or throws a `Rejection` in the command's words.
    public static func value(_ names: String..., value: String, help: HelpProse,
                             set: @escaping @Sendable (inout Options, String) throws(Rejection) -> Void) -> Option {
        Option(names: names, kind: .value(value), help: help, role: .sets { (options, text) throws(Rejection) in
            try set(&options, text ?? "")
        })
    }

    /// An option that may be given many times, `set` called once for each value.
    public static func repeatable(_ names: String..., value: String, help: HelpProse,
                                  set: @escaping @Sendable (inout Options, String) throws(Rejection) -> Void) -> Option {
        Option(names: names, kind: .repeatable(value), help: help, role: .sets { (options, text) throws(Rejection) in
            try set(&options, text ?? "")
        })
    }

    /// A second help entry for an option declared in another group of the same command, where it
    /// also matters (`--tz` among the posting options). Only documents; the option parses once.
    public static func note(_ name: String, help: HelpProse) -> Option {
        Option(names: [name], kind: .flag, help: help, role: .note)
    }

    /// `-h`, `--help`: every command's request for its help page.
    static var helpFlag: Option {
        Option(names: ["-h", "--help"], kind: .flag, help: "Show help information.", role: .help)
    }

    /// The same option, shown in the usage line only as `visibility` says.
    public func usage(_ visibility: UsageVisibility) -> Option {
        var option = self
        option.usage = visibility
        return option
    }

    /// The same option, its help followed by `(default: value)`.
    public func defaultValue(_ value: String) -> Option {
        var option = self
        option.defaultValue = value
        return option
    }

    /// The same option, its value written so in the usage line.
    public func synopsisValue(_ text: String) -> Option {
        var option = self
        option.synopsisValue = text
        return option
    }

    /// The same option, its value one of `words` (shell completions offer them).
    public func choices(_ words: [String]) -> Option {
        var option = self
        option.choices = words
        return option
    }

    /// The name the usage line uses: the first long one (`--quiet` for `-q, --quiet`).
    public var longName: String {
        names.first { $0.hasPrefix("--") } ?? names[0]
    }

    /// Whether this entry is a second help entry for an option declared elsewhere.
    public var isNote: Bool {
        if case .note = role { return true }
        return false
    }

    /// Whether this is the built-in `-h, --help`.
    public var isHelp: Bool {
        if case .help = role { return true }
        return false
    }
}
