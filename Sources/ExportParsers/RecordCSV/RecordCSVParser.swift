import HealthDays
import StreamingText
/// Streams a step CSV (Health Connect records or day totals written by exporter apps, or Google
/// Fit Takeout's daily summary and per-day files) and hands its steps to a `RecordSink`.
///
/// The header decides the layout (see `Layout`); every later record is one row of it. Push-style
/// like every parser here: feed bytes in chunks of any size, then call `finish()`. A row costs no
/// allocation unless it is invalid.
public final class RecordCSVParser: RecordParser {
    let sink: RecordSink
    /// The metrics asked for: with steps alone, no metric cell is looked at.
    let metrics: MetricSet
    private let policy: InvalidRecordPolicy
    private let tokenizer: CSVTokenizer
    /// The file or zip entry name as given, for messages.
    let fileName: String?
    /// The date a Takeout per-day file's name gives (`2025-02-02.csv`), if it has one.
    let fileDate: LocalDate?

    /// The layout, once the header has been read.
    var layout: Layout?
    /// Where the layout's columns stand, once the header has been read.
    var columns = Columns()
    /// The header's names as written (trimmed), for messages.
    var names: [String] = []
    /// A Takeout per-day file's heart rate and sleep, handed on for its day at the end.
    var fileDay = FileDay()
    /// A record CSV's last metric word and the metric it named (`metric(named:)`).
    var lastMetricWord: (word: [UInt8], metric: Metric?) = ([], nil)

    /// What was read so far.
    public internal(set) var statistics = Statistics()


    /// A parser that sends what it reads to `sink`.
    ///
    /// `fileName` is the file or zip entry the bytes come from (any folder prefix): Takeout's
    /// per-day files carry their date only there. `metrics` are the metrics whose cells are read
    /// (docs/metrics.md, *CSV*); steps alone by default.
    public init(sink: RecordSink, invalidRecords: InvalidRecordPolicy = .fail, fileName: String? = nil,
                limits: CSVTokenizer.Limits = .standard, metrics: MetricSet = .steps) {
        self.sink = sink
        self.metrics = metrics
        self.policy = invalidRecords
        self.fileName = fileName
        self.fileDate = fileName.flatMap(Self.date(inFileName:))
        tokenizer = CSVTokenizer(limits: limits)
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        try tokenizer.feed(bytes) { (record) throws(ParseFailure) in
            try self.handle(record)
        }
    }

    public func finish() throws(ParseFailure) {
        try tokenizer.finish { (record) throws(ParseFailure) in
            try self.handle(record)
        }
        guard let layout else {
            throw ParseFailure(kind: .wrongKind, line: 1, column: 0, byteOffset: 0, message: "an empty file, with no CSV header")
        }
        if layout == .takeoutPerDay && fileDate == nil && statistics.rows == 0 {
            throw missingFileDate(line: 1)
        }
        if layout == .takeoutPerDay && !columns.values.isEmpty {
            deliverFileDay()
        }
    }

    private func handle(_ record: CSVRecord) throws(ParseFailure) {
        guard let layout else {
            try readHeader(record)
            return
        }
        statistics.rows += 1
        switch layout {
        case .stepRecords: try columns.metric >= 0 ? metricRecordRow(record) : stepRecordRow(record)
        case .dailyTotals: try dayTotalRow(record, takeout: false)
        case .takeoutDailySummary: try dayTotalRow(record, takeout: true)
        case .takeoutPerDay: try takeoutBucketRow(record)
        }
    }

    // MARK: - Sinks

    static let unknownSource: [UInt8] = Array("(unknown)".utf8)
    static let googleFit: [UInt8] = Array("Google Fit".utf8)

    /// Hands over a sample from an origin cell (empty for none), with the phone's two names made one.
    @inline(__always)
    func deliver(_ sample: HealthSample, origin: UnsafeRawBufferPointer) {
        statistics.samples += 1
        if sample.offsetSeconds == nil { statistics.withoutOffset += 1 }
        if origin.isEmpty {
            Self.unknownSource.withUnsafeBytes { sink.add(sample, sourceUTF8: $0) }
        } else {
            HealthConnectOrigin.withCanonical(origin) { sink.add(sample, sourceUTF8: $0) }
        }
    }

    @inline(__always)
    func deliverGoogleFit(_ sample: HealthSample) {
        statistics.samples += 1
        if sample.offsetSeconds == nil { statistics.withoutOffset += 1 }
        Self.googleFit.withUnsafeBytes { sink.add(sample, sourceUTF8: $0) }
    }

    @inline(__always)
    func deliverDayTotal(_ date: LocalDate, steps: Double, source: UnsafeRawBufferPointer, takeout: Bool) {
        statistics.dayTotals += 1
        if takeout {
            Self.googleFit.withUnsafeBytes { sink.addDayTotal(date, steps: steps, sourceUTF8: $0) }
        } else if source.isEmpty {
            Self.unknownSource.withUnsafeBytes { sink.addDayTotal(date, steps: steps, sourceUTF8: $0) }
        } else {
            HealthConnectOrigin.withCanonical(source) { sink.addDayTotal(date, steps: steps, sourceUTF8: $0) }
        }
    }

    // MARK: - Invalid rows

    /// Stops on an unusable row, or skips and counts it, as the policy says; `field` is 1-based.
    /// `metric` names the record in the message for a row of another metric (`invalid distance record`).
    func reject(_ record: CSVRecord, field: Int, _ problem: String, metric: Metric = .steps) throws(ParseFailure) {
        let name = metric == .steps ? ParseFailure.stepRecord : "\(metric.name) record"
        if let failure = policy.reject(at: SourcePosition(line: record.line, column: field, byteOffset: record.offset), problem,
                                       record: name, skipped: &statistics.skipped) {
            throw failure
        }
    }

    /// A row that ends before a column the layout needs.
    func rejectShortRow(_ record: CSVRecord) throws(ParseFailure) {
        let missing = columns.required.first { $0 >= record.count } ?? record.count
        try reject(record, field: missing + 1,
                   "the row has \(record.count) field\(record.count == 1 ? "" : "s") but the header has "
                       + "\(names.count), and field \(missing + 1) (\(Self.quoted(names[missing]))) is needed")
    }

    /// `field N ("name")`, for messages.
    func describe(field index: Int) -> String {
        "field \(index + 1) (\(Self.quoted(names[index])))"
    }

    /// Text in quotes for messages, cut short when long.
    static func quoted(_ text: String) -> String {
        (text.count > 40 ? "\"\(text.prefix(40))...\"" : "\"\(text)\"").escapingControlCharacters()
    }

    /// Bytes in quotes for messages, cut short when long.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        quoted(String(decoding: bytes, as: UTF8.self))
    }
}
