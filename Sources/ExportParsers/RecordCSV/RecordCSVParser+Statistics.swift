import HealthDays
extension RecordCSVParser {
    /// Counts from one step CSV, for the report.
    public struct Statistics: Equatable, Sendable {
        /// The layout the header showed; nil before the header is read.
        public var layout: Layout?
        /// Fields in the header.
        public var columns = 0
        /// Rows after the header (blank lines not counted).
        public var rows = 0
        /// Step samples handed on (step record and Takeout per-day layouts).
        public var samples = 0
        /// Day totals handed on (day total and Takeout daily summary layouts).
        public var dayTotals = 0
        /// Rows whose step count cell is empty: no data for that time, not an error (Takeout writes
        /// one row per day or bucket, with or without steps).
        public var emptyCounts = 0
        /// Records skipped under `InvalidRecordPolicy.skip`, with the first few.
        public var skipped = SkippedRecords()
        /// Metric values handed on (samples and day values of metrics other than steps).
        public var metricValues = 0
        /// Record rows of a metric not asked for (`--metric`): left out, and said so.
        public var otherMetricRows = 0
        /// Record rows of a type no metric reads (weight, blood pressure, a misspelt name), and
        /// the first few such types: left out, and said so.
        public var otherTypeRows = 0
        public var otherTypes: [String] = []
        /// Google Fit columns that no metric reads (weight, speed, location, ...), as written,
        /// when metrics beyond steps were asked for.
        public var unreadColumns: [String] = []
        /// Samples handed on without a UTC offset (epoch times or wall clocks with no zone offset column).
        public var withoutOffset = 0

        public init() {}
    }
}
