import CommandLineKit

/// The settings of one `stepimport-synth hc-db` or `hc-json` run, read from its arguments
/// (`HealthConnectDatabaseCommand.table`, `HealthConnectJSONCommand.table`).
struct HealthConnectOptions: Equatable, GeneratorOptions {
    /// Which subcommand the arguments belong to; each takes a few options of its own.
    enum Command {
        /// `hc-db`: `--rows`, `--user-version`.
        case database
        /// `hc-json`: `--shape` (required), `--size`.
        case json
    }

    /// Where to write: for `hc-db`, a `.zip` gets the backup's layout, anything else the bare database.
    var outputPath: String
    /// Number of days to generate, when the length is given in days.
    var days: Int?
    /// Number of step rows to write (`hc-db`), stopping in the middle of a day.
    var rows: Int?
    /// Size to reach (`hc-json`), finishing the day that crosses it.
    var sizeLimit: Int?
    var seed: UInt64 = 1
    /// First date, as a day number.
    var startDay: Int
    /// `PRAGMA user_version` of the database.
    var userVersion = 20
    /// The JSON shape (`hc-json`).
    var shape: HealthConnectJSONShape = .reactNative
    /// Where to write the expected day totals (JSON), if anywhere.
    var expectedPath: String?
    /// `hc-db --expected-priority`: where to write the totals of `--rule hc-priority` (JSON), if anywhere.
    var expectedPriorityPath: String?
    /// `hc-db --steps-only`: only the step table (and the apps, devices and priorities), with
    /// no metric tables: the benchmark's millions of step rows.
    var stepsOnly = false
    /// `hc-json --metrics`: the records of the metrics beyond steps too, in the shape's form.
    var metrics = false

    /// Whether `hc-db` writes a zip archive.
    var writesZip: Bool {
        outputPath.lowercased().hasSuffix(".zip")
    }

    /// The first day (index) on which the phone's counter writes under its new package name:
    /// halfway through, and at most 30 days in, so that short samples hold both names.
    var renameDayIndex: Int {
        days.map { min(30, $0 / 2) } ?? 30
    }

    static let defaultStart = "2025-03-20"

    static func defaultDays(_ command: Command) -> Int {
        command == .database ? 60 : 30
    }

    /// The settings before any argument: no output yet, the default start and shape; the length
    /// is decided by `finish(for:)`.
    static let defaults = HealthConnectOptions(outputPath: "", startDay: CivilDate(parsing: defaultStart)!.dayNumber)

    /// The settings once every option is read: `--expected` is not the output, and without
    /// `--rows` or `--size` the length is `--days` or the command's default.
    mutating func finish(for command: Command) throws(Rejection) {
        try checkExpectedPath()
        if metrics && shape == .dayTotals {
            throw Rejection("'--metrics' needs a shape with records; day-totals holds steps alone")
        }
        days = rows == nil && sizeLimit == nil ? (days ?? Self.defaultDays(command)) : nil
    }
}

extension Option where Options == HealthConnectOptions {
    /// `hc-db --expected-priority PATH`.
    static var expectedPriority: Option {
        .value("--expected-priority", value: "PATH", help: .asWritten("""
            Also write the day totals of `stepimport hc --rule hc-priority`
            (Health Connect's own total, docs/rules.md) as its --format json
            prints them, computed apart from the tool.
            """)) { (options, text) throws(Rejection) in
            guard text != options.outputPath, text != options.expectedPath else {
                throw Rejection("'--expected-priority' must name a file of its own")
            }
            options.expectedPriorityPath = text
        }
    }

    /// `hc-db --rows N`.
    static var rows: Option {
        .value("--rows", value: "N", help: .asWritten("Generate until exactly N step rows are written (benchmarks).")) {
            (options, text) throws(Rejection) in
            guard let parsed = Int(text), parsed >= 1, parsed <= 1_000_000_000 else {
                throw Rejection("'--rows' needs a whole number of rows from 1 to 1000000000, got '\(text)'")
            }
            options.rows = parsed
        }
    }

    /// `hc-db --steps-only`.
    static var stepsOnly: Option {
        .flag("--steps-only", help: .asWritten("""
            Write only steps_record_table (with the apps, devices and
            priorities), none of the metric tables (benchmarks).
            """)) { $0.stepsOnly = true }
    }

    /// `hc-json --metrics`.
    static var metrics: Option {
        .flag("--metrics", help: .asWritten("""
            Also write the records of the metrics beyond steps (as hc-db's
            tables, in the shape's form; each type under a member of its own
            in react-native and hcgateway); --expected then adds their day
            values ("metrics"). Not with the day-totals shape.
            """)) { $0.metrics = true }
    }

    /// `hc-db --user-version N`.
    static var userVersion: Option {
        .value("--user-version", value: "N", help: "PRAGMA user_version; Health Connect's are 9 to 23.") {
            (options, text) throws(Rejection) in
            guard let parsed = Int(text), parsed >= 0, parsed <= 1_000_000 else {
                throw Rejection("'--user-version' needs a non-negative whole number, got '\(text)'")
            }
            options.userVersion = parsed
        }.defaultValue(String(HealthConnectOptions.defaults.userVersion))
    }

    /// `hc-json --shape SHAPE`; the command's rules make it required.
    static var shape: Option {
        .value("--shape", value: "SHAPE", help: "The JSON shape (see SHAPES).") { (options, text) throws(Rejection) in
            guard let parsed = HealthConnectJSONShape(rawValue: text) else {
                let names = HealthConnectJSONShape.allCases.map(\.rawValue).joined(separator: ", ")
                throw Rejection("'--shape' must be one of \(names), got '\(text)'")
            }
            options.shape = parsed
        }
    }

    static var start: Option {
        .start(help: "First day (or today-N: N days ago).", default: HealthConnectOptions.defaultStart, years: 1971...2999,
               requirement: "a date as YYYY-MM-DD from 1971 on")
    }
}
