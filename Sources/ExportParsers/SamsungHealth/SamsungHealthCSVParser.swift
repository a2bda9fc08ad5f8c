import HealthDays
import StreamingText

/// Streams one of Samsung Health's step CSVs (docs/samsung.md) and hands its steps to a
/// `RecordSink`: `step_daily_trend`'s day totals per source, or `tracker.pedometer_step_count`'s
/// one-minute bins per device.
///
/// Line 1 is the export's metadata line, line 2 the header, whose columns are found by name with
/// or without the type's prefix (`com.samsung.health.step_count.start_time` is `start_time`);
/// every data row has one field more than the header (a trailing comma). A row that breaks this,
/// or a value that cannot be read, is an invalid record naming its line and field, never a wrong
/// number. UTF-16 input is transcoded as it comes. Push-style like every parser here: feed bytes
/// in chunks of any size, then call `finish()`; a row costs no allocation unless it is invalid or
/// comes from one of more devices than `SamsungHealthSources` keeps names for.
public final class SamsungHealthCSVParser: RecordParser {
    /// The two step layouts.
    public enum Layout: Sendable, Equatable {
        /// `step_daily_trend`: day_time, count, source_type, deviceuuid, distance, ...
        case dayTrend
        /// `tracker.pedometer_step_count`: start_time, end_time, time_offset, count, deviceuuid, distance, ...
        case minuteBins

        /// The type its metadata line names.
        public var type: String {
            switch self {
            case .dayTrend: "step_daily_trend"
            case .minuteBins: "tracker.pedometer_step_count"
            }
        }

        /// The layout of a file's kind; nil for a kind whose steps are never read.
        public init?(_ kind: SamsungHealthFile.Kind) {
            switch kind {
            case .dayTrend: self = .dayTrend
            case .minuteBins: self = .minuteBins
            case .sameStepsAgain, .other: return nil
            }
        }
    }

    /// Where the parser is in the file.
    enum Stage {
        case metadata
        case header
        case rows
        /// The header was refused under `.skip`: the rows cannot be read, and are counted.
        case headerRefused
    }

    public let layout: Layout
    let sink: RecordSink
    let metrics: MetricSet
    let policy: InvalidRecordPolicy
    private let tokenizer: CSVTokenizer
    /// For UTF-16 input; nil for UTF-8.
    private let transcoder: UTF16Transcoder?
    var stage = Stage.metadata
    /// Where the layout's columns stand, once the header has been read.
    var columns = Columns()
    /// The header's names as written, for messages.
    var names: [String] = []
    /// The fields every data row has: the header's and the trailing empty one.
    var rowFields = 0
    /// The sources' names, by device.
    var sources = SamsungHealthSources()
    /// The combined (-2) day totals read, by day, with their line: a second one with another
    /// count is refused (which of them is Samsung Health's total is unclear). At most one a day
    /// from 1970 to 2200, so bounded.
    var combinedDays: [Int32: (steps: Double, line: Int)] = [:]

    /// What was read so far.
    public internal(set) var statistics = Statistics()

    /// A parser of `layout`, in `encoding`, that sends what it reads to `sink`; `metrics` are the
    /// metrics read (steps, and distance when asked for).
    public init(sink: RecordSink, layout: Layout, encoding: SamsungHealthFile.Encoding = .utf8,
                invalidRecords: InvalidRecordPolicy = .fail, metrics: MetricSet = .steps,
                limits: CSVTokenizer.Limits = .standard) {
        self.sink = sink
        self.layout = layout
        self.metrics = metrics
        policy = invalidRecords
        tokenizer = CSVTokenizer(limits: limits)
        if case .utf16(let order) = encoding {
            transcoder = UTF16Transcoder(byteOrder: order)
        } else {
            transcoder = nil
        }
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        guard let transcoder else { return try tokenize(bytes) }
        try transcoder.feed(bytes) { (text) throws(ParseFailure) in try self.tokenize(text) }
    }

    public func finish() throws(ParseFailure) {
        if let transcoder {
            try transcoder.finish { (text) throws(ParseFailure) in try self.tokenize(text) }
            statistics.replacedCharacters = transcoder.replacements
        }
        do {
            try tokenizer.finish { (record) throws(ParseFailure) in try self.handle(record) }
        } catch {
            throw placed(error)
        }
        switch stage {
        case .metadata:
            throw ParseFailure(kind: .wrongKind, line: 1, column: 0, byteOffset: 0,
                               message: "an empty file, without Samsung Health's metadata line")
        case .header:
            throw ParseFailure(kind: .wrongKind, line: 2, column: 0,
                               message: "the file ends after its metadata line, without a header")
        case .rows, .headerRefused:
            break
        }
    }

