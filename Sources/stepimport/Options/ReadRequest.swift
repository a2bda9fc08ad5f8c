import DisplayText
import HealthDays
import CommandLineKit
import ExportParsers
import Outputs

/// What `stepimport apple` or `stepimport hc` is asked to do: the export, and how to read it.
struct ReadRequest: ReadingRequest, PostingRequest {
    var path = ""
    var options = ReadOptions()

    var read: ReadOptions {
        get { options }
        set { options = newValue }
    }

    var post: PostOptions? {
        get { options.post }
        set { options.post = newValue }
    }
}

extension ReadRequest {
    /// The command that reads a family's exports.
    static func command(for family: ExportFamily) -> Command<ReadRequest> {
        switch family {
        case .appleHealth: return apple
        case .android: return android
        }
    }

    /// `stepimport apple`.
    static let apple = Command<ReadRequest>(
        ExportFamily.appleHealth.command,
        abstract: "Read an Apple Health export (zip, XML, folder, or -).",
        overview: "Read an Apple Health export and print daily step totals.",
        discussion: HelpText.appleDiscussion,
        arguments: [export(help: "export.zip, export.xml, its folder, or - (stdin).")],
        options: [
            .format(help: "table (default), json, csv or sqlite.", manual: """
                table (default), json, csv, or sqlite for a database file (-o). json prints exactly the body of \
                POST /v1/trainee/health/days: {"days":[{"date":"YYYY-MM-DD","steps":N}, ...]}
                """),
            .output(help: outputHelp, manual: outputManual),
            .bySource(help: "Show every source's total per day and the winner.",
                      manual: "Show every source's total per day and mark the winner (in every format; csv: date,steps,source,winner, a row per source; with --metric, date,metric,source,value,winner)."),
            .rule(apple: true, help: "highest-source, the only rule for Apple exports.",
                  manual: "highest-source (the default and only rule here): the highest single source per day. Health Connect's hc-priority is for `stepimport hc`."),
            .metric(ExportFamily.appleHealth.metrics),
            .zone(help: "Count the days in this IANA zone; --post needs it.",
                  manual: "Place every sample in this IANA zone (e.g. Europe/Berlin), with its daylight-saving rules. Without it, each sample is placed in the UTC offset written in the file (the same rule as `stepimport hc`). Required with --post: the trainee's zone, which the server files days in; the server's window is today in it (days older than 90 days or more than a day ahead are skipped by the server, so not sent)."),
            .since, .until,
            .explain,
            .excludeSource,
            .excludeManual,
            .skipInvalid(help: "Skip and report invalid records instead of stopping.",
                         manual: "Skip step records whose date or value cannot be read or is beyond the bounds (exit status 65), and report them, instead of stopping.")
                .usage(.helpOnly),
            .strictXML(help: "Check the whole export as XML (slower, same totals).", manual: """
                Check the whole export as XML. Without it, records of types not asked for (not steps, not a \
                --metric), activity summaries, and workouts unless asked for, are left out before the XML parser \
                and checked only for structure: tags balanced, quotes closed, no '<' inside a tag, the file not cut \
                off; so are the parts of the records asked for that are not read. The same totals; without it, steps \
                take about a quarter of the time.
                """).usage(.helpOnly),
            .quiet(help: "Print no summary or progress on standard error.").usage(.helpOnly),
            .verbose(help: "Also print sizes, speed and details of the reading.").usage(.helpOnly),
            .color,
            .noProgress(help: "Print no progress indicator.",
                        manual: "Print no progress indicator (it only appears on a terminal, and never when NO_COLOR is set).")
                .usage(.helpOnly),
        ],
        groups: [posting],
        rules: [.planOrDryRun],
        refusals: [.token],
        sections: HelpText.appleSections,
        finish: checkDates)

