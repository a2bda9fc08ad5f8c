import ExportParsers

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

    static let subcommands = ["apple", "hc"]

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else {
            throw UsageError(message: "missing subcommand (apple)", command: nil)
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
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'", command: nil)
            }
            throw UsageError(message: "unknown subcommand '\(first)'", command: nil)
        }
    }

    private static func parseRead(_ arguments: [String], command: String) throws(UsageError) -> Invocation {
        var options = ReadOptions()
        var post = PostOptions()
        var postRequested = false
        var postOnly: [String] = []
        var paths: [String] = []
        var index = 0
        var onlyPositional = false

        func fail(_ message: String) -> UsageError { UsageError(message: message, command: command) }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                paths.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            // --name=value and --name value are both accepted.
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw fail("missing value for '\(name)'") }
                index += 1
                return arguments[index - 1]
            }
            func noValue() throws(UsageError) {
                if inlineValue != nil { throw fail("'\(name)' takes no value") }
            }
            switch name {
            case "-h", "--help":
                return .help(command: command)
            case "--format":
                let text = try value()
                guard let format = OutputFormat(rawValue: text) else {
                    throw fail("unknown format '\(text)' (use table, json or csv)")
                }
                options.format = format
            case "--by-source":
                try noValue()
                options.bySource = true
            case "--tz":
                let text = try value()
                guard let zone = ZoneRule.named(text) else {
                    throw fail("unknown time zone '\(text)' (use an IANA name such as Europe/Berlin or America/New_York)")
                }
                options.zone = zone
            case "--since", "--until":
                let text = try value()
                guard let date = LocalDate(text) else {
                    throw fail("'\(name)' needs a date as YYYY-MM-DD, got '\(text)'")
                }
                if name == "--since" { options.since = date } else { options.until = date }
            case "--skip-invalid":
                try noValue()
                options.skipInvalid = true
            case "--post":
                try noValue()
                postRequested = true
            case "--api-url":
                post.apiURL = try value()
                postOnly.append(name)
            case "--token-file":
                post.tokenFile = try value()
                postOnly.append(name)
            case "--token":
                throw fail("a token is never taken from the command line (it would show in ps and shell history): set STEPIMPORT_TOKEN or pass --token-file PATH")
            case "--cacert":
                post.caCertificateFile = try value()
                postOnly.append(name)
            case "--retries":
                let text = try value()
                guard let retries = Int(text), (0...20).contains(retries) else {
                    throw fail("--retries needs a whole number from 0 to 20, got '\(text)'")
                }
                post.retries = retries
                postOnly.append(name)
            case "--timeout":
                let text = try value()
                guard let seconds = Int(text), (1...3600).contains(seconds) else {
                    throw fail("--timeout needs a number of seconds from 1 to 3600, got '\(text)'")
                }
                post.timeoutSeconds = seconds
                postOnly.append(name)
            case "--send-all", "--plan", "--keep-existing", "--dry-run":
                try noValue()
                switch name {
                case "--send-all": post.sendAll = true
                case "--plan": post.plan = true
                case "--keep-existing": post.keepExisting = true
                default: post.dryRun = true
                }
                postOnly.append(name)
            case "--report":
                post.reportFile = try value()
                postOnly.append(name)
            case "-q", "--quiet":
                try noValue()
                options.quiet = true
            case "--no-progress":
                try noValue()
                options.progress = false
            case "--input-format" where command == "hc":
                let text = try value()
                if text != "auto" {
                    guard let format = HealthConnectInputFormat(rawValue: text) else {
                        let names = (["auto"] + HealthConnectInputFormat.allCases.map(\.rawValue)).joined(separator: ", ")
                        throw fail("unknown input format '\(text)' (use \(names))")
                    }
                    options.inputFormat = format
                }
            default:
                throw fail("unknown option '\(name)'")
            }
        }
        if postRequested {
            if post.plan && post.dryRun {
                throw fail("--plan and --dry-run do not go together: --plan reads the server and shows each day, --dry-run shows the batches")
            }
            options.post = post
        } else if let first = postOnly.first {
            throw fail("\(first) goes with --post")
        }
        if let since = options.since, let until = options.until, since > until {
            throw fail("--since \(since) is after --until \(until)")
        }
        guard let path = paths.first else {
            throw fail("missing the export to read (a path, or - for standard input)")
        }
        guard paths.count == 1 else {
            throw fail("one export at a time; got \(paths.count): \(paths.joined(separator: " "))")
        }
        return command == "hc" ? .healthConnect(path: path, options: options) : .apple(path: path, options: options)
    }
}
