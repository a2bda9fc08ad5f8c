import CommandLineKit

/// The prose of stepimport's help pages and man page that no table produces: the discussions and
/// the sections. The usage lines, ARGUMENTS, OPTIONS, POSTING and SUBCOMMANDS lists come from the
/// tables (`Invocation.program`, `ReadRequest.apple`, `ReadRequest.android`,
/// `InspectRequest.command`, `BatchRequest.command`).
///
/// `--help` is kept to a screen: a discussion of a few lines, and a closing note that points to
/// the exit statuses and the man page. The man page is the reference: ZONES, RULES, METRICS,
/// EXAMPLES and the exit statuses are there (`HelpSection.Audience.manualPage`). Flowing prose is
/// written a paragraph to a line (Swift's `\` joins the source lines), so that it wraps to any width.
enum HelpText {
    static let version = "0.2.0"
    /// The date of this version's release, in the man page's header (CHANGELOG.md).
    static let releaseDate = "2026-12-01"

    static let programDiscussion: HelpProse = """
        Per local day, the highest single source's steps (never phone and watch added together), \
        exact duplicates counted once.
        """

    /// The closing note of every subcommand's page: where the rest is.
    static let seeAlso = HelpSection("", audience: .helpPage,
                                     body: "Exit statuses: stepimport help exit-status; reference: man stepimport.")

    // MARK: - apple

    static let appleDiscussion: HelpProse = """
        Streams the XML out of the zip in constant memory; only top-level step records count, \
        exact duplicates once, and each day takes its highest single source.
        """

    static let appleSections = [
        HelpSection("READING", placement: .beforeOptions, audience: .manualPage, body: """
            The export's XML is streamed straight out of the zip (never unpacked, never held in \
            memory), so multi-gigabyte exports run in constant memory. The XML is found by content, \
            so localized names (экспорт.xml, Export.xml) work, and macOS decoys (__MACOSX/, ._*) and \
            export_cda.xml are skipped. Only top-level step records count; the copies inside \
            Correlation elements do not.
            """),
        HelpSection("ZONES", audience: .manualPage, body: """
            Apple writes every timestamp with the phone's offset at export time, so a summer sample \
            of a Berlin user exported in January says +0100, and on days near midnight its date can \
            be off by one hour's worth of steps. --tz with the trainee's own zone gives the days the \
            phone showed and the server uses.
            """),
        HelpSection("RULES", audience: .manualPage, body: """
            Exact duplicates (same source, start, end and value) are counted once. Samples that \
            cross midnight are split between the days in proportion to time. Totals are rounded per \
            source per day; the highest source wins (ties: name order).
            """),
        HelpSection("METRICS", audience: .manualPage, body: """
            --metric adds columns; each day's value comes from one source, never a sum of sources. \
            Distance, active energy, flights and exercise minutes follow the step rule. Heart rate \
            (avg, min, max), resting heart rate, HRV (SDNN) and VO2max: the day's samples of the \
            source with the most samples, on the day they start. Sleep and in bed: per source the \
            union of its intervals (stages and apps never counted twice), in periods split by gaps \
            of an hour, on the day each period ends; the source with the most minutes wins. \
            Workouts: count and minutes on the day they start, the source with the most minutes. \
            Values outside plausible ranges (heart rate 25-250 bpm, a day's sleep over 24 h, ...) \
            are left out and counted in the summary; units are converted, and an unknown unit is \
            an invalid record. Only steps can be posted. Details: docs/metrics.md.
            """),
        HelpSection("EXAMPLES", audience: .manualPage, body: .asWritten("""
            stepimport apple export.zip
            stepimport apple export.zip --metric all --format csv > days.csv
            stepimport apple export.zip --metric all -o days.sqlite
            stepimport apple export.zip --metric sleep,heart-rate --tz Europe/Berlin --by-source
            stepimport apple export.zip --format json --since 2024-01-01 > days.json
            stepimport apple export.zip --tz Europe/Berlin --by-source
            unzip -p export.zip apple_health_export/export.xml | stepimport apple -
            STEPIMPORT_TOKEN=... stepimport apple export.zip --post --api-url https://api.example.com --tz Europe/Berlin --plan
            """)),
        seeAlso,
    ]

    // MARK: - hc

    static let healthConnectDiscussion: HelpProse = """
        Reads Health Connect's and Samsung Health's exports, apps' JSON and CSV dumps, and Google \
        Fit and Fitbit Takeout, recognising each by itself.
        """

