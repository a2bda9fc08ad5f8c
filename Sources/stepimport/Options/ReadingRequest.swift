import CommandLineKit
import ExportParsers
import HealthDays

/// What a command's arguments fill in that holds the options of reading an export, so that the
/// reading flags are declared once for `apple`, `hc` and `batch`.
protocol ReadingRequest: SendableMetatype {
    var read: ReadOptions { get set }
}

extension Option where Options: ReadingRequest {
    static func skipInvalid(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--skip-invalid", help: help) { $0.read.skipInvalid = true }.manual(manual ?? help)
    }

    /// `--strict-xml`: libxml2 reads every record of an Apple export, not only those asked for.
    static func strictXML(help: HelpProse, manual: HelpProse) -> Option {
        .flag("--strict-xml", help: help) { $0.read.strictXML = true }.manual(manual)
    }

    /// `-o, --output FILE`: the results go to this file (`-`: standard output); `value` names it in the help.
    static func output(value: String = "file", help: HelpProse, manual: HelpProse) -> Option {
        .value("-o", "--output", value: value, help: help) { (request, text) throws(Rejection) in
            guard !text.isEmpty else { throw Rejection("-o needs a file name (or - for standard output)") }
            request.read.output = text
        }.manual(manual)
    }

    static func quiet(help: HelpProse) -> Option {
        .flag("-q", "--quiet", help: help) { $0.read.quiet = true }
    }

    /// `-v, --verbose`: the notes a user cannot act on (sizes, speed, repairs of the file) too.
    static func verbose(help: HelpProse) -> Option {
        .flag("-v", "--verbose", help: help) { $0.read.verbose = true }
    }

    /// `--color auto|always|never`, in any case.
    static var color: Option {
        .value("--color", value: "when", help: "Colour: auto (default, on a terminal), always, never.") {
            (request, text) throws(Rejection) in
            guard let choice = ColorChoice(rawValue: text.lowercased()) else {
                throw Rejection("unknown --color '\(text)' (use auto, always or never)")
            }
            request.read.color = choice
        }.choices(ColorChoice.allCases.map(\.rawValue)).manual("""
            Colour errors red, warnings (and the days inspect finds the server would refuse) yellow and the \
            winning source bold green: auto (the default) on a terminal, unless NO_COLOR is set or TERM is \
            dumb, never in a file of -o; always, also into pipes and files (and despite NO_COLOR); never.
            """).usage(.helpOnly)
    }

    /// `--exclude-manual`: records typed in by hand are left out before the day rule.
    static var excludeManual: Option {
        .flag("--exclude-manual", help: "Leave out records typed in by hand.") { $0.read.excludeManual = true }
            .manual("""
                Leave out records typed in by hand (Apple's HKWasUserEntered, Health Connect's manual entry); by \
                default they count, as the trainee app counts them. The summary says what was left out.
                """).usage(.helpOnly)
    }

    /// `--exclude-source` as `apple` and `hc` document it.
    static var excludeSource: Option {
        excludeSource(help: "Leave this source (a name or pattern) out; repeatable.", manual: """
            Leave this source out before the day rule: its name as --by-source shows it, or a pattern (*, ?, \
            [a-z]). Repeat for more; the summary says what was left out.
            """)
    }

    /// `--exclude-source PATTERN`, any number of times.
    static func excludeSource(help: HelpProse, manual: HelpProse) -> Option {
        .repeatable("--exclude-source", value: "name", help: help) { (request, text) throws(Rejection) in
            do throws(SourcePattern.Problem) {
                request.read.excludedSources.append(try SourcePattern(text))
            } catch {
                throw Rejection("--exclude-source '\(text)': \(error)")
            }
        }.manual(manual)
    }

    static func noProgress(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--no-progress", help: help) { $0.read.progress = false }.manual(manual ?? help)
    }

    /// `--tz`: the zone every sample is placed in (`apple`, `hc`, `inspect`).
    static func zone(help: HelpProse, manual: HelpProse) -> Option {
        .value("--tz", value: "zone", help: help) { (request, text) throws(Rejection) in
            guard let zone = ZoneRule.named(text) else {
                let how = "a name of the zone database such as Europe/Berlin, America/New_York or UTC, "
                    + "or a fixed offset such as +05:30"
                throw Rejection("unknown time zone '\(text)': "
                                + (ZoneRule.suggestion(for: text).map { "did you mean \($0)? (give \(how))" } ?? "give \(how)"))
            }
            request.read.zone = zone
        }.manual(manual)
    }

    /// The `--input-format` words of the table of formats, as "sqlite, json or csv".
    private static var inputFormatWords: String {
        let words = ExportFormats.forcingWords(of: .android)
        return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// `hc` and `inspect --input-format`: `auto` (detect), or one format to read a plain file as.
    static var inputFormat: Option {
        .value("--input-format", value: "format", help: "Read a plain file as \(inputFormatWords).") {
            (request, given) throws(Rejection) in
            let text = given.lowercased()
            guard text != "auto" else {
                request.read.inputFormat = nil
                return
            }
            let words = ExportFormats.forcingWords(of: .android)
            guard words.contains(text) else {
                throw Rejection("unknown input format '\(given)' (use \((["auto"] + words).joined(separator: ", ")))")
            }
            request.read.inputFormat = text
        }.choices(["auto"] + ExportFormats.forcingWords(of: .android))
            .manual("auto (default), \(inputFormatWords): read a plain file as this format instead of recognising it.")
    }
}
