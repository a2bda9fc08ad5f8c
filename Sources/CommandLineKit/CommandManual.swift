/// A command's table as documents other than `--help` need it (the man page, shell completions):
/// the same arguments, option groups and sections the help page is printed from, so the two can
/// never drift apart.
public struct CommandManual: Sendable {
    /// One option entry as its help shows it.
    public struct Entry: Sendable {
        /// Short first: `["-q", "--quiet"]`.
        public let names: [String]
        /// The value's name (`zone`); nil for a flag.
        public let valueName: String?
        public let repeatable: Bool
        /// The line of `--help` (shells show its first sentence).
        public let help: HelpProse
        /// The whole text, for the man page.
        public let manual: HelpProse
        public let defaultValue: String?
        /// The words the value may be (`table`, `json`, `csv`); empty when it is free text or a path.
        public let choices: [String]
    }

    /// `OPTIONS`, or a named group such as `POSTING (--post)`.
    public struct Group: Sendable {
        public let title: String
        public let entries: [Entry]
    }

    public let name: String
    public let abstract: HelpProse
    public let overview: String
    public let discussion: HelpProse?
    /// The usage line after `<program> <command> `, as `--help` writes it (on one line).
    public let synopsis: String
    public let arguments: [(name: String, help: HelpProse, choices: [String])]
    public let groups: [Group]
    public let sections: [HelpSection]

    /// The words the first argument may be (empty: a path).
    public var argumentChoices: [String] { arguments.first?.choices ?? [] }

    /// Every option entry, in help order.
    public var options: [Entry] { groups.flatMap(\.entries) }
}

extension Command {
    public func manual(in program: Program) -> CommandManual {
        CommandManual(
            name: name, abstract: abstract, overview: overview, discussion: discussion,
            synopsis: synopsis(.help, in: program),
            arguments: arguments.map { ($0.name, $0.help, $0.choices) },
            groups: groups.map { group in
                CommandManual.Group(title: group.title, entries: group.options.map { option in
                    let repeatable: Bool
                    if case .repeatable = option.kind { repeatable = true } else { repeatable = false }
                    return CommandManual.Entry(names: option.names, valueName: option.kind.valueName, repeatable: repeatable,
                                               help: option.help, manual: option.manual,
                                               defaultValue: option.defaultValue, choices: option.choices)
                })
            },
            sections: sections)
    }
}
