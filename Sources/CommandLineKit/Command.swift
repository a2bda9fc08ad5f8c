/// One command's table: its arguments, its options in groups, the rules between them, and the
/// prose of its help page. Parsing, both usage lines and `--help` are all read from it.
///
/// `Options` is what the command's arguments fill in, starting from a value the caller gives.
public struct Command<Options>: CommandInterface {
    public let name: String
    public let abstract: HelpProse
    /// The line after `OVERVIEW:`.
    public let overview: String
    /// The paragraphs between the overview and the usage line, wrapped to the page.
    public let discussion: HelpProse?
    public let arguments: [Argument<Options>]
    /// The command's own options first (with `-h, --help` last), then the named groups.
    public let groups: [OptionGroup<Options>]
    public let rules: [OptionRule]
    public let refusals: [Refusal]
    public let sections: [HelpSection]
    /// Checks that span options (`--since` after `--until`) and fills in what depends on several;
    /// runs after the gates and rules pass, before the arguments are checked.
    let finish: @Sendable (inout Options) throws(Rejection) -> Void

    public init(_ name: String, abstract: HelpProse, overview: String, discussion: HelpProse? = nil,
                arguments: [Argument<Options>] = [], options: [Option<Options>], groups: [OptionGroup<Options>] = [],
                rules: [OptionRule] = [], refusals: [Refusal] = [], sections: [HelpSection] = [],
                finish: @escaping @Sendable (inout Options) throws(Rejection) -> Void = { _ in }) {
        self.name = name
        self.abstract = abstract
        self.overview = overview
        self.discussion = discussion
        self.arguments = arguments
        self.groups = [OptionGroup(options: options + [.helpFlag])] + groups
        self.rules = rules
        self.refusals = refusals
        self.sections = sections
        self.finish = finish
    }

    /// Every option the command parses, in help order.
    public var options: [Option<Options>] {
        groups.flatMap(\.options)
    }

    public var optionNames: [String] {
        options.flatMap(\.names)
    }

    /// The option that has this name.
    public func option(named name: String) -> Option<Options>? {
        options.first { $0.names.contains(name) }
    }

    /// The group that holds the option with this name.
    func group(of name: String) -> OptionGroup<Options>? {
        groups.first { group in group.options.contains { $0.names.contains(name) } }
    }
}
