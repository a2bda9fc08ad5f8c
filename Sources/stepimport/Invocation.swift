import ExportParsers
import HealthDays

/// Options shared by every subcommand that reads an export.
struct ReadOptions {
    var format: OutputFormat = .table
    var bySource = false
    var zone: ZoneRule = .recordedOffset
    var since: LocalDate?
    var until: LocalDate?
    var skipInvalid = false
    var quiet = false
    var progress = true
    /// `hc --input-format`: nil to detect.
    var inputFormat: HealthConnectInputFormat?
    /// `--post` and its options; nil when only printing.
    var post: PostOptions?
}

/// How to post the totals (`--post` and the options that go with it).
struct PostOptions {
    var apiURL: String?
    var tokenFile: String?
    var caCertificateFile: String?
    var retries = 5
    var timeoutSeconds = 60
    var sendAll = false
    var plan = false
    var keepExisting = false
    var dryRun = false
    var reportFile: String?
}

/// What the command line asks for.
enum Invocation {
    case help(command: String?)
    case version
    case apple(path: String, options: ReadOptions)
    case healthConnect(path: String, options: ReadOptions)
    case batch(manifest: String, options: BatchOptions)

    static let subcommands = ["apple", "hc", "batch"]

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else {
            throw UsageError(message: "missing subcommand (apple, hc or batch)", command: nil)
        }
        switch first {
        case "-h", "--help":
            return .help(command: nil)
        case "--version":
            return .version
        case "help":
            let topic = arguments.dropFirst().first
            if let topic, !subcommands.contains(topic) {
                throw UsageError(message: "unknown subcommand '\(topic)'", command: nil)
            }
            return .help(command: topic)
        case "apple", "hc":
            return try parseRead(Array(arguments.dropFirst()), command: first)
        case "batch":
            return try parseBatch(Array(arguments.dropFirst()))
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'", command: nil)
            }
            throw UsageError(message: "unknown subcommand '\(first)'", command: nil)
        }
    }

    private static func parseRead(_ arguments: [String], command: String) throws(UsageError) -> Invocation {
        var options = ReadOptions()
        var post = PostSettings()
        var paths: [String] = []
        var scanner = OptionScanner(arguments: arguments, command: command)

        while let item = try scanner.next() {
            guard case .option(let name) = item else {
                if case .positional(let path) = item { paths.append(path) }
                continue
            }
            if try post.parse(name, &scanner) { continue }
            if try options.parseShared(name, &scanner) { continue }
            switch name {
            case "-h", "--help":
                return .help(command: command)
            case "--format":
                let text = try scanner.value()
                guard let format = OutputFormat(rawValue: text) else {
                    throw scanner.fail("unknown format '\(text)' (use table, json or csv)")
                }
                options.format = format
            case "--by-source":
                try scanner.noValue()
                options.bySource = true
            case "--tz":
                let text = try scanner.value()
                guard let zone = ZoneRule.named(text) else {
                    throw scanner.fail("unknown time zone '\(text)' (use an IANA name such as Europe/Berlin or America/New_York)")
                }
                options.zone = zone
            case "--since", "--until":
                let text = try scanner.value()
                guard let date = LocalDate(text) else {
                    throw scanner.fail("'\(name)' needs a date as YYYY-MM-DD, got '\(text)'")
                }
                if name == "--since" { options.since = date } else { options.until = date }
            case "--token-file":
                post.options.tokenFile = try scanner.value()
                post.postOnly.append(name)
            case "--report":
                post.options.reportFile = try scanner.value()
                post.postOnly.append(name)
            case "--input-format" where command == "hc":
                let text = try scanner.value()
                if text != "auto" {
                    guard let format = HealthConnectInputFormat(rawValue: text) else {
                        let names = (["auto"] + HealthConnectInputFormat.allCases.map(\.rawValue)).joined(separator: ", ")
                        throw scanner.fail("unknown input format '\(text)' (use \(names))")
                    }
                    options.inputFormat = format
                }
            default:
                throw scanner.fail("unknown option '\(name)'")
            }
        }
        options.post = try post.checked(scanner)
        if let since = options.since, let until = options.until, since > until {
            throw scanner.fail("--since \(since) is after --until \(until)")
        }
        guard let path = paths.first else {
            throw scanner.fail("missing the export to read (a path, or - for standard input)")
        }
        guard paths.count == 1 else {
            throw scanner.fail("one export at a time; got \(paths.count): \(paths.joined(separator: " "))")
        }
        return command == "hc" ? .healthConnect(path: path, options: options) : .apple(path: path, options: options)
    }
}

