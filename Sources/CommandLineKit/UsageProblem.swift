/// What is wrong with a command line, with the facts a message, a hint or a suggestion needs.
public enum UsageProblem: Error, Sendable, Equatable {
    /// No subcommand given; `available` are the program's.
    case missingSubcommand(available: [String])
    case unknownSubcommand(String)
    /// `help` given a word that is no subcommand and no topic; `topics` are the words it takes.
    case unknownHelpTopic(String, topics: [String])
    /// A word that starts with `-` and is no option of the command (as given, without `=value`).
    case unknownOption(String)
    /// A name the table refuses, with its reason.
    case refused(option: String, reason: String)
    /// The option's value is missing at the end of the line.
    case missingValue(option: String)
    /// A flag given a value with `=`.
    case unexpectedValue(option: String)
    /// A value, argument or combination the table refuses, in its own words.
    case rejected(String)
    /// An option given without the option it goes with (`--plan` without `--post`).
    case withoutGate(option: String, gate: String, reason: String?)
    /// Two options that do not go together.
    case exclusive(String, String, reason: String?)
    /// A required option, as the usage line writes it (`--out PATH`).
    case missingOption(String)
    /// A word that is no option, given to a command that takes no arguments.
    case unexpectedArgument(String)
    /// A missing argument, with the table's words for it.
    case missingArgument(name: String, message: String)
    /// More arguments than the command takes, with the table's words and every one given.
    case surplusArguments(message: String, given: [String])

    /// The sentence for the problem, without the program's prefix (`Error: `).
    public var message: String {
        switch self {
        case .missingSubcommand:
            return "missing subcommand"
        case .unknownSubcommand(let name):
            return "unknown subcommand '\(name)'"
        case .unknownHelpTopic(let name, let topics):
            return "no help on '\(name)' (help takes \(topics.joined(separator: ", ")))"
        case .unknownOption(let name):
            return "unknown option '\(name)'"
        case .refused(_, let reason):
            return reason
        case .missingValue(let option):
            return "missing value for '\(option)'"
        case .unexpectedValue(let option):
            return "'\(option)' takes no value"
        case .rejected(let message):
            return message
        case .withoutGate(let option, let gate, let reason):
            return "\(option) goes with \(gate)" + (reason.map { " (\($0))" } ?? "")
        case .exclusive(let first, let second, let reason):
            if let reason { return "\(first) and \(second) do not go together: \(reason)" }
            return "give either '\(first)' or '\(second)', not both"
        case .missingOption(let usage):
            return "missing '\(usage)'"
        case .unexpectedArgument(let text):
            return "unexpected argument '\(text)'"
        case .missingArgument(_, let message):
            return message
        case .surplusArguments(let message, let given):
            return "\(message); got \(given.count): \(given.joined(separator: " "))"
        }
    }
}
