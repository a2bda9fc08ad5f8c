import HealthDays
import StreamingText
extension RecordCSVParser {
    /// The kinds of step CSV, told apart by their header.
    ///
    /// Names are compared trimmed, without case, and with spaces, `_` and `-` left out, so
    /// `start_time`, `startTime` and `Start time` are one name. The first column that fits a role takes it.
    public enum Layout: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
        /// One record a row: start, end, count, optional origin and zone offset (apps that dump
        /// Health Connect's `StepsRecord`s); with a metric column, records of any metric.
        case stepRecords
        /// One day a row: date, steps, optional source (small exporter apps).
        case dailyTotals
        /// Google Fit Takeout's `Daily activity metrics.csv` (2021+) or `Daily Summaries.csv` (older):
        /// `Date` and `Step count` among 19 to 55 metric columns and no source column.
        case takeoutDailySummary
        /// Google Fit Takeout's per-day `YYYY-MM-DD.csv`: 15-minute buckets with `Start time`,
        /// `End time` and `Step count` among other metric columns; the date is in the file name only.
        case takeoutPerDay

        /// The layout in words, for reports.
        public var description: String {
            switch self {
            case .stepRecords: return "step record CSV"
            case .dailyTotals: return "day total CSV"
            case .takeoutDailySummary: return "Google Fit Takeout daily summary CSV"
            case .takeoutPerDay: return "Google Fit Takeout per-day CSV"
            }
        }