    /// `stepimport hc`.
    static let android = Command<ReadRequest>(
        ExportFamily.android.command,
        abstract: "Read Android exports: Health Connect, dumps, Takeout.",
        overview: "Read Android step data and print daily step totals.",
        discussion: HelpText.healthConnectDiscussion,
        arguments: [export(help: "A zip, database, JSON or CSV file, a folder, or -.")],
        options: [
            .inputFormat,
            .format(help: "table (default), json, csv or sqlite.",
                    manual: "table (default), json, csv, or sqlite for a database file (-o). json prints exactly the body of POST /v1/trainee/health/days."),
            .output(help: outputHelp, manual: outputManual),
            .bySource(help: "Show every source's total per day and the winner.",
                      manual: "Show every source's total per day and mark the winner (csv: date,steps,source,winner, a row per source; with --metric, date,metric,source,value,winner). With --rule hc-priority, what each app gave the day and its place in the list (csv: date,steps,source,priority; with --metric, date,metric,source,value,priority)."),
            .rule(apple: false, help: "highest-source (default) or hc-priority.", manual: """
                highest-source (default): per day the highest single source's total. hc-priority: the number the \
                Health Connect app shows, its priority list applied per slice of time (RULES); steps, distance, \
                active-energy and flights, not with --post.
                """),
            .priority,
            .metric(ExportFamily.android.metrics),
            .zone(help: "Count the days in this IANA zone; --post needs it.",
                  manual: "Place every record in this IANA zone (e.g. Asia/Kolkata), daylight saving included; wall times without an offset (Flutter) are read as that zone's local time. Required with --post: the trainee's zone, which the server files days in; the server's window is today in it (days older than 90 days or more than a day ahead are skipped by the server, so not sent)."),
            .since, .until,
            .explain,
            .excludeSource,
            .excludeManual,
            .skipInvalid(help: "Skip and report invalid records instead of stopping.",
                         manual: "Skip records whose time or count cannot be read or is beyond the bounds (exit status 65), and report them, instead of stopping.")
                .usage(.helpOnly),
            .quiet(help: "Print no summary or progress on standard error.").usage(.helpOnly),
            .verbose(help: "Also print sizes, speed and details of the reading.").usage(.helpOnly),
            .color,
            .noProgress(help: "Print no progress indicator.").usage(.helpOnly),
        ],
        groups: [posting],
        rules: [.planOrDryRun],
        refusals: [.token],
        sections: HelpText.healthConnectSections,
        finish: checkDates)

    /// `-o`'s line of help and its whole text, the same for `apple` and `hc`.
    private static let outputHelp: HelpProse = "Write the results to this file, whole or not at all."
    private static let outputManual: HelpProse = """
        Write the results to this file instead of standard output, whole or not at all: a failed run leaves \
        the file as it was. Its format: --format, else the name (.json, .csv; .sqlite, .sqlite3, .db: a \
        database, see docs/sqlite.md), else a table.
        """

    /// `--post` and the options that go with it, the same for `apple` and `hc`; `--tz`, which
    /// `--post` needs, is among the command's own options.
    private static let posting = OptionGroup<ReadRequest>("posting", gate: "--post", usage: .helpOnly,
                                                          opensGate: ["--plan", "--dry-run"], options: [
        .post(help: "Post the totals to the backend instead of printing.",
              manual: "Post the totals to POST /v1/trainee/health/days instead of printing them: checked, in date order, at most 90 days a request, retried safely (the server upserts). Needs --tz."),
        .apiURL(help: "The backend's URL (else STEPIMPORT_API_URL).",
                manual: "The backend (or STEPIMPORT_API_URL). https, or http to this computer only."),
        .tokenFile,
        .caCertificate(help: "Trust this CA (PEM) instead of the system's."),
        .proxy(help: "Go through this proxy (else https_proxy).",
               manual: "Go through this proxy (http://host:port), else the one https_proxy or all_proxy names (no_proxy: hosts to reach directly): a CONNECT tunnel, so the token stays inside TLS."),
        .sendAll(help: "Send days older than the server's window too.",
                 manual: "Send days older than the window too (never days more than one day ahead); the server skips them, as its contract says."),
        .plan(help: "Show what a post would do per day; write nothing.",
              manual: "Show, per day, the server's value and the new one, and what a post would do (with --send-all, which days the server will skip). Writes nothing; implies --post. With --format json or csv, rows for programs."),
        .keepExisting(help: "Post only the days the server has no value for.",
                      manual: "Post only the days the server has no value for (never overwrite a hand-typed value)."),
        .dryRun(help: "Show the requests a post would send; send nothing.",
                manual: "Show the requests that would be sent; send nothing; implies --post. With --format json, each request's exact body on a line; csv, request,date,steps rows."),
        .retries(help: "Retries per request (default 5).",
                 manual: "Retries per request for 429, 5xx, time-outs and dropped connections, with backoff and Retry-After (default 5)."),
        .timeout(help: "Time limit of one request (default 60)."),
        .report,
    ])

    /// `<export>`: a path, or `-` for standard input.
    private static func export(help: HelpProse) -> Argument<ReadRequest> {
        Argument("export", help: help, missing: "missing the export to read (a path, or - for standard input)",
                 surplus: "one export at a time") { $0.path = $1 }
    }

