import CommandLineKit
import HealthDays

/// What a command's arguments fill in that holds the options of reading an export, so that the
/// reading flags are declared once for `apple`, `hc` and `batch`.
protocol ReadingRequest: SendableMetatype {
    var read: ReadOptions { get set }
}

extension Option where Options: ReadingRequest {
    static func skipInvalid(help: HelpProse) -> Option {
        .flag("--skip-invalid", help: help) { $0.read.skipInvalid = true }
    }

    static func quiet(help: HelpProse) -> Option {
        .flag("-q", "--quiet", help: help) { $0.read.quiet = true }
    }

    /// `--exclude-source PATTERN`, any number of times.
    static func excludeSource(help: HelpProse) -> Option {
        .repeatable("--exclude-source", value: "name", help: help) { (request, text) throws(Rejection) in
            do throws(SourcePattern.Problem) {
                request.read.excludedSources.append(try SourcePattern(text))
            } catch {
                throw Rejection("--exclude-source '\(text)': \(error)")
            }
        }
    }

    static func noProgress(help: HelpProse) -> Option {
        .flag("--no-progress", help: help) { $0.read.progress = false }
    }
}
