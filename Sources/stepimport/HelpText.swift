import HealthDays
/// The `--help` pages, in the layout of swift-argument-parser.
enum HelpText {
    static let version = "0.1.0"

    static let topLevel = """
    OVERVIEW: Turn phone health exports into trustworthy daily step totals.

    Per local day, the total is the highest single source's steps (never phone and
    watch added together), after exact duplicates are collapsed. Days with no steps
    are left out.

    USAGE: stepimport <subcommand> [<options>]

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      apple                   Read an Apple Health export (export.zip, export.xml, the
                              unpacked folder, or - for standard input).
      hc                      Read a Health Connect export, an app's JSON or CSV dump,
                              or Google Fit Takeout (zip, folder, CSV or JSON).
      batch                   Read, and with --post back-fill, every account of a
                              manifest: parallel, restartable, shardable.

      See 'stepimport help <subcommand>' for detailed help.

    """ + exitStatus

    static let apple = """
    OVERVIEW: Read an Apple Health export and print daily step totals.

    Streams the export's XML straight out of the zip (never unpacked, never held in
    memory), so multi-gigabyte exports run in constant memory. The XML is found by
    content, so localized names (экспорт.xml, Export.xml) work, and macOS decoys
    (__MACOSX/, ._*) and export_cda.xml are skipped. Only top-level step records
    count; the copies inside Correlation elements do not.

    USAGE: stepimport apple <export> [--format <format>] [--by-source] [--tz <zone>]
                            [--since <date>] [--until <date>] [--skip-invalid] [--quiet]
                            [--post [--plan | --dry-run] [--keep-existing] [<posting options>]]

    ARGUMENTS:
      <export>                export.zip, export.xml, the apple_health_export folder,
                              or - to read a zip or XML from standard input.

    OPTIONS:
      --format <format>       table (default), json or csv. json prints exactly the
                              body of POST /v1/trainee/health/days:
                              {"days":[{"date":"YYYY-MM-DD","steps":N}, ...]}
      --by-source             Show every source's total per day and mark the winner
                              (in every format).
      --tz <zone>             Place every sample in this IANA zone (e.g. Europe/Berlin),
                              with its daylight-saving rules. Without it, each sample
                              is placed in the UTC offset written in the file (the
                              same rule as `stepimport hc`).
      --since <date>          Leave out days before this one (YYYY-MM-DD).
      --until <date>          Leave out days after this one (YYYY-MM-DD).
      --skip-invalid          Skip step records whose date or value cannot be read,
                              and report them, instead of stopping.
      -q, --quiet             Print no summary or progress on standard error.
      --no-progress           Print no progress indicator (it only appears on a
                              terminal, and never when NO_COLOR is set).
      -h, --help              Show help information.

    """ + posting + """

    ZONES:
      Apple writes every timestamp with the phone's offset at export time, so a summer
      sample of a Berlin user exported in January says +0100, and on days near
      midnight its date can be off by one hour's worth of steps. --tz with the trainee's
      own zone gives the days the phone showed and the server uses.

    RULES:
      Exact duplicates (same source, start, end and value) are counted once. Samples
      that cross midnight are split between the days in proportion to time. Totals
      are rounded per source per day; the highest source wins (ties: name order).

    """ + exitStatus + """

    EXAMPLES:
      stepimport apple export.zip
      stepimport apple export.zip --format json --since 2024-01-01 > days.json
      stepimport apple export.zip --tz Europe/Berlin --by-source
      unzip -p export.zip apple_health_export/export.xml | stepimport apple -
      STEPIMPORT_TOKEN=... stepimport apple export.zip --post --api-url https://api.example.com --tz Europe/Berlin --plan

    """

