/// The settings of one `stepimport-synth hc-db` or `hc-json` run, parsed from its arguments.
struct HealthConnectOptions: Equatable {
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

    /// Whether `hc-db` writes a zip archive.
    var writesZip: Bool {
        outputPath.lowercased().hasSuffix(".zip")
    }

    /// The first day (index) on which the phone's counter writes under its new package name:
    /// halfway through, and at most 30 days in, so that short samples hold both names.
    var renameDayIndex: Int {
        days.map { min(30, $0 / 2) } ?? 30
    }

    typealias Request = SubcommandRequest<HealthConnectOptions>

    static let defaultStart = "2025-03-20"

    static func defaultDays(_ command: Command) -> Int {
        command == .database ? 60 : 30
    }

    /// Parses the arguments that follow the subcommand; accepts `--flag value` and `--flag=value`.
    static func parse(_ arguments: [String], for command: Command) throws(SynthError) -> Request {
        var output: String?
        var days: Int?
        var rows: Int?
        var size: Int?
        var seed: UInt64 = 1
        var start = CivilDate(parsing: defaultStart)!
        var userVersion = 20
        var shape: HealthConnectJSONShape?
        var expected: String?

        let reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch (flag, command) {
            case ("-h", _), ("--help", _):
                return .help
            case ("--out", _):
                output = try reader.value()
            case ("--days", _):
                let text = try reader.value()
                guard let parsed = Int(text), parsed >= 1, parsed <= 100_000 else {
                    throw SynthError.usage("'--days' needs a whole number of days from 1 to 100000, got '\(text)'")
                }
                days = parsed
            case ("--rows", .database):
                let text = try reader.value()
                guard let parsed = Int(text), parsed >= 1, parsed <= 1_000_000_000 else {
                    throw SynthError.usage("'--rows' needs a whole number of rows from 1 to 1000000000, got '\(text)'")
                }
                rows = parsed
            case ("--size", .json):
                let text = try reader.value()
                guard let parsed = AppleExportOptions.parseSize(text) else {
                    throw SynthError.usage("'--size' needs a byte count such as 500K, 100M or 1G, got '\(text)'")
                }
                size = parsed
            case ("--seed", _):
                let text = try reader.value()
                guard let parsed = UInt64(text) else {
                    throw SynthError.usage("'--seed' needs a non-negative whole number, got '\(text)'")
                }
                seed = parsed
            case ("--start", _):
                let text = try reader.value()
                guard let parsed = CivilDate(parsing: text), (1971...2999).contains(parsed.year) else {
                    throw SynthError.usage("'--start' needs a date as YYYY-MM-DD from 1971 on, got '\(text)'")
                }
                start = parsed
            case ("--user-version", .database):
                let text = try reader.value()
                guard let parsed = Int(text), parsed >= 0, parsed <= 1_000_000 else {
                    throw SynthError.usage("'--user-version' needs a non-negative whole number, got '\(text)'")
                }
                userVersion = parsed
            case ("--shape", .json):
                let text = try reader.value()
                guard let parsed = HealthConnectJSONShape(rawValue: text) else {
                    let names = HealthConnectJSONShape.allCases.map(\.rawValue).joined(separator: ", ")
                    throw SynthError.usage("'--shape' must be one of \(names), got '\(text)'")
                }
                shape = parsed
            case ("--expected", _):
                expected = try reader.value()
            default:
                if flag.hasPrefix("-") {
                    throw SynthError.usage("unknown option '\(flag)'")
                }
                throw SynthError.usage("unexpected argument '\(flag)'")
            }
        }

        guard let output, !output.isEmpty else {
            throw SynthError.usage("missing '--out PATH'")
        }
        if command == .json && shape == nil {
            throw SynthError.usage("missing '--shape SHAPE'")
        }
        if days != nil && (rows != nil || size != nil) {
            throw SynthError.usage(command == .database ? "give either '--days' or '--rows', not both"
                                                        : "give either '--days' or '--size', not both")
        }
        if let expected, expected == output {
            throw SynthError.usage("'--expected' must name a different file than '--out'")
        }
        var options = HealthConnectOptions(outputPath: output, startDay: start.dayNumber)
        options.days = rows == nil && size == nil ? (days ?? defaultDays(command)) : nil
        options.rows = rows
        options.sizeLimit = size
        options.seed = seed
        options.userVersion = userVersion
        options.shape = shape ?? .reactNative
        options.expectedPath = expected
        return .run(options)
    }
}
