/// One option of a command, declared once: its names, what it takes, its help (a line for
/// `--help`, the whole text for the man page), where it shows in the usage line, and what it does
/// to the command's `Options` when given.
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
    }

    /// Every name, short first: `["-q", "--quiet"]`.
    public let names: [String]
    public let kind: OptionKind
    /// What `--help` shows: a line, so that a page fits a screen.
    public let help: HelpProse
    /// What the man page shows, when it says more than `help`.
    public private(set) var manualText: HelpProse?
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

    /// The same option, with the whole text of the man page (`help` stays the line of `--help`).
    public func manual(_ text: HelpProse) -> Option {
        var option = self
        option.manualText = text
        return option
    }

    /// What the man page says of the option: its whole text, else its help.
    public var manual: HelpProse {
        manualText ?? help
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

    /// Whether this is the built-in `-h, --help`.
    public var isHelp: Bool {
        if case .help = role { return true }
        return false
    }
}
