import BackendUpload
import Batch
import CommandLineKit
import Outputs

/// What `stepimport batch` is asked to do: the manifest, and how to run its accounts.
struct BatchRequest: ReadingRequest, PostingRequest {
    var manifest = ""
    var options = BatchOptions()

    var read: ReadOptions {
        get { options.read }
        set { options.read = newValue }
    }

    var post: PostOptions? {
        get { options.post }
        set { options.post = newValue }
    }
}

extension BatchRequest {
    /// `stepimport batch`.
    static let command = Command<BatchRequest>(
        "batch",
        abstract: "Read, or post, every account of a manifest.",
        overview: "Back-fill many trainee accounts from a manifest of exports.",
        discussion: HelpText.batchDiscussion,
        arguments: [manifest],
        options: [
            .jobs, .shard,
            .output(value: "path", help: "Write each account's days to a folder or a database.", manual: """
                Write each account's days: to a folder (made if need be), a file per account named by its label, in \
                --format json or csv; or to one SQLite database (a name ending .sqlite, .sqlite3 or .db, or --format \
                sqlite), the label in its account column. docs/batch.md, docs/sqlite.md.
                """),
            .value("--format", value: "format", help: "What --output writes: json, csv or sqlite.") {
                (request, text) throws(Rejection) in
                guard let format = OutputFormat(rawValue: text.lowercased()), format != .table else {
                    throw Rejection("unknown format '\(text)' for --output (use json, csv or sqlite)")
                }
                request.options.read.format = format
                request.options.read.formatGiven = true
            }.choices(["json", "csv", "sqlite"]).manual("""
                What --output writes: json (the default for a folder), csv, or sqlite (the default for a database's \
                name).
                """).usage(.helpOnly),
            .value("--journal", value: "file", help: "Where the journal is (with --post or --output).") {
                $0.options.journal = $1
            }.manual("""
                Where the journal is, with --post or --output (default, with --post: beside the manifest, its \
                name without the extension and .journal.jsonl, accounts.shard-2-of-4.journal.jsonl with --shard \
                2/4; without --post: in the --output folder as .stepimport.journal.jsonl, or beside the database \
                as days.sqlite.journal.jsonl).
                """).usage(.helpOnly),
            .flag("--redo", help: "Run the accounts the journal says are done, too.") { $0.options.redo = true }.usage(.helpOnly),
            .value("--report", value: "file", help: "Also write the batch's report as JSON.") { $0.options.reportFile = $1 }
                .manual("""
                    Also write the batch's report as JSON: per account the days parsed, sent, written and not sent, \
                    where its days went (--output), and the error.
                    """),
            .skipInvalid(help: "Skip and report invalid records instead of stopping.",
                         manual: "Skip step records that cannot be read, and report them.").usage(.helpOnly),
            .excludeSource(help: "Leave this source out for every account.", manual: """
                Leave this source out for every account (a pattern as in apple and hc); the manifest's \
                exclude_sources column adds more per account.
                """).usage(.helpOnly),
            .flag("--exclude-manual", help: "Leave out records typed in by hand, for every account.") {
                $0.read.excludeManual = true
            }.usage(.helpOnly),
            .strictXML(help: "Check each Apple export whole as XML.", manual: """
                Check each Apple export whole as XML, as apple --strict-xml does; without it, records of types not \
                asked for (and activity summaries, and workouts unless asked for) are checked only for structure.
                """).usage(.helpOnly),
            .quiet(help: "Print only failures and the table.").usage(.helpOnly),
            .verbose(help: "Also print the batch's rate.").usage(.helpOnly),
            .color,
            .noProgress(help: "Print no progress line.",
                        manual: "Print no progress line (it is redrawn on a terminal; in a log, a tally line is written every 10 seconds).")
                .usage(.helpOnly),
        ],
        groups: [posting],
        rules: [.planOrDryRun],
        refusals: [
            .token,
            Refusal(["--token-file"], message: "each account's token comes from the manifest (its token_file or token_env column), not from --token-file"),
            Refusal(["--tz", "--since", "--until", "--by-source", "--input-format"]) {
                "\($0) is not a batch option: the manifest gives each account its zone (tz) and kind; "
                    + "to look at one account's days, run stepimport apple or hc on its file (--output writes every account's)"
            },
        ],
        sections: HelpText.batchSections,
        finish: checkOutput)