    private func tokenize(_ text: UnsafeRawBufferPointer) throws(ParseFailure) {
        do {
            try tokenizer.feed(text) { (record) throws(ParseFailure) in try self.handle(record) }
        } catch {
            throw placed(error)
        }
    }

    /// A failure with the byte offset left out when the input was transcoded: the tokenizer's
    /// offsets count UTF-8 bytes, not the file's.
    private func placed(_ failure: ParseFailure) -> ParseFailure {
        guard transcoder != nil else { return failure }
        var failure = failure
        failure.position.byteOffset = nil
        return failure
    }

    private func handle(_ record: CSVRecord) throws(ParseFailure) {
        switch stage {
        case .metadata:
            try readMetadata(record)
            stage = .header
        case .header:
            try readHeader(record)
        case .rows:
            try readRow(record)
        case .headerRefused:
            if !Self.isBlank(record) { statistics.rowsUnread += 1 }
        }
    }

    /// Line 1: the metadata line must name this layout's type.
    private func readMetadata(_ record: CSVRecord) throws(ParseFailure) {
        let first = record[0]
        let named = SamsungHealthFile.typePrefixes.contains { prefix in
            first.count == prefix.count + layout.type.utf8.count && first.starts(with: prefix)
                && first[prefix.count...].elementsEqual(layout.type.utf8)
        }
        guard named, record.count >= 3 else {
            throw ParseFailure(kind: .wrongKind, line: record.line, column: 1, byteOffset: offset(of: record),
                               message: "line 1 is not the metadata line of Samsung Health's \(layout.type) "
                                   + "(com.samsung.shealth.\(layout.type),<version>,<n>): "
                                   + RecordCSVParser.quoted(first))
        }
    }

    // MARK: - Rows

    /// A data row: blank ones are passed over; the others must have the header's fields and the
    /// trailing empty one.
    private func readRow(_ record: CSVRecord) throws(ParseFailure) {
        if Self.isBlank(record) {
            statistics.blankRows += 1
            return
        }
        statistics.rows += 1
        guard record.count == rowFields, record[rowFields - 1].isEmpty else {
            return try rejectLength(record)
        }
        switch layout {
        case .dayTrend: try dayTrendRow(record)
        case .minuteBins: try minuteBinRow(record)
        }
    }

    /// A row of another length than the header's and the trailing field: its fields would stand
    /// under the wrong names.
    private func rejectLength(_ record: CSVRecord) throws(ParseFailure) {
        let header = rowFields - 1
        if record.count == rowFields {
            try reject(record, field: rowFields, "field \(rowFields), after the last column, holds "
                + "\(RecordCSVParser.quoted(record[rowFields - 1])) where every row has an empty field (a trailing comma): "
                + "a value holds a comma that is not quoted, and the fields stand under the wrong names")
        } else {
            try reject(record, field: min(record.count, rowFields) + 1,
                       "the row has \(Plural.count(record.count, "field")) where every row has \(rowFields): "
                           + "the header's \(header) and an empty one after them (a trailing comma)")
        }
    }

    /// Whether every field is empty or white space (spreadsheets write empty rows as commas).
    static func isBlank(_ record: CSVRecord) -> Bool {
        for index in 0..<record.count where !RecordCSVParser.trimmed(record[index]).isEmpty {
            return false
        }
        return true
    }

    /// The record's byte offset, or nil when the input was transcoded.
    func offset(of record: CSVRecord) -> Int64? {
        transcoder == nil ? record.offset : nil
    }

    /// Stops on an unusable row, or skips and counts it, as the policy says; `field` is 1-based.
    func reject(_ record: CSVRecord, field: Int, _ problem: @autoclosure () -> String,
                metric: Metric = .steps) throws(ParseFailure) {
        let name = metric == .steps ? ParseFailure.stepRecord : "\(metric.name) record"
        if let failure = policy.reject(at: SourcePosition(line: record.line, column: field, byteOffset: offset(of: record)),
                                       problem(), record: name, skipped: &statistics.skipped) {
            throw failure
        }
    }

    /// `field N ("name")`, for messages: the name whole when a prefix makes it long
    /// (`com.samsung.health.step_count.time_offset`), cut short only beyond 80 characters.
    func describe(field index: Int) -> String {
        let name = names[index]
        let shown = name.count > 80 ? "\"\(name.prefix(80))...\"" : "\"\(name)\""
        return "field \(index + 1) (\(shown.escapingControlCharacters()))"
    }

    /// `field N ("name"): "cell"`, for messages.
    func describe(_ record: CSVRecord, field index: Int) -> String {
        "\(describe(field: index)): \(RecordCSVParser.quoted(RecordCSVParser.trimmed(record[index])))"
    }
}