    static let healthConnect = """
    OVERVIEW: Read Android step data and print daily step totals.

    Reads, and recognises by itself:
      - Health Connect's own export: Health Connect.zip (any name) or the bare
        health_connect_export.db (opened read-only; nothing is written beside it).
      - JSON dumps: react-native-health-connect readRecords (with or without zone
        offsets), HCGateway, Capacitor, Flutter health (camelCase and snake_case),
        plain arrays of records, and day totals. Streamed: any size.
      - CSV: records (start, end, count, origin; ISO 8601 or epoch ms) or day totals
        (date, steps, optional source), with the header names exporters use.
      - Google Fit Takeout: the daily summary CSV, the per-day 15-minute CSVs (the
        date comes from the file name), the raw estimated_steps JSON stream, or the
        whole Takeout zip or folder. Takeout holds the same steps up to three times;
        the daily summary is preferred, then the per-day CSVs, then estimated_steps,
        and they are never added together.

    The android and com.android.healthconnect.phone.* origins are the phone's own
    counter under two names and count as one source.

    USAGE: stepimport hc <export> [--input-format <format>] [--format <format>]
                         [--by-source] [--tz <zone>] [--since <date>] [--until <date>]
                         [--skip-invalid] [--quiet]
                         [--post [--plan | --dry-run] [--keep-existing] [<posting options>]]

    ARGUMENTS:
      <export>                A zip, a database, a JSON or CSV file, a Takeout folder,
                              or - for standard input.

    OPTIONS:
      --input-format <format> auto (default), sqlite, json or csv: read a plain file
                              as this format instead of recognising it.
      --format <format>       table (default), json or csv. json prints exactly the
                              body of POST /v1/trainee/health/days.
      --by-source             Show every source's total per day and mark the winner.
      --tz <zone>             Place every record in this IANA zone (e.g. Asia/Kolkata),
                              daylight saving included; wall times without an offset
                              (Flutter) are read as that zone's local time.
      --since <date>          Leave out days before this one (YYYY-MM-DD).
      --until <date>          Leave out days after this one (YYYY-MM-DD).
      --skip-invalid          Skip records whose time or count cannot be read, and
                              report them, instead of stopping.
      -q, --quiet             Print no summary or progress on standard error.
      --no-progress           Print no progress indicator.
      -h, --help              Show help information.

    """ + posting + """

    ZONES:
      By default each record is placed in the UTC offset it carries (Health Connect
      stores one per record). Records that carry none (older react-native dumps,
      Flutter wall times, Takeout's nanosecond streams) are taken as UTC, and the
      summary says how many. --tz places every record in the trainee's zone; it is
      the same rule as for `stepimport apple`. Takeout's daily totals are already
      per local day and keep their dates under every rule.

    """ + exitStatus + """

    EXAMPLES:
      stepimport hc "Health Connect.zip"
      stepimport hc dump.json --format json --since 2025-01-01
      stepimport hc takeout-20250301.zip --by-source
      stepimport hc records.csv --tz Asia/Kolkata

    """

    static let batch = """
    OVERVIEW: Back-fill many trainee accounts from a manifest of exports.

    Reads every account's export in the account's own zone and prints a summary per
    account, or with --post posts it exactly as `stepimport apple|hc --post --tz`
    would (checked, at most 90 days a request, retried safely). Accounts run on
    --jobs threads, one export each at a time, so memory stays flat.

    With --post, a journal (JSON lines, fsynced as each account finishes) remembers
    which accounts are done: running the same command again skips them and retries
    the failed ones, also after the process was killed (a day sent twice is
    harmless: the server replaces it). --shard K/N takes a stable share of the
    accounts, so that N machines can split one manifest.

    USAGE: stepimport batch <manifest> [--jobs <n>] [--shard <k/n>] [--report <file>]
                            [--skip-invalid] [--quiet] [--no-progress]
                            [--post [--plan | --dry-run] [--keep-existing] [--journal <file>]
                             [--redo] [<posting options>]]

    ARGUMENTS:
      <manifest>              A CSV file with a header and one row per account:
                                account     a unique label, for reports and the journal
                                file        the export, relative to the manifest
                                kind        apple, hc, or auto (decided by content)
                                token_file  a file holding the account's token, or
                                token_env   an environment variable holding it
                                tz          the trainee's IANA zone (Europe/Berlin)
                              Every problem in it is listed before anything starts.

    OPTIONS:
      -j, --jobs <n>          Accounts at once (default: the number of cores).
      --shard <k/n>           Only the k-th of n stable shares of the accounts (by a
                              hash of the label), e.g. 2/4. Default 1/1.
      --report <file>         Also write the batch's report as JSON: per account the
                              days parsed, sent, written and not sent, and the error.
      --skip-invalid          Skip step records that cannot be read, and report them.
      -q, --quiet             Print only failures and the table.
      --no-progress           Print no progress line (it is redrawn on a terminal;
                              in a log, a tally line is written every 10 seconds).
      -h, --help              Show help information.

    POSTING (--post):
      --post                  Post each account's days with its own token.
      --api-url <url>         The backend (or STEPIMPORT_API_URL).
      --cacert <file>         Trust this CA (PEM) instead of the system's.
      --journal <file>        Where the journal is (default: beside the manifest,
                              <manifest>.journal.jsonl, or
                              <manifest>.shard-K-of-N.journal.jsonl with --shard).
      --redo                  Run the accounts the journal says are done, too.
      --plan                  Per account, count the days a post would write,
                              overwrite, leave the same or keep. Writes nothing.
      --keep-existing         Post only the days the server has no value for.
      --dry-run               Count the requests per account; send nothing.
      --send-all              Send days outside the server's window too.
      --retries <n>           Retries per request (default 5).
      --timeout <seconds>     Time limit of one request (default 60).

    EXIT STATUS:
      0   Every account of the shard is done (in this run or an earlier one).
      1   Some accounts failed or were not run; the others are done. The table, the
          report and stderr name them; the same command again retries only them.
      64  Usage error.
      65  The manifest is not valid (every problem is listed); nothing was done.
      66  The manifest does not exist.
      69  Stopped early: the server could not be reached for several accounts in a row.
      74  The manifest or the journal could not be read or written.
      75  Stopped early: the server kept failing for several accounts in a row; or
          another batch holds the journal.
      78  Missing or unusable API URL or CA file.
      130 Interrupted by Ctrl-C; the same command again goes on where it stopped.

    EXAMPLES:
      stepimport batch accounts.csv
      stepimport batch accounts.csv --post --api-url https://api.example.com --plan
      stepimport batch accounts.csv --post --api-url https://api.example.com --jobs 4 --report report.json
      stepimport batch accounts.csv --post --shard 3/8     # machine 3 of 8

    """