    private static func checkDates(_ request: inout ReadRequest) throws(Rejection) {
        try checkRule(&request.options)
        try request.options.resolveOutput()
        if request.options.post != nil && !request.options.metrics.isStepsOnly {
            let others = request.options.metrics.metrics.filter { $0 != .steps }.map(\.name).joined(separator: ",")
            throw Rejection("--post sends steps only (POST /v1/trainee/health/days takes nothing else), "
                            + "not --metric \(others): print them without --post")
        }
        if request.options.explain != nil {
            let clash: String? = request.options.post != nil ? "--post"
                : request.options.bySource ? "--by-source"
                : request.options.since != nil ? "--since" : request.options.until != nil ? "--until" : nil
            if let clash {
                let why = clash == "--post" ? "it prints, never sends"
                    : "it shows every source of its one day already"
                throw Rejection("--explain does not go with \(clash): \(why)")
            }
        }
        if let since = request.options.since, let until = request.options.until, since > until {
            throw Rejection("--since \(since) is after --until \(until)")
        }
    }
}

extension ReadRequest {
    /// What goes with `--rule hc-priority` and what does not.
    private static func checkRule(_ options: inout ReadOptions) throws(Rejection) {
        if options.priority != nil {
            // A priority list asks for the rule that follows it.
            guard options.rule != .highestSource else {
                throw Rejection("--priority is the app order of --rule hc-priority; --rule highest-source follows no "
                                + "order: leave out one of them")
            }
            options.rule = .hcPriority
        }
        guard options.rule == .hcPriority else { return }
        if options.post != nil {
            throw Rejection("--post sends the highest single source's steps per day (the backend's rule, docs/rules.md), "
                            + "not --rule hc-priority: leave out --rule to post, or --post to print Health Connect's total")
        }
        let outside = options.metrics.subtracting(PriorityMetricAggregator.metrics).metrics
        if !outside.isEmpty {
            let names = outside.map(\.name).joined(separator: ", ")
            let taken = PriorityMetricAggregator.metrics.metrics.map(\.name)
            let derived = outside.contains(.totalEnergy)
                ? " (Health Connect derives total calories from active and basal energy)" : ""
            throw Rejection("--rule hc-priority totals only what Health Connect sums by app priority, "
                            + "\(taken.dropLast().joined(separator: ", ")) and \(taken.last ?? ""); not \(names)\(derived): "
                            + "leave \(outside.count == 1 ? "it" : "them") out of --metric, or leave out --rule")
        }
    }
}

extension Option where Options == ReadRequest {
    /// `--rule highest-source|hc-priority`; `apple` refuses hc-priority, which needs Health Connect's priority list.
    static func rule(apple: Bool, help: HelpProse, manual: HelpProse) -> Option {
        .value("--rule", value: "rule", help: help) { (request, text) throws(Rejection) in
            guard let rule = DayRule(rawValue: text.lowercased()) else {
                throw Rejection("unknown rule '\(text)' (use \(DayRule.allCases.map(\.rawValue).joined(separator: " or ")))")
            }
            if apple && rule == .hcPriority {
                throw Rejection("--rule hc-priority is Health Connect's own total, worked out from the app priority list "
                                + "Health Connect keeps; Apple Health exports carry no such list: use the default rule")
            }
            request.options.rule = rule
        }.choices(DayRule.allCases.map(\.rawValue)).manual(manual).usage(.helpOnly)
    }

