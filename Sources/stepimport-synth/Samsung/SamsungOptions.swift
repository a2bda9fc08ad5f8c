import CommandLineKit

/// The settings of one `stepimport-synth samsung` run, read from its arguments (`SamsungCommand.table`).
struct SamsungOptions: Equatable, GeneratorOptions {
    /// How the CSVs' text is written.
    enum Encoding: String, CaseIterable {
        /// UTF-8 with a byte-order mark, as the app writes it.
        case utf8
        /// UTF-16 with a byte-order mark, in either order, as others report.
        case utf16le
        case utf16be
    }

    /// How the header names its columns.
    enum Headers: String, CaseIterable {
        /// As the app: step_daily_trend's bare, pedometer_step_count's mostly prefixed.
        case app
        /// No column with its type's prefix.
        case bare
        /// Every column with its type's prefix.
        case prefixed
    }

    /// Where to write: `.zip` the export zipped, `.csv` its step CSV alone, anything else a folder.
    var outputPath: String
    var days: Int?
    /// Not taken (`GeneratorOptions` asks for it): an export's size is its days.
    var sizeLimit: Int?
    var seed: UInt64 = 1
    var startDay: Int
    var expectedPath: String?
    /// `--devices-only`: no combined (`source_type` -2) rows.
    var devicesOnly = false
    /// `--phone-change`: a second phone (`source_type` 0, another `deviceuuid`) from halfway on.
    var phoneChange = false
    /// `--text-day-time`: `day_time` as older exports write it, `2018-11-28 00:00:00.000`.
    var textDayTime = false
    var encoding = Encoding.utf8
    var headers = Headers.app
    /// `--blank-rows`: empty rows after the last (a blank line, a row of commas).
    var blankRows = false
    /// The minute bins' `time_offset`, in minutes east of UTC (`UTC-0300` by default).
    var offsetMinutes = -180
    /// `--no-trend`: no step_daily_trend file, so the minute bins are what is read.
    var noTrend = false
    /// `--renamed`: the files named as people rename them (`Step Daily Trend.csv`).
    var renamed = false
    /// `--jsons`: the `jsons/` folder the trend's `binning_data` names.
    var jsons = false
    /// `--with-google-fit`: a Google Fit Takeout daily summary beside the export.
    var withGoogleFit = false
    /// The last days that have minute bins when the trend is written (all days under `--no-trend`).
    var binDays = 7

    /// Whether the export is written as a zip.
    var writesZip: Bool { outputPath.lowercased().hasSuffix(".zip") }
    /// Whether only the step CSV is written.
    var writesCSVAlone: Bool { outputPath.lowercased().hasSuffix(".csv") }

    static let defaultStart = "2025-01-01"
    static let defaultDays = 60

    static let defaults = SamsungOptions(outputPath: "", startDay: CivilDate(parsing: defaultStart)!.dayNumber)

    /// `UTC-0300`, as the export writes an offset.
    var offsetText: String {
        let magnitude = abs(offsetMinutes)
        let hours = magnitude / 60, minutes = magnitude % 60
        return "UTC" + (offsetMinutes < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + (minutes < 10 ? "0" : "")
            + String(minutes)
    }

    mutating func finish() throws(Rejection) {
        try checkExpectedPath()
        days = days ?? Self.defaultDays
        if writesCSVAlone && (jsons || withGoogleFit) {
            throw Rejection("'--jsons' and '--with-google-fit' need a folder or a zip, not a CSV file")
        }
    }
}

extension Option where Options == SamsungOptions {
    static var start: Option {
        .start(help: "First day (or today-N: N days ago).", default: SamsungOptions.defaultStart, years: 1974...2199,
               requirement: "a date as YYYY-MM-DD from 1974 to 2199")
    }

    static var encoding: Option {
        .value("--encoding", value: "NAME", help: "utf8 (default, with a byte-order mark, as the app), utf16le or utf16be.") {
            (options, text) throws(Rejection) in
            guard let parsed = SamsungOptions.Encoding(rawValue: text) else {
                throw Rejection("'--encoding' must be utf8, utf16le or utf16be, got '\(text)'")
            }
            options.encoding = parsed
        }.choices(SamsungOptions.Encoding.allCases.map(\.rawValue))
    }

    static var headers: Option {
        .value("--headers", value: "FORM", help: .asWritten("""
            app (default: as the app writes them), bare (no column
            prefixed with its type) or prefixed (every column).
            """)) { (options, text) throws(Rejection) in
            guard let parsed = SamsungOptions.Headers(rawValue: text) else {
                throw Rejection("'--headers' must be app, bare or prefixed, got '\(text)'")
            }
            options.headers = parsed
        }.choices(SamsungOptions.Headers.allCases.map(\.rawValue))
    }

    static var timeOffset: Option {
        .value("--time-offset", value: "UTC±HHMM", help: "The minute bins' offset (default UTC-0300).") {
            (options, text) throws(Rejection) in
            let digits = Array(text.utf8.dropFirst(4))
            guard text.count == 8, text.hasPrefix("UTC+") || text.hasPrefix("UTC-"),
                  digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let hours = Int(String(text.dropFirst(4).prefix(2))), let minutes = Int(String(text.suffix(2))),
                  hours <= 14, minutes <= 59
            else {
                throw Rejection("'--time-offset' needs UTC+HHMM or UTC-HHMM up to 14 hours, got '\(text)'")
            }
            options.offsetMinutes = (hours * 60 + minutes) * (text.hasPrefix("UTC-") ? -1 : 1)
        }
    }

    static var binDays: Option {
        .value("--bin-days", value: "N", help: "The last days with minute bins beside the trend (default 7).") {
            (options, text) throws(Rejection) in
            guard let parsed = Int(text), parsed >= 0, parsed <= 100_000 else {
                throw Rejection("'--bin-days' needs a whole number of days from 0 to 100000, got '\(text)'")
            }
            options.binDays = parsed
        }
    }
}