    /// `--output` and what goes with it: its format (from the name when `--format` is not given),
    /// and the journal, which records what was posted or written.
    private static func checkOutput(_ request: inout BatchRequest) throws(Rejection) {
        var options = request.options
        defer { request.options = options }
        let posts = options.post.map { !$0.plan && !$0.dryRun } ?? false
        if options.journal != nil || options.redo, !posts, options.read.output == nil {
            let name = options.journal != nil ? "--journal" : "--redo"
            throw Rejection("\(name) goes with --post or --output (the journal records what was posted or written; "
                            + "--plan and --dry-run post nothing)")
        }
        guard let output = options.read.output else {
            if options.read.formatGiven {
                throw Rejection("--format is the format of --output's files: add --output DIR (or --output FILE.sqlite)")
            }
            return
        }
        if output == "-" {
            throw Rejection("--output takes a folder, or a database's file name; standard output gets the table of accounts")
        }
        let named = OutputFormat(fileExtensionOf: output)
        if !options.read.formatGiven {
            options.read.format = named == .sqlite ? .sqlite : .json
        } else if named == .sqlite, options.read.format != .sqlite {
            throw Rejection("--output \(output) names a database, and --format \(options.read.format.rawValue) writes a folder "
                            + "of files: give the folder another name, or leave out --format")
        }
    }

    /// `--post` and what goes with it.
    private static let posting = OptionGroup<BatchRequest>(
        "posting", gate: "--post", usage: .always, synopsisOrder: ["--plan", "--keep-existing"],
        opensGate: ["--plan", "--dry-run"],
        options: [
            .post(help: "Post each account's days with its own token."),
            .apiURL(help: "The backend's URL (else STEPIMPORT_API_URL)."),
            .caCertificate(help: "Trust this CA (PEM) instead of the system's."),
            .proxy(help: "Go through this proxy (else https_proxy).",
                   manual: "Go through this proxy, as a CONNECT tunnel (else https_proxy or all_proxy; no_proxy bypasses)."),
            .plan(help: "Count per account what a post would do; write nothing.",
                  manual: "Per account, count the days a post would write, overwrite, leave the same or keep, and those the server would skip. Writes nothing; implies --post."),
            .keepExisting(help: "Post only the days the server has no value for."),
            .dryRun(help: "Count the requests per account; send nothing.",
                    manual: "Count the requests per account; send nothing; implies --post."),
            .sendAll(help: "Send days older than the server's window too."),
            .retries(help: "Retries per request (default 5)."),
            .timeout(help: "Time limit of one request (default 60)."),
        ])

    /// `<manifest>`: a file, since the exports and token files it names are found beside it.
    private static let manifest = Argument<BatchRequest>(
        "manifest",
        help: """
            A CSV file, a row per account: account (label), file, kind (apple, hc, auto), token_file or \
            token_env, tz. Every problem is listed before anything starts.
            """,
        missing: "missing the manifest (a CSV file with the columns account, file, kind, token_file or token_env, tz)",
        surplus: "one manifest at a time"
    ) { (request, text) throws(Rejection) in
        if text == "-" {
            throw Rejection("the manifest must be a file: the exports and token files it names are found beside it")
        }
        request.manifest = text
    }
}

extension Option where Options == BatchRequest {
    static var jobs: Option {
        .value("-j", "--jobs", value: "n", help: "Accounts at once (default: the number of cores).") { (request, text) throws(Rejection) in
            guard let jobs = Int(text), (1...BatchOptions.maxJobs).contains(jobs) else {
                throw Rejection("--jobs needs a whole number from 1 to \(BatchOptions.maxJobs), got '\(text)'")
            }
            request.options.jobs = jobs
        }
    }

    static var shard: Option {
        .value("--shard", value: "k/n",
               help: "Only the k-th of n shares of the accounts (e.g. 2/4).") {
            (request, text) throws(Rejection) in
            do throws(BatchError) {
                request.options.shard = try BatchShard(parsing: text)
            } catch {
                throw Rejection(error.description)
            }
        }.manual("Only the k-th of n stable shares of the accounts (by a hash of the label), e.g. 2/4. Default 1/1.")
    }
}