        /// The columns the layout needs, for the message on a header that fits none.
        var columnsAccepted: String {
            switch self {
            case .stepRecords:
                return "start (or start_time, startTime, startDate, from, begin), end (or end_time, endTime, endDate, to), "
                    + "count (or steps, step_count, value), optional origin (or source, data_origin, app, package_name, "
                    + "source_name) and start_zone_offset (or zone_offset, offset)"
            case .dailyTotals:
                return "date (or day, local_date), steps (or total_steps, step_count, count), optional source"
            case .takeoutDailySummary:
                return "Date, Step count and Google Fit's other metric columns"
            case .takeoutPerDay:
                return "Start time, End time, Step count and Google Fit's other metric columns, in a file named YYYY-MM-DD.csv"
            }
        }
    }

    /// Where the columns of the layout stand (0-based; -1 when absent).
    struct Columns {
        var start = -1
        var end = -1
        /// The step count column; absent only in a Google Fit file without steps.
        var count = -1
        var origin = -1
        var offset = -1
        var date = -1
        /// A record CSV's metric column (`metric`, `type`): the row's record is of that metric.
        var metric = -1
        /// The metric cells read (only when metrics beyond steps are asked for).
        var values: [ValueColumn] = []
        /// The columns a row must reach, ascending.
        var required: [Int] = []
        /// The fewest fields a row may have: one past the last required column.
        var needed = 0

        /// Notes the columns a row must reach; absent ones (-1) are left out.
        mutating func require(_ indices: Int...) {
            required = indices.filter { $0 >= 0 }.sorted()
            needed = (required.last ?? -1) + 1
        }
    }

    // Header names, normalized (see `normalized`).
    static let startNames: Set<String> = ["start", "starttime", "startdate", "from", "begin"]
    static let endNames: Set<String> = ["end", "endtime", "enddate", "to"]
    static let countNames: Set<String> = ["count", "steps", "stepcount", "value"]
    static let originNames: Set<String> = ["origin", "source", "dataorigin", "app", "package", "packagename", "sourcename"]
    static let offsetNames: Set<String> = ["startzoneoffset", "zoneoffset", "offset"]
    static let dateNames: Set<String> = ["date", "day", "localdate"]
    static let dayStepNames: Set<String> = ["steps", "totalsteps", "stepcount", "count"]

    /// A header name for comparison: trimmed, lower case, without spaces, `_` and `-`.
    static func normalized(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter {
            $0 != " " && $0 != "_" && $0 != "-" && $0 != "\t" && $0 != "\u{FEFF}"
        }))
    }

    /// Decides the layout from the header record.
    func readHeader(_ record: CSVRecord) throws(ParseFailure) {
        let head = record[0]
        if head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) {
            throw ParseFailure(kind: .wrongKind, line: 1, column: 1, byteOffset: record.offset,
                               message: "UTF-16 text (as Excel saves \"Unicode Text\"), not a UTF-8 CSV: "
                                   + "save it as \"CSV UTF-8\" and read it again")
        }
        names = record.strings.map { $0.trimmingASCIISpaces() }
        let keys = names.map(Self.normalized)
        func first(_ wanted: Set<String>) -> Int {
            keys.firstIndex(where: wanted.contains) ?? -1
        }
        func exactly(_ name: String) -> Int {
            keys.firstIndex(of: name) ?? -1
        }
        var found = Columns()
        found.origin = first(Self.originNames)
        let hasSource = found.origin >= 0

        let startTime = exactly("starttime"), endTime = exactly("endtime"), stepCount = exactly("stepcount")
        let date = exactly("date")
        // Google Fit writes many metrics beside the steps and never a source; a file with just these
        // columns is an app's, read by the generic layouts below. A Fit file without a Step count
        // column (no steps recorded) is still Fit's, with no step data.
        // A column named as stepimport prints it (`distance_m`, `hr_avg`) is never Fit's: its own
        // output read back is a day-value CSV (`heart_points` alone reads as Fit's `Heart Points`).
        let printedNames = keys.contains { Self.dayValueColumns[$0] != nil && !Self.fitMetricNames.contains($0) }
        let fitShaped = !hasSource && !printedNames
            && (stepCount >= 0 || keys.contains(where: Self.fitMetricNames.contains))
        if fitShaped, startTime >= 0, endTime >= 0, keys.count > 3 {
            found.start = startTime
            found.end = endTime
            found.count = stepCount
            found.require(startTime, endTime, stepCount)
            accept(.takeoutPerDay, found, record)
        } else if fitShaped, date >= 0, keys.count > 2, first(Self.startNames) < 0 {
            found.date = date
            found.count = stepCount
            found.require(date, stepCount)
            accept(.takeoutDailySummary, found, record)
        } else if case let (start, end, count) = (first(Self.startNames), first(Self.endNames), first(Self.countNames)),
                  start >= 0, end >= 0, count >= 0 {
            found.start = start
            found.end = end
            found.count = count
            found.offset = first(Self.offsetNames)
            found.metric = first(Self.metricNames)
            found.require(start, end, count, found.metric)
            accept(.stepRecords, found, record)
        } else if case let (day, steps) = (first(Self.dateNames), first(Self.dayStepNames)), day >= 0,
                  steps >= 0 || keys.contains(where: { Self.dayValueColumns[$0] != nil }) {
            found.date = day
            found.count = steps
            found.require(day, steps)
            accept(.dailyTotals, found, record)
        } else {
            throw ParseFailure(kind: .wrongKind, line: record.line, column: 0, byteOffset: record.offset,
                               message: unknownHeaderMessage(keys))
        }
    }

    private func accept(_ layout: Layout, _ found: Columns, _ record: CSVRecord) {
        self.layout = layout
        columns = found
        statistics.layout = layout
        statistics.columns = record.count
        if !metrics.isStepsOnly {
            let taken = Set([found.start, found.end, found.count, found.origin, found.offset, found.date, found.metric])
            let (read, unread) = valueColumns(names.map(Self.normalized), layout: layout, taken: taken)
            columns.values = read
            statistics.unreadColumns = unread
        }
    }

    private func unknownHeaderMessage(_ keys: [String]) -> String {
        let shown = names.prefix(12).map { Self.quoted($0) }.joined(separator: ", ")
            + (names.count > 12 ? " and \(names.count - 12) more" : "")
        // One line each: what was found, then every layout read (on one line, 800 characters).
        var message = "a CSV file whose header fits none of the step CSV layouts"
        let start = keys.contains(where: Self.startNames.contains)
        let end = keys.contains(where: Self.endNames.contains)
        let count = keys.contains(where: Self.countNames.contains)
        if names.count == 1, let separator = [";", "\t", "|"].first(where: { names[0].contains($0) }) {
            let shown = separator == "\t" ? "tabs" : separator == ";" ? "semicolons" : "bars"
            message += ": the columns seem to be separated by \(shown), not commas (save the file as CSV with commas)"
        } else if start || end {
            let missing = [("start", start), ("end", end), ("count", count)].filter { !$0.1 }.map(\.0)
            message += ": for step records, no \(missing.joined(separator: " or ")) column was found"
        } else if keys.contains(where: Self.dateNames.contains) {
            message += ": for day totals, no steps column was found"
        }
        message += "\n  columns found: \(shown)\n  layouts read:"
        for layout in Layout.allCases {
            message += "\n    \(layout): \(layout.columnsAccepted)"
        }
        return message
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIISpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
