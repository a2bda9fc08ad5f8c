import DisplayText
import HealthDays

extension ImportNote {
    /// The line for the report on standard error.
    var words: String {
        switch self {
        case .fact(let text), .detail(let text):
            // Facts may name what the file holds (the apps of a database): escaped like every such text.
            return text.escapingControlCharacters()
        case .wallClockRecords(let location, let count):
            return "\(location): \(Plural.count(count, "step record")) in local wall time with no zone: each counts on the date written "
                + "(--tz reads them as that zone's local time, on the same dates)"
        case .fitbitWallClock(let minutes, let files, let accountZone):
            let read = "Fitbit: \(Plural.count(minutes, "minute")) from \(Plural.count(files, "file")) in the account's local wall time"
            guard let accountZone else {
                return read + " (no profile with its zone was found): each counts on the date written, whatever --tz says"
            }
            let zone = accountZone.escapingControlCharacters()
            return read + " (\(zone), from the profile): each counts on the date written, its date in \(zone); "
                + "--tz \(zone) places the input's other sources in that zone too"
        case .recordsWithoutOffset(let count):
            return "\(count == 1 ? "1 record carries" : "\(count) records carry") no zone offset: taken as UTC unless --tz is given"
        case .activityPriority(let names):
            return ("Health Connect's own priority for activity: " + names.joined(separator: " > ")
                + "; its app shows the top app's steps in each moment, stepimport the highest single app per day").escapingControlCharacters()
        }
    }
}

extension ImportNote {
    /// Whether the note is shown only with `-v` (the user cannot act on it).
    var isDetail: Bool {
        if case .detail = self { return true }
        return false
    }
}

extension ZoneRule {
    /// A short phrase for reports: which rule placed the samples.
    var words: String {
        switch self {
        case .recordedOffset: return "each sample's own UTC offset"
        case .zone(let zone): return "\(zone.identifier) (--tz)"
        }
    }
}