    /// `--priority app1,app2,...`: package names, highest first.
    static var priority: Option {
        .value("--priority", value: "apps", help: "The apps' order for hc-priority (implies it).") { (request, text) throws(Rejection) in
            let names = text.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw Rejection("--priority needs package names, highest first: --priority com.watch,android") }
            request.options.priority = names.map(HealthConnectOrigin.canonical)
        }.manual("""
            With --rule hc-priority: the apps' priority, package names highest first, comma-separated (Health \
            Connect > Data and access > Activity > Data sources and priority); implies --rule hc-priority. Needed \
            for JSON and CSV dumps; on a database it replaces the stored list.
            """).usage(.helpOnly)
    }

    static func format(help: HelpProse, manual: HelpProse) -> Option {
        .value("--format", value: "format", help: help) { (request, text) throws(Rejection) in
            guard let format = OutputFormat(rawValue: text.lowercased()) else {
                throw Rejection("unknown format '\(text)' (use table, json, csv or sqlite)")
            }
            request.options.format = format
            request.options.formatGiven = true
        }.choices(OutputFormat.allCases.map(\.rawValue)).manual(manual)
    }

    static func bySource(help: HelpProse, manual: HelpProse) -> Option {
        .flag("--by-source", help: help) { $0.options.bySource = true }.manual(manual)
    }

    /// `--metric LIST`: a comma list, repeatable; `all` for every metric the reader gives. Names in
    /// any case. The man page names them all; `--help` a few.
    static func metric(_ available: MetricSet) -> Option {
        let names = available.metrics.map(\.name)
        return .repeatable("--metric", value: "list", help: "Daily metrics: steps, sleep, heart-rate, all, ...") {
            (request, text) throws(Rejection) in
            if !request.options.metricsGiven {
                request.options.metrics = []
                request.options.metricsGiven = true
            }
            for word in text.lowercased().split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                if word == "all" {
                    request.options.metrics = available
                } else if let metric = Metric(name: word) {
                    guard available.contains(metric) else { throw Rejection(unavailable(metric, available)) }
                    request.options.metrics.insert(MetricSet(metric))
                } else {
                    let names = available.metrics.map(\.name) + ["all"]
                    let hint = NearestWord.among(names, for: word).map { "did you mean \($0)? " } ?? ""
                    throw Rejection("unknown metric '\(word)' in --metric: \(hint)(use \(names.joined(separator: ", ")))")
                }
            }
        }.choices(names + ["all"]).manual("""
            The daily metrics to total, a comma list (repeatable): \(names.joined(separator: ", ")), or all. \
            steps is the default. One column each (METRICS).
            """)
    }

    /// Why a metric is not read from this kind of export, and what to ask for instead.
    private static func unavailable(_ metric: Metric, _ available: MetricSet) -> String {
        switch metric {
        case .heartRateVariability:
            return "--metric hrv is Apple's SDNN; Health Connect stores heart-rate variability as RMSSD, "
                + "a different measure: use --metric hrv-rmssd"
        case .heartRateVariabilityRMSSD:
            return "--metric hrv-rmssd is Health Connect's RMSSD; Apple Health stores heart-rate variability as SDNN, "
                + "a different measure: use --metric hrv"
        case .totalEnergy:
            return "--metric total-energy is read from Health Connect and Google Fit; Apple Health keeps active "
                + "and resting energy apart: use --metric active-energy"
        case .moveMinutes, .heartPoints:
            return "--metric \(metric.name) is Google Fit's own measure, read from its Takeout (stepimport hc)"
        case .exercise:
            return "Health Connect has no exercise-minute records (Apple's exercise ring): its exercise sessions "
                + "are --metric workouts"
        default:
            return "--metric \(metric.name) is not read from this export (use \(available.metrics.map(\.name).joined(separator: ", ")) or all)"
        }
    }

    static var since: Option {
        .value("--since", value: "date", help: "Leave out days before this one (YYYY-MM-DD).") { (request, text) throws(Rejection) in
            request.options.since = try date(text, for: "--since")
        }
    }

    /// `--explain DATE`: one day's samples, what became of each, and the rule's choice.
    static var explain: Option {
        .value("--explain", value: "date", help: "Show why this day's total is what it is.") { (request, text) throws(Rejection) in
            request.options.explain = try date(text, for: "--explain")
        }.manual("""
            Show why this day (YYYY-MM-DD) is what it is instead of the days: each source's samples that fall on \
            it (split at midnight, duplicates, hand entries, left out by --exclude-*), each source's total, and \
            the rule's choice; with --metric, for each metric. --format json or csv for programs.
            """).usage(.helpOnly)
    }

    static var until: Option {
        .value("--until", value: "date", help: "Leave out days after this one (YYYY-MM-DD).") { (request, text) throws(Rejection) in
            request.options.until = try date(text, for: "--until")
        }
    }

    private static func date(_ text: String, for name: String) throws(Rejection) -> LocalDate {
        guard let date = LocalDate(text) else { throw Rejection("'\(name)' needs a date as YYYY-MM-DD, got '\(text)'") }
        return date
    }

    static var tokenFile: Option {
        .value("--token-file", value: "path", help: "Read the token from this file (else STEPIMPORT_TOKEN).") {
            $0.posting.tokenFile = $1
        }.manual("Read the bearer token from this file's first line. Otherwise STEPIMPORT_TOKEN. Never on the command line.")
            .usage(.helpOnly)
    }

    static var report: Option {
        .value("--report", value: "file", help: "Also write the report as JSON.") { $0.posting.reportFile = $1 }.usage(.helpOnly)
    }
}
