import CommandLineKit
import Foundation

/// The settings every generator takes the same way (`--out`, `--days`, `--size`, `--seed`,
/// `--start`, `--expected`), so that each of those options and its check is declared once for
/// `apple`, `hc-db` and `hc-json` (each command words its own help).
protocol GeneratorOptions: SendableMetatype {
    var outputPath: String { get set }
    var days: Int? { get set }
    var sizeLimit: Int? { get set }
    var seed: UInt64 { get set }
    var startDay: Int { get set }
    var expectedPath: String? { get set }
}

extension Option where Options: GeneratorOptions {
    /// `--out PATH`; the command's rules make it required.
    static func output(help: HelpProse) -> Option {
        .value("--out", value: "PATH", help: help) { $0.outputPath = $1 }
    }

    static func days(default days: Int) -> Option {
        .value("--days", value: "N", help: "Number of days to generate.") { (options, text) throws(Rejection) in
            guard let parsed = Int(text), parsed >= 1, parsed <= 100_000 else {
                throw Rejection("'--days' needs a whole number of days from 1 to 100000, got '\(text)'")
            }
            options.days = parsed
        }.defaultValue(String(days))
    }

    static func size(help: HelpProse) -> Option {
        .value("--size", value: "BYTES", help: help) { (options, text) throws(Rejection) in
            guard let parsed = AppleExportOptions.parseSize(text) else {
                throw Rejection("'--size' needs a byte count such as 500K, 100M or 1G, got '\(text)'")
            }
            options.sizeLimit = parsed
        }
    }

    static var seed: Option {
        .value("--seed", value: "N", help: "Random seed; the same arguments give the same bytes.") { (options, text) throws(Rejection) in
            guard let parsed = UInt64(text) else {
                throw Rejection("'--seed' needs a non-negative whole number, got '\(text)'")
            }
            options.seed = parsed
        }.defaultValue("1")
    }

    /// `--start YYYY-MM-DD`, a date in `years`, or `today-N` (N days before today, UTC), so that
    /// an export ending today needs no `date` command; `requirement` says what it needs in its error.
    static func start(help: HelpProse, default start: String, years: ClosedRange<Int>, requirement: String) -> Option {
        .value("--start", value: "YYYY-MM-DD", help: help) { (options, text) throws(Rejection) in
            guard let parsed = CivilDate(parsing: text) ?? relativeToToday(text), years.contains(parsed.year) else {
                throw Rejection("'--start' needs \(requirement) or today-N (N days ago), got '\(text)'")
            }
            options.startDay = parsed.dayNumber
        }.defaultValue(start)
    }

    /// `today` or `today-N`: today's date in UTC, N days back.
    private static func relativeToToday(_ text: String) -> CivilDate? {
        guard text.hasPrefix("today") else { return nil }
        let rest = text.dropFirst(5)
        var back = 0
        if !rest.isEmpty {
            guard rest.first == "-", let days = Int(rest.dropFirst()), (0...36_500).contains(days) else { return nil }
            back = days
        }
        let today = Int((Date().timeIntervalSince1970 / 86_400).rounded(.down))
        return CivilDate(dayNumber: today - back)
    }

    static func expected(help: HelpProse) -> Option {
        .value("--expected", value: "PATH", help: help) { $0.expectedPath = $1 }
    }
}

extension GeneratorOptions {
    /// Refuses an expected-totals file that would overwrite the output.
    func checkExpectedPath() throws(Rejection) {
        if let expectedPath, expectedPath == outputPath {
            throw Rejection("'--expected' must name a different file than '--out'")
        }
    }
}
