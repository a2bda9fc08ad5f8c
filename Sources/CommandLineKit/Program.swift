import DisplayText
/// An executable's top level: its subcommands and its own options (`--help`, `--version`), the
/// prose of its help page, and how its pages are laid out.
///
/// Only the first word is the program's: `-h`/`--help`, `--version`, `help [<topic>]` (a
/// subcommand, or a section of the program's page that names a topic), or a subcommand, which
/// reads the rest.
public struct Program: Sendable {
    /// An option of the program itself, and what it asks for.
    struct TopLevelOption: Sendable {
        let names: [String]
        let help: HelpProse
        let request: ProgramRequest
    }

    public let name: String
    /// nil when the program has no `--version`.
    public let version: String?
    public let overview: String
    public let discussion: HelpProse?
    public let commands: [any CommandInterface]
    public let sections: [HelpSection]
    public private(set) var layout: HelpLayout

    public init(_ name: String, version: String? = nil, overview: String, discussion: HelpProse? = nil,
                commands: [any CommandInterface], sections: [HelpSection] = [], layout: HelpLayout) {
        self.name = name
        self.version = version
        self.overview = overview
        self.discussion = discussion
        self.commands = commands
        self.sections = sections
        self.layout = layout
    }

    /// `--version` (when there is a version), then `-h, --help`.
    var options: [TopLevelOption] {
        (version == nil ? [] : [TopLevelOption(names: ["--version"], help: "Show the version.", request: .version)])
            + [TopLevelOption(names: ["-h", "--help"], help: "Show help information.", request: .help(command: nil))]
    }

    /// Every option name the program itself takes (for "did you mean").
    public var optionNames: [String] {
        options.flatMap(\.names)
    }

    public func command(named name: String) -> (any CommandInterface)? {
        commands.first { $0.name == name }
    }

    /// The same program, its pages laid out `width` columns wide.
    public func laidOut(width: Int) -> Program {
        var program = self
        program.layout.width = width
        return program
    }

    /// The words `help` takes besides the subcommands: the topics of the program's sections.
    public var topics: [String] {
        sections.compactMap(\.topic)
    }

    /// The section `help <topic>` prints.
    func section(topic: String) -> HelpSection? {
        sections.first { $0.topic == topic }
    }

    /// Reads the first word; a subcommand gets the words after it.
    public func parse(_ words: [String]) throws(UsageError) -> ProgramRequest {
        guard let first = words.first else {
            throw UsageError(.missingSubcommand(available: commands.map(\.name)), command: nil)
        }
        if let option = options.first(where: { $0.names.contains(first) }) {
            return option.request
        }
        if first == "help" {
            guard let topic = words.dropFirst().first, !options.contains(where: { $0.names.contains(topic) }) else {
                return .help(command: nil)
            }
            if command(named: topic) != nil { return .help(command: topic) }
            if section(topic: topic) != nil { return .topic(topic) }
            throw UsageError(.unknownHelpTopic(topic, topics: commands.map(\.name) + topics), command: nil)
        }
        if command(named: first) != nil {
            return .run(command: first, arguments: Array(words.dropFirst()))
        }
        throw UsageError(first.hasPrefix("-") ? .unknownOption(first) : .unknownSubcommand(first), command: nil)
    }

    /// `stepimport 0.1.0`; the name alone without a version.
    public var versionLine: String {
        version.map { "\(name) \($0)" } ?? name
    }

    /// The usage line printed with a usage error, without its `USAGE: ` (a program may spell it
    /// otherwise): the subcommand's short one, or the program's.
    public func usageLine(for command: String?) -> String {
        guard let command, let interface = self.command(named: command) else {
            return "\(name) <subcommand> [\(layout.notation.placeholder("options"))]"
        }
        let synopsis = interface.synopsis(.error, in: self)
        return synopsis.isEmpty ? "\(name) \(command)" : "\(name) \(command) \(synopsis)"
    }

    /// The command line that shows the help a usage error points to: `stepimport apple --help`.
    public func helpCommand(for command: String?) -> String {
        guard let command else { return "\(name) --help" }
        return "\(name) \(command) --help"
    }

    /// The `--help` page of the program (nil) or of one of its subcommands.
    public func helpPage(for command: String?) -> String {
        guard let command, let interface = self.command(named: command) else { return helpPage }
        return interface.helpPage(in: self)
    }

    /// What `help <topic>` prints: the section alone.
    public func topicPage(_ topic: String) -> String? {
        section(topic: topic).map { $0.rendered(width: layout.width) }
    }

    private var helpPage: String {
        var page = HelpPage(width: layout.width)
        page.add(page.overviewLine(overview))
        if let discussion { page.add(discussion) }
        page.add("USAGE: \(usageLine(for: nil))\n")
        page.add("OPTIONS:\n" + options.map {
            HelpColumns.entry($0.names.joined(separator: ", "), $0.help, layout: layout)
        }.joined())
        let topic = layout.notation.placeholder((["subcommand"] + topics).joined(separator: "|"))
        let more = HelpProse(stringLiteral: "See '\(name) help \(topic)' for detailed help.")
        page.add("SUBCOMMANDS:\n" + commands.map { HelpColumns.entry($0.name, $0.abstract, layout: layout) }.joined()
                 + "\n" + more.lines(width: layout.width - 2).map { "  " + $0 + "\n" }.joined())
        page.add(sections)
        return page.text
    }
}

extension Program {
    /// What the user probably meant, for a hint: the nearest option of the command (or of the
    /// program) to an unknown one, the nearest subcommand to an unknown one; nil when nothing is
    /// close. Only names from the table: a word that is a file is the executable's business.
    public func suggestion(for error: UsageError) -> String? {
        switch error.problem {
        case .unknownOption(let given):
            let name = given.split(separator: "=", maxSplits: 1).first.map(String.init) ?? given
            let names = error.command.flatMap { command(named: $0)?.optionNames } ?? optionNames
            return NearestWord.among(names, for: name)
        case .unknownSubcommand(let given):
            return NearestWord.among(commands.map(\.name) + ["help"], for: given)
        case .unknownHelpTopic(let given, let topics):
            return NearestWord.among(topics, for: given)
        default:
            return nil
        }
    }
}