    static let healthConnectSections = [
        HelpSection("FORMATS", placement: .beforeOptions, audience: .manualPage, body: """
            Reads, and recognises by itself:
              - Health Connect's own export: Health Connect.zip (any name) or the bare \
            health_connect_export.db (opened read-only; nothing is written beside it).
              - JSON dumps: react-native-health-connect readRecords (with or without zone offsets), \
            HCGateway, Capacitor, Flutter health (camelCase and snake_case), plain arrays of records, \
            and day totals. Streamed: any size.
              - CSV: records (start, end, count, origin; ISO 8601 or epoch ms) or day totals (date, \
            steps, optional source), with the header names exporters use.
              - Google Fit Takeout: the daily summary CSV, the per-day 15-minute CSVs (the date comes \
            from the file name), the raw estimated_steps JSON stream, or the whole Takeout zip or \
            folder. Takeout holds the same steps up to three times; the daily summary is preferred, \
            then the per-day CSVs, then estimated_steps, and they are never added together.
              - Fitbit, from Google Takeout: the per-minute steps-YYYY-MM-DD.json files of \
            Takeout/Fitbit/Global Export Data (with --metric, its distance-, calories-, heart_rate- \
            and sleep- files too), one file, that folder, or the whole Takeout zip or folder, as \
            source Fitbit. A Takeout with both Google Fit and Fitbit reads both as two sources: each \
            day takes the higher, never their sum.
              - Samsung Health's "Download personal data" export: its folder or zip, or one of its \
            step CSVs alone, renamed or not (each is known by its first line; UTF-8 or UTF-16). The \
            day totals of step_daily_trend are read, its combined total as source Samsung Health and \
            each device as a source of its own (Samsung Health (phone, id)); without that file, the \
            minute bins of pedometer_step_count, per device. Its other copies of the steps are never \
            added. --metric distance too.

            The android and com.android.healthconnect.phone.* origins are the phone's own counter \
            under two names and count as one source.
            """),
        HelpSection("ZONES", audience: .manualPage, body: """
            By default each record is placed in the UTC offset it carries (Health Connect stores one \
            per record). Records that carry none (older react-native dumps, Flutter wall times, \
            Takeout's nanosecond streams) are taken as UTC, and the summary says how many. --tz \
            places every record in the trainee's zone; it is the same rule as for `stepimport \
            apple`. Takeout's daily totals are already per local day and keep their dates under \
            every rule. Fitbit's minutes are the account's local wall clock: each counts on the date \
            written (the date in the zone of the profile, which the summary names), or is read in \
            the --tz zone, which gives the same dates.
            """),
        HelpSection("RULES", audience: .manualPage, body: """
            Exact duplicates count once, records over midnight are split in proportion to time, and \
            per day the highest single source wins (ties: name order): what --post sends. --rule \
            hc-priority works out the number the Health Connect app shows instead: in each slice of \
            time only the record of the highest app in the priority list (the database's own, or \
            --priority) counts, pro rata; apps absent from the list count nothing; within an app the \
            record modified last wins; each day's sum is cut to whole steps. With --metric it totals \
            distance, active-energy and flights the same way, each its own sweep over the same list \
            (not cut: rounded as every metric value); --exclude-source takes an app's records away \
            before the sweep. Details: docs/rules.md.
            """),
        HelpSection("METRICS", audience: .manualPage, body: """
            --metric reads Health Connect's own database, apps' JSON dumps, CSV files and Google Fit \
            Takeout by the rules of `stepimport apple`: distance, active calories (in the database \
            in calories: divided by 1,000), floors, and Takeout's move minutes and heart points \
            follow the step rule; total calories, resting energy included, are their own column \
            (total_kcal), never active energy; heart rate (each reading of a series), resting heart \
            rate, HRV as RMSSD (its own column: Apple's SDNN is another measure) and VO2max take the \
            app with the most samples per day; sleep is a session's asleep stages (light, deep, REM, \
            sleeping; the whole session when it has no stages), in bed its span, each per app as a \
            union on the day it ends; workouts are exercise sessions with their span. Takeout's \
            columns are found by name (Calories (kcal) is total energy); a CSV gives day values \
            under the names stepimport prints (date,steps,distance_m,hr_avg,...) or records with a \
            metric column (start,end,metric,value). Fitbit's Takeout gives distance (written in \
            centimetres), calories (total energy), heart rate (each reading) and sleep (asleep \
            stages less short wakes; in bed, each log's span); a file of a metric not asked for is \
            not opened. Details: docs/metrics.md, docs/fitbit.md.
            """),
        HelpSection("EXAMPLES", audience: .manualPage, body: .asWritten("""
            stepimport hc "Health Connect.zip"
            stepimport hc dump.json --format json --since 2025-01-01
            stepimport hc takeout-20250301.zip --by-source
            stepimport hc records.csv --tz Asia/Kolkata
            stepimport hc "Health Connect.zip" --rule hc-priority --by-source
            stepimport hc "Health Connect.zip" --rule hc-priority --metric steps,distance
            """)),
        seeAlso,
    ]

    // MARK: - inspect

    static let inspectDiscussion: HelpProse = """
        Reads the export as apple or hc would (it tells them apart by itself) and prints what it \
        holds instead of the totals, with a chart of each step source's days.
        """

