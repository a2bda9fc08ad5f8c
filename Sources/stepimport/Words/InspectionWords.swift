import BackendUpload
import ExportParsers
import HealthDays
import Outputs

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
