import CommandLineKit

/// A small command in the shape of stepimport's: one argument, flags, values, a repeatable
/// option, a gated group, rules and a refusal.
struct Settings: Equatable {
    var path = ""
    var format = "table"
    var verbose = false
    var tags: [String] = []
    var upload = false
    var retries = 5
    var plan = false
    var dryRun = false
    var journal: String?
    var output: String?
    var days: Int?
    var size: String?
}

enum Fixture {
    static let command = Command<Settings>(
        "read",
        abstract: "Read an export.",
        overview: "Read an export and print it.",
        discussion: "A paragraph as written.",
        arguments: [Argument("export", help: "The export, or - for standard input.", missing: "missing the export",
                             surplus: "one export at a time") { (settings, text) throws(Rejection) in
            if text == "bad" { throw Rejection("'bad' is no export") }
            settings.path = text
        }],
        options: [
            .value("-f", "--format", value: "format", help: "table (default), json or csv.") { (settings, text) throws(Rejection) in
                guard ["table", "json", "csv"].contains(text) else { throw Rejection("unknown format '\(text)'") }
                settings.format = text
            },
            .flag("-v", "--verbose", help: "Say more.") { $0.verbose = true }.usage(.helpOnly),
            .repeatable("--tag", value: "tag", help: "Keep only records with this tag; give it again for more tags.") {
                $0.tags.append($1)
            }.usage(.helpOnly),
        ],
        groups: [OptionGroup("upload", gate: "--upload", usage: .helpOnly, options: [
            .flag("--upload", help: "Upload instead of printing.") { $0.upload = true },
            .value("--retries", value: "n", help: "Retries per request.") { (settings, text) throws(Rejection) in
                guard let retries = Int(text), (0...20).contains(retries) else {
                    throw Rejection("--retries needs a whole number from 0 to 20, got '\(text)'")
                }
                settings.retries = retries
            }.usage(.helpOnly),
            .flag("--plan", help: "Show what an upload would do.") { $0.plan = true }.usage(.helpOnly),
            .flag("--dry-run", help: "Show the requests.") { $0.dryRun = true }.usage(.helpOnly),
            .value("--journal", value: "file", help: "Where the journal is.") { $0.journal = $1 }.usage(.helpOnly),
        ])],
        rules: [
            .exclusive("--plan", "--dry-run", reason: "one or the other"),
            .needs(gate: "--upload", options: ["--journal"], without: ["--plan", "--dry-run"], reason: "the journal records uploads"),
        ],
        refusals: [Refusal(["--token"], message: "never on the command line")],
        sections: [HelpSection("EXAMPLES", body: .asWritten("read export.zip\nread - < export.xml")),
                   HelpSection("NOTES", audience: .manualPage, body: "Only in the manual."),
                   HelpSection("", audience: .helpPage, body: "More: man tool.")])

    /// A command without arguments, in the shape of stepimport-synth's: a required option and an
    /// exclusive pair without a reason.
    static let generate = Command<Settings>(
        "generate",
        abstract: "Write a sample.",
        overview: "Write a sample export.",
        options: [
            .value("--out", value: "PATH", help: "Output file.") { $0.output = $1 },
            .value("--days", value: "N", help: "Number of days.") { (settings, text) throws(Rejection) in
                guard let days = Int(text) else { throw Rejection("'--days' needs a number, got '\(text)'") }
                settings.days = days
            }.defaultValue("60"),
            .value("--size", value: "BYTES", help: "Size to reach.") { $0.size = $1 },
        ],
        rules: [.required("--out"), .exclusive("--days", "--size", reason: nil)])

    static let program = Program(
        "tool", version: "1.2.3", overview: "Do things.", commands: [command, generate],
        sections: [HelpSection("EXIT STATUS", topic: "exit-status", body: "0   Success.\n64  Usage error: unknown option, missing or bad argument.")],
        layout: HelpLayout(notation: .angleBrackets, width: 60, wrapsSynopsis: true))

    static func parse(_ words: [String]) throws(UsageError) -> CommandRequest<Settings> {
        try command.parse(words, into: Settings())
    }

    /// The settings of a line that must parse.
    static func settings(_ words: [String], command: Command<Settings> = command) throws -> Settings {
        guard case .run(let settings) = try command.parse(words, into: Settings()) else {
            throw UsageError(.rejected("asked for help"), command: nil)
        }
        return settings
    }

    /// The problem of a line that must not parse.
    static func problem(_ words: [String], command: Command<Settings> = command) -> UsageProblem? {
        do {
            _ = try command.parse(words, into: Settings())
            return nil
        } catch {
            return error.problem
        }
    }
}
