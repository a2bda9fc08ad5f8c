import HealthDays
/// Which files of a Google Fit Takeout to read.
///
/// Takeout holds the same steps up to three times: the daily summary CSV, the per-day
/// 15-minute CSVs, and raw JSON streams. They are never added together: the daily summary
/// is Fit's own total and is preferred, then the per-day CSVs, then the `estimated_steps`
/// stream (the only raw stream that matches Fit's totals; which stream a file holds is
/// decided later by its `"Data Source"`, not by its name).
struct TakeoutPlan: Equatable {
    enum Tier: String, Equatable {
        case dailySummary = "Google Fit Takeout daily summary"
        case perDayCSVs = "Google Fit Takeout per-day CSVs"
        case rawStreams = "Google Fit Takeout estimated_steps stream"
    }

    let tier: Tier
    /// The names to read, in order.
    let files: [String]
    /// Takeout step files that were found but not read, for the report.
    let ignored: [String]

    /// The plan for these entry or file names, or nil when none of them is Takeout Fit step data.
    /// `folderName` is the name of the folder the names are in, when it is one (`All Data`, given
    /// itself): a name without a folder of its own is taken to be in it.
    static func choose(_ names: [String], inFolderNamed folderName: String? = nil) -> TakeoutPlan? {
        var summaries: [String] = []
        var perDay: [String] = []
        var streams: [String] = []
        for name in names {
            let parts = name.split(separator: "/").map(String.init)
            guard let file = parts.last else { continue }
            let folder = parts.count >= 2 ? parts[parts.count - 2].lowercased() : (folderName?.lowercased() ?? "")
            let lowerFile = file.lowercased()
            if (folder == "daily activity metrics" && lowerFile == "daily activity metrics.csv")
                || (folder == "daily aggregations" && lowerFile == "daily summaries.csv") {
                summaries.append(name)
            } else if (folder == "daily activity metrics" || folder == "daily aggregations") && isDayFileName(file) {
                perDay.append(name)
            } else if folder == "all data" && lowerFile.hasPrefix("derived_com.google.step_count.delta")
                        && lowerFile.hasSuffix(".json") {
                streams.append(name)
            }
        }
        // The newer summary (2021 and later) if both layouts are there: they cover the same days.
        summaries.sort { lhs, rhs in lhs.lowercased().hasSuffix("daily activity metrics.csv") && !rhs.lowercased().hasSuffix("daily activity metrics.csv") }
        if let summary = summaries.first {
            return TakeoutPlan(tier: .dailySummary, files: [summary], ignored: Array(summaries.dropFirst()) + perDay + streams)
        }
        if !perDay.isEmpty {
            return TakeoutPlan(tier: .perDayCSVs, files: perDay.sorted(), ignored: streams)
        }
        if !streams.isEmpty {
            return TakeoutPlan(tier: .rawStreams, files: streams.sorted(), ignored: [])
        }
        return nil
    }

    /// `YYYY-MM-DD.csv`.
    static func isDayFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 14, name.hasSuffix(".csv") else { return false }
        return bytes.withUnsafeBytes { LocalDate($0[0..<10]) } != nil
    }
}
