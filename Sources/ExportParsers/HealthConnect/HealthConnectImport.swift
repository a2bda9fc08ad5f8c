import Foundation
import HealthDays
import ExportInput

/// Reads whatever an Android user left the phone with: Health Connect's own export
/// (`Health Connect.zip` or the bare `.db`), JSON and CSV dumps from apps, and Google Fit
/// Takeout (its CSVs, its raw step streams, or the whole Takeout zip or folder).
///
/// The format is recognised from the first bytes and, in zips and folders, from the entry
/// names; `--input-format` forces one for a plain file.
public enum HealthConnectImport {
    /// How many bytes of a file are read to recognise its format (also the opener's, in `auto`).
    static let headLength = 4096

    /// Reads the export at `path` (a file, a zip, a Takeout folder, or `-`) into `sink`;
    /// temporary copies keep to `limits`.
    public static func read(path: String, into sink: StepSink, format forced: HealthConnectInputFormat? = nil,
                            options: ImportOptions = ImportOptions(),
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) -> ImportSummary {
        try read(InputOpener.open(path: path, headLength: headLength, limits: limits), into: sink, format: forced,
                 options: options, limits: limits)
    }

    /// Reads an opened input into `sink`.
    public static func read(_ input: OpenedInput, into sink: StepSink, format forced: HealthConnectInputFormat? = nil,
                            options: ImportOptions = ImportOptions(),
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) -> ImportSummary {
        try readTakingStock(input, into: sink, format: forced, options: options, limits: limits).summary
    }

    /// Reads an opened input into `sink`; with `options.takesInventory`, also takes stock of it.
    static func readTakingStock(_ input: OpenedInput, into sink: StepSink, format forced: HealthConnectInputFormat?,
                                options: ImportOptions,
                                limits: TemporaryCopyLimits) throws(ExportError) -> (summary: ImportSummary, inventory: ExportInventory?) {
        var reader = Reader(sink: sink, policy: options.invalidRecords, forced: forced, progress: options.progress,
                            limits: limits)
        if options.takesInventory { reader.inventory = ExportInventory() }
        reader.metrics = options.metrics
        switch input {
        case .stream(let file, let head, let seekablePath):
            let path = file.location.path
            try reader.readStream(file, head: head, seekablePath: seekablePath,
                                  name: path == "-" ? nil : (path as NSString).lastPathComponent)
        case .container(let container):
            try reader.readMembers(container, depth: 0)
        }
        return (reader.summary, reader.inventory)
    }

    /// What the first bytes of a file say it is.
    enum Sniffed: Equatable {
        case zip, sqlite, json, csv, appleXML, otherXML, empty, unknown
        /// White space as far as the head reaches, and more after it.
        case blank
    }

    static func sniff(_ head: [UInt8]) -> Sniffed {
        if head.isEmpty { return .empty }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if head.starts(with: Array("SQLite format 3\0".utf8)) { return .sqlite }
        let text = ContentHead.afterBOMAndSpace(head)
        guard let first = text.first else { return head.count < headLength ? .empty : .blank }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return .json
        case UInt8(ascii: "<"):
            return AppleExportLocator.looksLikeHealthXML(Array(head)) ? .appleXML : .otherXML
        default:
            // CSV: printable text whose first line holds a comma (or a semicolon or tab, which the
            // CSV reader then names as the wrong separator).
            let firstLine = text.prefix(while: { $0 != 0x0A && $0 != 0x0D })
            let printable = !firstLine.contains(where: { $0 < 0x20 && $0 != 0x09 })
            let separated = firstLine.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == 0x09 }
            return printable && separated ? .csv : .unknown
        }
    }

    static func wrongKind(_ sniffed: Sniffed, _ head: [UInt8], at location: InputLocation) -> ExportError {
        switch sniffed {
        case .appleXML:
            return .notAnExport(location, expected: .healthConnect, found: "found an Apple Health export",
                                remedy: .useReader(for: .appleHealthExport))
        case .empty:
            return .notAnExport(location, expected: .healthConnect, found: "the input is empty", remedy: nil)
        case .blank:
            return .notAnExport(location, expected: .healthConnect,
                                found: "its first \(head.count) bytes are white space only, with no export format's "
                                    + "first character", remedy: .useAcceptedFormat)
        case .otherXML:
            return .notAnExport(location, expected: .healthConnect, found: "found XML that is not an export",
                                remedy: .useAcceptedFormat)
        default:
            return .notAnExport(location, expected: .healthConnect,
                                found: "its first bytes (\"\(ContentHead.start(head))\") are none of the accepted formats",
                                remedy: .useAcceptedFormat)
        }
    }
}