    /// The posting options, the same for `apple` and `hc`.
    static let posting = """

    POSTING (--post):
      --post                  Post the totals to POST /v1/trainee/health/days instead
                              of printing them: checked, in date order, at most 90
                              days a request, retried safely (the server upserts).
      --api-url <url>         The backend (or STEPIMPORT_API_URL). https, or http
                              to this computer only.
      --token-file <path>     Read the bearer token from this file's first line.
                              Otherwise STEPIMPORT_TOKEN. Never on the command line.
      --cacert <file>         Trust this CA (PEM) instead of the system's.
      --tz <zone>             Also the trainee's zone for the server's window (days
                              older than 90 days or more than a day ahead are skipped
                              by the server, so they are not sent). Default: this
                              machine's zone.
      --send-all              Send days outside the window too.
      --plan                  Show, per day, the server's value and the new one, and
                              what a post would do. Writes nothing.
      --keep-existing         Post only the days the server has no value for (never
                              overwrite a hand-typed value).
      --dry-run               Show the requests that would be sent; send nothing.
      --retries <n>           Retries per request for 429, 5xx, time-outs and dropped
                              connections, with backoff and Retry-After (default 5).
      --timeout <seconds>     Time limit of one request (default 60).
      --report <file>         Also write the report as JSON.

    """

    static let exitStatus = """
    EXIT STATUS:
      0   Success: the totals are complete.
      64  Usage error: unknown option, missing or bad argument.
      65  Bad data: malformed or truncated file, not an export of this kind, invalid
          record, damaged zip or database. Nothing is printed on standard output.
      66  The input file does not exist.
      70  Internal error (a bug in stepimport).
      74  The input could not be read (permissions, I/O error, no room for a
          temporary copy of a zip read from a pipe), or the results could not be
          written.
      With --post:
      69  The server could not be reached (refused, dropped, timed out, TLS).
      75  The server kept failing (429, 5xx) until the retries ran out.
      76  The server answered against the contract (a redirect, a bad answer, or
          fewer days written than sent).
      77  The server refused the token (401, 403).
      78  Missing or unusable configuration (API URL, token, CA file); checked
          before any parsing.
      130 Interrupted by Ctrl-C, between requests; the report says how far it got.
      Status 0 means every day meant to be written was written.

    """

    static func usageLine(for command: String?) -> String {
        switch command {
        case "apple":
            return "USAGE: stepimport apple <export> [--format <format>] [--by-source] [--tz <zone>] [--since <date>] [--until <date>]"
        case "hc":
            return "USAGE: stepimport hc <export> [--input-format <format>] [--format <format>] [--by-source] [--tz <zone>] [--since <date>] [--until <date>]"
        case "batch":
            return "USAGE: stepimport batch <manifest> [--jobs <n>] [--shard <k/n>] [--report <file>] [--post [<posting options>]]"
        default:
            return "USAGE: stepimport <subcommand> [<options>]"
        }
    }

    static func page(for command: String?) -> String {
        switch command {
        case "apple": return apple
        case "hc": return healthConnect
        case "batch": return batch
        default: return topLevel
        }
    }
}
