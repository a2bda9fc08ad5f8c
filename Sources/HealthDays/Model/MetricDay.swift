/// The values of one local day for the metrics asked for (docs/metrics.md), each rounded to its
/// column's decimal places.
public struct MetricDay: Equatable, Sendable {
    public let date: LocalDate
    /// By `MetricColumn.rawValue`; nil where the day has no value.
    public private(set) var values: [Double?]

    public init(date: LocalDate) {
        self.date = date
        values = Array(repeating: nil, count: MetricColumn.allCases.count)
    }

    public subscript(column: MetricColumn) -> Double? {
        get { values[column.rawValue] }
        set { values[column.rawValue] = newValue }
    }
}

/// One source's value of one column on one day, and what the day made of it (`--by-source`).
public struct MetricSourceValue: Equatable, Sendable {
    public enum Standing: Sendable, Equatable {
        /// The source the day took.
        case winner
        /// Another source, not taken.
        case other
        /// Left out: its day was outside the metric's plausible range.
        case implausible
    }

    public let date: LocalDate
    public let column: MetricColumn
    public let source: String
    /// Rounded to the column's decimal places.
    public let value: Double
    public let standing: Standing

    public init(date: LocalDate, column: MetricColumn, source: String, value: Double, standing: Standing) {
        self.date = date
        self.column = column
        self.source = source
        self.value = value
        self.standing = standing
    }
}

/// What the aggregation of one metric saw, for the summary on stderr.
public struct MetricStatistics: Equatable, Sendable {
    /// Records handed in (duplicates and left-out ones included).
    public var records = 0
    /// Records dropped because an identical one came before.
    public var duplicates = 0
    /// Samples outside the plausible range (sampled metrics), or source-days whose total was
    /// (the others): left out, never silently.
    public var leftOut = 0
    /// Records beyond the bounds the aggregation can take safely (`SampleLimits`), or past the
    /// number of distinct sleep intervals it keeps: left out and counted. Readers check first.
    public var refused = 0
    /// The distinct UTC offsets the records carried, sorted.
    public var offsets: [Int32] = []

    public init() {}
}