    static let inspectSections = [
        HelpSection("WHAT IT SHOWS", placement: .beforeOptions, audience: .manualPage, body: """
            The format and where in the zip or folder it was found; the export's own facts (Apple: \
            locale, export date, HealthKit export version; Health Connect: user_version and tables; \
            Takeout: which copies of the steps are present); the records of every type; the step \
            sources with their first and last day; the UTC offsets the samples carry and whether \
            one offset spans a change of clocks (then --tz matters); the exact duplicates; and the \
            days the server would refuse (over 100,000 steps, before 2000, more than a day after \
            today in the --tz zone, else this machine's).

            The table draws each step source's days as a chart: a row per source, a column per day, \
            week, month, quarter or year (the finest that fits), the height of a block the mean \
            steps a day, a `refused` row marking the columns with a day the server would refuse. It \
            is as wide as COLUMNS, else the terminal (when the report goes to one), else 80 \
            columns, and ASCII with --ascii or a locale that is not UTF-8.
            """),
        HelpSection("EXAMPLES", audience: .manualPage, body: .asWritten("""
            stepimport inspect export.zip
            stepimport inspect "Health Connect.zip" --format json
            stepimport inspect takeout-20250301.zip --tz Asia/Kolkata
            stepimport inspect records.txt --input-format csv
            """)),
        seeAlso,
    ]

    // MARK: - batch

    static let batchDiscussion: HelpProse = """
        Reads every account's export in the account's own zone and prints a summary per account, \
        or with --post posts it as apple|hc --post --tz would; --output writes every account's \
        days. Accounts run on --jobs threads; with --post or --output a journal makes a second \
        run take only what is not done.
        """

    static let batchSections = [
        HelpSection("JOURNAL AND SHARDS", placement: .beforeOptions, audience: .manualPage, body: """
            Accounts run on --jobs threads, one export each at a time, so memory stays flat. With \
            --post, each account is posted exactly as `stepimport apple|hc --post --tz` would post \
            it (checked, at most 90 days a request, retried safely). --output writes each account's \
            days as `stepimport apple|hc FILE --tz ZONE` prints them: a JSON or CSV file per account \
            in a folder, or one SQLite database.

            With --post or --output, a journal (JSON lines, fsynced as each account finishes) \
            remembers which accounts are done: running the same command again skips them and \
            retries the failed ones, also after the process was killed (a day sent or written twice \
            is harmless: the server replaces it, and so does the output). --shard K/N takes a \
            stable share of the accounts, so that N machines can split one manifest.
            """),
        HelpSection("EXAMPLES", audience: .manualPage, body: .asWritten("""
            stepimport batch accounts.csv
            stepimport batch accounts.csv --output days/ --format csv   # days/<account>.csv
            stepimport batch accounts.csv --output days.sqlite          # one database
            stepimport batch accounts.csv --post --api-url https://api.example.com --plan
            stepimport batch accounts.csv --post --api-url https://api.example.com --jobs 4 --report report.json
            stepimport batch accounts.csv --post --shard 3/8     # machine 3 of 8
            """)),
        seeAlso,
    ]

    // MARK: - Exit statuses

    /// Every exit status of every subcommand, once: on the program's page, alone with
    /// `stepimport help exit-status`, and in the man page. The subcommands' pages point here.
    static let exitStatus = HelpSection("EXIT STATUS", topic: "exit-status", body: """
        0    Success: the totals are complete, and with --post every day meant to be written was \
        written (days older than the server's window are not sent; a warning counts them).
        1    batch: some accounts failed or were not run; the same command again retries only them.
        3    Nothing was written: every day (batch: of some account) is outside the server's \
        window, the last 90 days in the trainee's zone.
        64   Usage error: unknown option, missing or bad argument.
        65   Bad data: a malformed, truncated or damaged file, not an export of this kind, an \
        invalid record (over 1,000,000 steps, a span over 31 days, a time outside 1970-2200), a \
        zip bomb, an invalid manifest. Nothing is printed on standard output.
        66   The input (or the manifest) does not exist.
        69   The server could not be reached (batch: for several accounts in a row).
        70   Internal error (a bug in stepimport).
        74   The input could not be read (permissions, I/O, no room in $TMPDIR), or the results \
        (-o, batch --output), the report or the journal could not be written (batch: an account \
        whose days could not be written fails, with 74 in the report).
        75   The server kept failing (429, 5xx) until the retries ran out (batch: for several \
        accounts in a row), or another batch holds the journal.
        76   The server answered against the contract: a redirect, a bad answer, or a days count \
        other than the days it keeps.
        77   The server refused the token (401, 403).
        78   Missing or unusable API URL, token, CA file or libcurl; checked before any reading.
        130  Interrupted by Ctrl-C: --post stops between requests; batch goes on where it stopped \
        when run again.
        143  Ended by SIGTERM (129: SIGHUP); temporary files are removed first.
        """)
}
