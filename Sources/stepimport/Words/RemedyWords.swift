import BackendUpload
import ExportParsers
import HealthDays

/// The remedies the library names, in this command line's words.
extension Remedy {
    /// The sentence for the hint line (or, for `skipInvalid`, the parenthesis after the problem).
    var words: String {
        switch self {
        case .useReader(let found, let inArchive):
            guard let format = ExportFormats.format(found) else { return "" }
            let command = "`stepimport \(format.family.command)`"
            switch (found, inArchive) {
            case (.healthConnectDatabase, true): return "this is a Health Connect export: use \(command)"
            case (.googleFitTakeout, true): return "this is a Google Takeout archive: use \(command)"
            case (.healthConnectDatabase, false): return "a Health Connect database is read by \(command)"
            case (.appDumpJSON, _): return "Health Connect and Google Fit JSON dumps are read by \(command)"
            case (.recordCSV, _): return "CSV step exports are read by \(command)"
            case (.appleHealthXML, _): return "Apple Health exports are read by \(command)"
            case (_, true): return "this is \(format.name): use \(command)"
            case (_, false): return "\(format.name) is read by \(command)"
            }
        case .skipInvalid:
            return "use --skip-invalid to skip such records and report them"
        case .pointAtAppleExport:
            return "point at export.zip, export.xml or the unpacked apple_health_export folder"
        case .useAcceptedFormat:
            // The Android family's formats, in the table's order: every reader words its own.
            let accepted = ExportFormats.all.filter { $0.family == .android }.compactMap(\.accepted)
            return "accepted: " + (accepted.count > 1
                ? accepted.dropLast().joined(separator: ", ") + ", and " + accepted[accepted.count - 1]
                : accepted.joined())
        case .useEstimatedSteps:
            return "only the estimated_steps stream (or the daily summary CSV) matches Fit's totals, and merge_step_deltas "
                + "comes near: read the Takeout's Fit/Daily activity metrics/Daily activity metrics.csv, or export Takeout "
                + "again with Fit's daily activity metrics"
        case .useHealthConnectDatabase:
            return "Health Connect's export is the file health_connect_export.db inside Health Connect.zip"
        case .useNewerVersion:
            return "the export comes from a newer Health Connect; a newer stepimport may read it"
        case .unpackYourself:
            return "if you trust it, unpack it yourself (unzip) and give stepimport the file inside"
        case .useRoomierTemporaryFolder:
            return "set TMPDIR to a folder with more room, or unpack the zip yourself and give stepimport the file inside"
        case .givePriorityList:
            return "give the apps' priority with --priority app1,app2,... (package names, highest first, as in Health Connect > Data and access > Activity > Data sources and priority), or use the default --rule highest-source"
        }
    }
}

extension ExportError {
    /// The whole message: what went wrong and where, then what to do about it.
    var message: String {
        guard let remedy else { return description }
        if case .skipInvalid = remedy { return "\(description) (\(remedy.words))" }
        return "\(description)\n  hint: \(remedy.words)"
    }
}

extension UploadError {
    /// The whole message, with what to do in this command line's words.
    var message: String {
        switch self {
        case .unauthorized: return "\(description); check STEPIMPORT_TOKEN or --token-file"
        case .fewerDaysWritten: return "unexpected answer from the server: \(reportText)"
        default: return description
        }
    }

    /// The `error` of the `--report` file: the message, without the prefix for a shortfall.
    var reportText: String {
        if case .fewerDaysWritten = self { return "\(shortfall) (is --tz the trainee's zone?)" }
        if case .nothingInWindow = self { return description }
        return message
    }
}
