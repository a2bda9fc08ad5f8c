import HealthDays
/// What one read of a Health Connect export database found, for the report.
public struct HealthConnectDatabaseStatistics: Equatable, Sendable {
    /// One data origin (app) with the step rows it wrote.
    public struct Origin: Equatable, Sendable {
        /// The package name as stored in `application_info_table`, or `(unknown)`.
        public let packageName: String
        /// The source its samples were handed on under (the phone's counter has one name for two spellings).
        public let source: String
        /// Rows of `steps_record_table` that name this origin, skipped ones included.
        public var rows: Int
    }

    /// `PRAGMA user_version` of the database.
    public var schemaVersion: Int = 0
    /// Rows read from `steps_record_table`.
    public var rows = 0
    /// Samples handed to the sink.
    public var samples = 0
    /// Rows with no `start_zone_offset`, handed on without an offset.
    public var rowsWithoutOffset = 0
    /// Records skipped under `InvalidRecordPolicy.skip`, with the first few.
    public var skipped = SkippedRecords()
    /// Origins that wrote step rows, most rows first (ties by package name).
    public var origins: [Origin] = []
    /// Health Connect's ACTIVITY priority (category 1) as package names, highest first; nil when
    /// the database holds none. Health Connect's own totals follow it, stepimport does not.
    public var activityPriority: [String]? = nil
    /// Rows read from each metric table (`--metric`), in the order read.
    public var metricRows: [TableRows] = []
    /// Samples of metrics other than steps handed to the sink.
    public var metricSamples = 0
    /// The tables of metrics asked for that this database does not hold (an older schema).
    public var absentTables: [String] = []

    /// One table and the rows read from it.
    public struct TableRows: Equatable, Sendable {
        public let table: String
        public let rows: Int
    }

    public init() {}
}
