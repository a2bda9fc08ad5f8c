import BackendUpload
import ExportParsers
import HealthDays

/// A day the server would refuse, in this command line's words (`stepimport inspect`).
extension DayRefusal {
    /// Why, in a few words, e.g. "over 100000 steps, the most the server takes for a day".
    var words: String {
        switch self {
        case .negativeSteps: return "negative steps (a correction larger than the day)"
        case .overDailyMaximum: return "over \(UploadRules.maxDailySteps) steps, the most the server takes for a day"
        case .beforeEarliestDay: return "before \(UploadRules.earliestDay): a device clock that was never set"
        case .inTheFuture(let today): return "more than one day after today (\(today)): a device clock set ahead"
        }
    }

    /// A stable name for scripts (`--format json`).
    var code: String {
        switch self {
        case .negativeSteps: return "negative"
        case .overDailyMaximum: return "overDailyMaximum"
        case .beforeEarliestDay: return "beforeEarliestDay"
        case .inTheFuture: return "inTheFuture"
        }
    }
}

/// The daylight-saving hint: every sample of a long Apple export carries one offset
/// (`ImportResult.exportTimeOffset`, the one rule), in the summary's and `inspect`'s words.
enum ExportTimeOffsetWords {
    static func hint(_ offset: Int32) -> String {
        "every sample carries the offset \(OffsetText.format(offset)), Apple's offset at export time; if the trainee's zone has daylight saving time, --tz Area/City gives the days the phone showed"
    }
}

/// Where in its container the data was found, from the path the user gave.
enum ContainerWords {
    static func place(of location: InputLocation, given path: String) -> String {
        switch location.entries.count {
        case 0:
            if location.path == "-" { return "standard input" }
            return location.path == path ? "file" : "file in a folder"
        case 1:
            return location.path == "-" ? "zip entry (standard input)" : "zip entry"
        default:
            return "entry of a zip inside a zip (\(location.entries.count) deep)"
        }
    }
}