extension ReadOptions {
    /// The options every reading subcommand takes the same way; false when `name` is not one.
    mutating func parseShared(_ name: String, _ scanner: inout OptionScanner) throws(UsageError) -> Bool {
        switch name {
        case "--skip-invalid":
            try scanner.noValue()
            skipInvalid = true
        case "-q", "--quiet":
            try scanner.noValue()
            quiet = true
        case "--no-progress":
            try scanner.noValue()
            progress = false
        default:
            return false
        }
        return true
    }
}

/// `--post` and the options that only make sense with it, as they are parsed.
struct PostSettings {
    var options = PostOptions()
    var requested = false
    /// The posting options given, in order, to name one if `--post` is missing.
    var postOnly: [String] = []

    /// Takes one posting option; false when `name` is not one.
    mutating func parse(_ name: String, _ scanner: inout OptionScanner) throws(UsageError) -> Bool {
        switch name {
        case "--post":
            try scanner.noValue()
            requested = true
            return true
        case "--api-url":
            options.apiURL = try scanner.value()
        case "--token":
            throw scanner.fail("a token is never taken from the command line (it would show in ps and shell history): set STEPIMPORT_TOKEN or pass --token-file PATH")
        case "--cacert":
            options.caCertificateFile = try scanner.value()
        case "--retries":
            let text = try scanner.value()
            guard let retries = Int(text), (0...20).contains(retries) else {
                throw scanner.fail("--retries needs a whole number from 0 to 20, got '\(text)'")
            }
            options.retries = retries
        case "--timeout":
            let text = try scanner.value()
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw scanner.fail("--timeout needs a number of seconds from 1 to 3600, got '\(text)'")
            }
            options.timeoutSeconds = seconds
        case "--send-all":
            try scanner.noValue()
            options.sendAll = true
        case "--plan":
            try scanner.noValue()
            options.plan = true
        case "--keep-existing":
            try scanner.noValue()
            options.keepExisting = true
        case "--dry-run":
            try scanner.noValue()
            options.dryRun = true
        default:
            return false
        }
        postOnly.append(name)
        return true
    }

    /// The posting options if `--post` was given; a usage error for a posting option without it.
    func checked(_ scanner: OptionScanner) throws(UsageError) -> PostOptions? {
        guard requested else {
            if let first = postOnly.first { throw scanner.fail("\(first) goes with --post") }
            return nil
        }
        if options.plan && options.dryRun {
            throw scanner.fail("--plan and --dry-run do not go together: --plan reads the server and shows each day, --dry-run shows the batches")
        }
        return options
    }
}

/// Walks a subcommand's arguments: `--name value`, `--name=value`, positionals, `-` and `--`.
struct OptionScanner {
    enum Item {
        case positional(String)
        case option(String)
    }

    let arguments: [String]
    let command: String
    private var index = 0
    private var onlyPositional = false
    /// The option being read and its `=value`, if it had one.
    private var name = ""
    private var inlineValue: String?

    init(arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// The next positional or option; nil at the end.
    mutating func next() throws(UsageError) -> Item? {
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                return .positional(argument)
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            name = argument
            inlineValue = nil
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            return .option(name)
        }
        return nil
    }

    /// The current option's value: after `=`, else the next argument.
    mutating func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard index < arguments.count else { throw fail("missing value for '\(name)'") }
        index += 1
        return arguments[index - 1]
    }

    /// Fails if the current option, which takes no value, was given one with `=`.
    func noValue() throws(UsageError) {
        if inlineValue != nil { throw fail("'\(name)' takes no value") }
    }

    func fail(_ message: String) -> UsageError {
        UsageError(message: message, command: command)
    }
}
