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
            switch part(of: name, inFolderNamed: folderName) {
            case .dailySummary: summaries.append(name)
            case .perDayCSV: perDay.append(name)
            case .stepStream: streams.append(name)
            case nil: break
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

    /// Which of Takeout's copies of the steps a file holds.
    enum Part: Equatable {
        /// `Daily activity metrics.csv` or `Daily Summaries.csv`.
        case dailySummary
        /// A `YYYY-MM-DD.csv` beside it.
        case perDayCSV
        /// A `derived_com.google.step_count.delta*.json` raw stream (which one, its head says).
        case stepStream
    }

    /// The part of Takeout's step data this entry or file name is, or nil; a name without a
    /// folder of its own is taken to be in `folderName` (the folder given itself), when there is one.
    static func part(of name: String, inFolderNamed folderName: String? = nil) -> Part? {
        let parts = name.split(separator: "/").map(String.init)
        guard let file = parts.last else { return nil }
        let folder = parts.count >= 2 ? parts[parts.count - 2].lowercased() : (folderName?.lowercased() ?? "")
        let lowerFile = file.lowercased()
        if (folder == "daily activity metrics" && lowerFile == "daily activity metrics.csv")
            || (folder == "daily aggregations" && lowerFile == "daily summaries.csv") {
            return .dailySummary
        } else if (folder == "daily activity metrics" || folder == "daily aggregations") && isDayFileName(file) {
            return .perDayCSV
        } else if folder == "all data" && lowerFile.hasPrefix("derived_com.google.step_count.delta")
                    && lowerFile.hasSuffix(".json") {
            return .stepStream
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
