import CommandLineKit
import HealthDays

/// What the command line asks for.
enum Invocation {
    case help(command: String?)
    /// `help exit-status`: a section of the program's page alone.
    case topic(String)
    case version
    /// `apple` or `hc`: read an export with the formats of one family.
    case read(ExportFamily, path: String, options: ReadOptions)
    case batch(manifest: String, options: BatchOptions)
    case inspect(path: String, request: InspectRequest)
    case completions(Shell)
    case manual

    /// stepimport's table: its subcommands' tables, its own options and the prose of its page.
    static let program = Program(
        "stepimport",
        version: HelpText.version,
        overview: "Turn phone health exports into trustworthy daily step totals.",
        discussion: HelpText.programDiscussion,
        commands: [ReadRequest.apple, ReadRequest.android, InspectRequest.command, BatchRequest.command,
                   CompletionsRequest.command, ManualRequest.command],
        sections: [HelpText.exitStatus],
        layout: HelpLayout(notation: .angleBrackets, wrapsSynopsis: true))

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        switch try program.parse(arguments) {
        case .help(let command):
            return .help(command: command)
        case .topic(let topic):
            return .topic(topic)
        case .version:
            return .version
        case .run(let command, let rest):
            switch command {
            case ReadRequest.apple.name, ReadRequest.android.name:
                let family = command == ReadRequest.apple.name ? ExportFamily.appleHealth : .android
                return try parse(rest, with: ReadRequest.command(for: family), into: ReadRequest()) {
                    .read(family, path: $0.path, options: $0.options)
                }
            case InspectRequest.command.name:
                return try parse(rest, with: InspectRequest.command, into: InspectRequest()) {
                    .inspect(path: $0.path, request: $0)
                }
            case BatchRequest.command.name:
                return try parse(rest, with: BatchRequest.command, into: BatchRequest()) {
                    .batch(manifest: $0.manifest, options: $0.options)
                }
            case CompletionsRequest.command.name:
                return try parse(rest, with: CompletionsRequest.command, into: CompletionsRequest()) { .completions($0.shell) }
            case ManualRequest.command.name:
                return try parse(rest, with: ManualRequest.command, into: ManualRequest()) { _ in .manual }
            default:
                throw UsageError(.unknownSubcommand(command), command: nil)
            }
        }
    }

    /// One subcommand's arguments read against its table: its help page, or what to run.
    private static func parse<Request>(_ arguments: [String], with command: Command<Request>, into request: Request,
                                       _ invocation: (Request) -> Invocation) throws(UsageError) -> Invocation {
        switch try command.parse(arguments, into: request) {
        case .help: return .help(command: command.name)
        case .run(let request): return invocation(request)
        }
    }
}

extension Invocation {
    /// What `--color` asked for; `auto` for what takes no `--color`.
    var color: ColorChoice {
        switch self {
        case .read(_, _, let options): options.color
        case .batch(_, let options): options.read.color
        case .inspect(_, let request): request.read.color
        case .help, .topic, .version, .completions, .manual: .auto
        }
    }
}