extension HealthConnectImport {
    /// One import's state: the sink, the options and the summary being built.
    struct Reader {
        let sink: StepSink
        let policy: InvalidRecordPolicy
        let forced: HealthConnectInputFormat?
        let progress: ((Int64, Int64?) -> Void)?
        /// The caps on temporary copies (a database on standard input).
        let limits: TemporaryCopyLimits
        /// The metrics asked for (`--metric`): the database reads their tables, the JSON reader
        /// their records, CSV files their columns; Takeout's raw step streams give steps alone,
        /// and the summary says so.
        var metrics: MetricSet = .steps
        /// Fitbit rows read by kind (minutes, heart-rate readings, sleep logs) since the last note
        /// on them (`noteFitbitMinutes`).
        var fitbitRows: [FitbitMinuteParser.Kind: Int] = [:]
        /// Whether the summary already says that a dump gave steps only.
        private var notedStepsOnlyDump = false
        var summary = ImportSummary()
        /// What the inputs hold, when asked (`stepimport inspect`); else nil.
        var inventory: ExportInventory?
        /// Bytes read before the current input, for progress over several files.
        var bytesBefore: Int64 = 0
        /// The total of all inputs when known in advance (the selected zip entries), for progress.
        var plannedTotal: Int64?

        init(sink: StepSink, policy: InvalidRecordPolicy, forced: HealthConnectInputFormat?,
             progress: ((Int64, Int64?) -> Void)?, limits: TemporaryCopyLimits) {
            self.limits = limits
            self.sink = sink
            self.policy = policy
            self.forced = forced
            self.progress = progress
        }

        /// Reads one file or stream that is not a zip, whose first bytes are `head` (put back).
        mutating func readStream(_ file: FileStream, head: [UInt8], seekablePath: String?, name: String?) throws(ExportError) {
            let format = try format(forced ?? nil, sniff(head), head, at: file.location)
            switch format {
            case .sqlite:
                if let seekablePath {
                    try readDatabase(try HealthConnectDatabase(path: seekablePath, location: file.location, limits: limits))
                } else {
                    // SQLite needs a file: a private copy, removed as soon as SQLite holds it open.
                    try readDatabase(try HealthConnectDatabase(copying: file, location: file.location, limits: limits))
                }
            case .json, .csv:
                try readText(file, format: format, name: name, head: head)
            }
        }

        /// The format to read a plain file as: the forced one, or what the first bytes say.
        private func format(_ forced: HealthConnectInputFormat?, _ sniffed: Sniffed, _ head: [UInt8],
                            at location: InputLocation) throws(ExportError) -> HealthConnectInputFormat {
            if let forced { return forced }
            switch sniffed {
            case .sqlite: return .sqlite
            case .json: return .json
            case .csv: return .csv
            default: throw HealthConnectImport.wrongKind(sniffed, head, at: location)
            }
        }

        /// Streams a JSON or CSV input through its parser; `head`, its first bytes when known,
        /// tells a Fitbit per-minute file from the JSON dumps of apps.
        mutating func readText(_ stream: ByteStream, format: HealthConnectInputFormat, name: String?,
                               head: [UInt8]? = nil) throws(ExportError) {
            let parser: SummarizingParser
            switch format {
            case .json:
                if let head, FitbitMinuteParser.looksLikeMinuteArray(head)
                    || (name.flatMap(FitbitMinuteParser.kind(ofFileNamed:)) == .sleep && FitbitSleepParser.looksLikeSleepLogs(head)) {
                    try readFitbitFile(stream, name: name, head: head)
                    noteFitbitMinutes(files: [name ?? ""], accountZone: nil)
                    return
                }
                parser = HealthConnectJSONParser(sink: sink, invalidRecords: policy, metrics: metrics)
            case .csv:
                parser = StepCSVParser(sink: sink, invalidRecords: policy, fileName: name, metrics: metrics)
            case .sqlite:
                preconditionFailure("databases are not streamed")
            }
            try pump(stream, through: parser, grammar: format == .json ? "JSON" : "CSV")
        }

        /// Streams an input through `parser` and adds what it read to the summary.
        mutating func pump(_ stream: ByteStream, through parser: SummarizingParser, grammar: String) throws(ExportError) {
            let before = bytesBefore
            let planned = plannedTotal
            let report = progress
            let read = try StreamPump.run(stream, into: parser, expected: .healthConnect, grammar: grammar,
                                          progress: report.map { report in { done, total in report(before + done, planned ?? total) } })
            bytesBefore += read
            summary.bytesRead += read
            summary.locations.append(stream.location)
            noteFormat(parser.formatName)
            parser.summarize(into: &summary, at: stream.location)
            if inventory != nil { parser.takeStock(into: &inventory!) }
            if !metrics.isStepsOnly && !notedStepsOnlyDump && parser.givesStepsOnly {
                notedStepsOnlyDump = true
                let others = metrics.metrics.filter { $0 != .steps }.map(\.name).joined(separator: ", ")
                summary.notes.append(.fact("--metric \(others): Google Fit Takeout's raw JSON streams hold steps alone "
                    + "(its daily summary and per-day CSVs have the other metrics)"))
            }
        }

        mutating func readDatabase(_ database: HealthConnectDatabase) throws(ExportError) {
            let statistics = try database.read(into: sink, invalidRecords: policy, metrics: metrics)
            if inventory != nil { try database.takeStock(into: &inventory!) }
            summary.locations.append(database.location)
            summary.bytesRead += database.byteSize
            database.summarize(statistics, into: &summary, at: database.location)
            noteFormat(database.formatName(statistics))
        }

        mutating func noteFormat(_ name: String) {
            if summary.format.isEmpty {
                summary.format = name
            } else if !summary.format.contains(name) {
                summary.format += ", " + name
            }
        }

    }
}
