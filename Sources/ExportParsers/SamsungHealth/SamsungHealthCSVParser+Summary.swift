import HealthDays

extension SamsungHealthCSVParser {
    /// Counts from one Samsung Health step CSV, for the report.
    public struct Statistics: Equatable, Sendable {
        /// Data rows (blank ones not counted).
        public var rows = 0
        /// Rows whose fields are all empty, passed over.
        public var blankRows = 0
        /// Day totals handed on (`step_daily_trend`).
        public var dayTotals = 0
        /// Of them, Samsung Health's own combined totals (`source_type` -2).
        public var combinedDayTotals = 0
        /// Minute bins handed on (`tracker.pedometer_step_count`).
        public var samples = 0
        /// Bins without a `time_offset`, taken as UTC.
        public var withoutOffset = 0
        /// Distance values handed on (`--metric distance`).
        public var distanceValues = 0
        /// Rows after a header refused under `.skip`: not read.
        public var rowsUnread = 0
        /// UTF-16 code units that were no characters (lone surrogates, an odd last byte), read as U+FFFD.
        public var replacedCharacters = 0
        /// Records skipped under `InvalidRecordPolicy.skip`, with the first few.
        public var skipped = SkippedRecords()

        public init() {}
    }

    /// The devices whose rows were read (not the combined total), up to `SamsungHealthSources.keptDevices`.
    public var devicesRead: Int { sources.deviceCount }
}

extension SamsungHealthCSVParser: SummarizingParser {
    /// "Samsung Health step_daily_trend CSV".
    var formatName: String { "Samsung Health \(layout.type) CSV" }

    /// Its metrics' note is the reader's.
    var givesStepsOnly: Bool { false }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        summary.stepRecords += statistics.dayTotals + statistics.samples
        summary.addSkipped(statistics.skipped, at: location)
        if statistics.withoutOffset > 0 {
            summary.notes.append(.recordsWithoutOffset(count: statistics.withoutOffset))
        }
        if statistics.rowsUnread > 0 {
            summary.notes.append(.fact("\(location): \(Plural.count(statistics.rowsUnread, "row")) left out: "
                + "the header on line 2 cannot be read"))
        }
        if statistics.replacedCharacters > 0 {
            summary.notes.append(.fact("\(location): \(Plural.count(statistics.replacedCharacters, "UTF-16 code unit")) "
                + "that are no characters (lone surrogates, or an odd last byte) read as U+FFFD"))
        }
    }

    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: layout == .dayTrend ? "day totals" : "minute bins",
                      count: statistics.dayTotals + statistics.samples)
    }
}
