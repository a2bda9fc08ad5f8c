import BackendUpload
import ExportParsers
import HealthDays
import Outputs

/// The daylight-saving hint: every sample of an Apple export carries one offset across a change
/// of clocks in a zone at that offset (`ImportResult.exportTimeOffset`, the one rule), in the
/// summary's, the table's and `inspect`'s words.
enum ExportTimeOffsetWords {
    static func hint(_ found: ExportTimeOffset) -> String {
        let offset = OffsetText.format(found.offset)
        return "every sample carries the offset \(offset), Apple's offset at export time, across \(found.change.date), when "
            + "zones at \(offset) (\(found.change.zone), ...) changed their clocks: days near midnight on one side of it may "
            + "be an hour off; --tz Area/City gives the days the phone showed"
    }

    /// The same, shorter, for the end of the table's last line.
    static func footer(_ found: ExportTimeOffset) -> String {
        "; zones at \(OffsetText.format(found.offset)) changed their clocks on \(found.change.date), so days near midnight "
            + "may be an hour off: --tz Area/City gives the days the phone showed"
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
