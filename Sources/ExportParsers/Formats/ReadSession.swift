import Foundation
import ExportInput
import HealthDays

/// One import's state, shared by the readers of the files it reads: the sink, the options, the
/// summary being built, and the progress over several files.
struct ReadSession {
    let sink: RecordSink
    let policy: InvalidRecordPolicy
    /// The readers `--input-format` forces for plain files, in the table's order; nil for `auto`.
    let forced: [any ExportReader.Type]?
    let progress: ((Int64, Int64?) -> Void)?
    /// The caps on temporary copies (a database on standard input or in a zip).
    let limits: TemporaryCopyLimits
    /// The metrics asked for (`--metric`): each reader reads what it has of them and the summary
    /// says what it has not.
    let metrics: MetricSet
    var summary = ImportSummary()
    /// What the inputs hold, when asked (`stepimport inspect`); else nil.
    var inventory: ExportInventory?
    /// Bytes read before the current input, for progress over several files.
    var bytesBefore: Int64 = 0
    /// The total of all inputs when known in advance (the selected zip entries), for progress.
    var plannedTotal: Int64?
    /// The formats whose readers read something, each once, in order.
    var formatsRead: [ExportFormatID] = []
    /// The members of the container being read that a reader took by name (as read, or left out
    /// as another copy of what it read): the readers after it in the table look at the others
    /// only, so that a Takeout's thousands of per-day CSVs are not opened again to be recognised.
    var claimedMembers: Set<String> = []
    /// Whether the summary already says that a file gave steps only.
    private var notedStepsOnly = false

    /// Notes that `format`'s reader read a file.
    mutating func read(by format: ExportFormat) {
        if !formatsRead.contains(format.id) { formatsRead.append(format.id) }
    }

    /// Notes that a reader took these members of the container being read by their names.
    mutating func claim<Names: Sequence<String>>(_ names: Names) {
        claimedMembers.formUnion(names)
    }

    /// How many bytes of a file are read to recognise its format (also the opener's, in `auto`).
    static let headLength = 4096

    init(sink: RecordSink, options: ImportOptions, forced: [any ExportReader.Type]?, limits: TemporaryCopyLimits) {
        self.sink = sink
        policy = options.invalidRecords
        progress = options.progress
        metrics = options.metrics
        self.forced = forced
        self.limits = limits
        if options.takesInventory { inventory = ExportInventory() }
    }

    /// The reader for a file whose first bytes are `head`: the forced one that recognises it (the
    /// last forced one if none does), or the first of `readers` that recognises it; nil for none.
    func reader(for head: [UInt8], name: String?, among readers: [any ExportReader.Type]) -> (any ExportReader.Type)? {
        if let forced {
            return forced.first { $0.recognises(head: head, name: name) } ?? forced.last
        }
        return readers.first { $0.recognises(head: head, name: name) }
    }

    /// Streams an input through `parser` and adds what it read to the summary.
    mutating func pump(_ stream: ByteStream, through parser: SummarizingParser, grammar: String) throws(ExportError) {
        let before = bytesBefore
        let planned = plannedTotal
        let report = progress
        let read = try StreamPump.run(stream, into: parser, expected: .android, grammar: grammar,
                                      progress: report.map { report in { done, total in report(before + done, planned ?? total) } })
        bytesBefore += read
        summary.bytesRead += read
        summary.locations.append(stream.location)
        noteFormat(parser.formatName)
        parser.summarize(into: &summary, at: stream.location)
        if inventory != nil { parser.takeStock(into: &inventory!) }
        if !metrics.isStepsOnly && !notedStepsOnly && parser.givesStepsOnly {
            notedStepsOnly = true
            let others = metrics.metrics.filter { $0 != .steps }.map(\.name).joined(separator: ", ")
            summary.notes.append(.fact("--metric \(others): Google Fit Takeout's raw JSON streams hold steps alone "
                + "(its daily summary and per-day CSVs have the other metrics)"))
        }
    }

    /// Adds a format's name to the summary's, once.
    mutating func noteFormat(_ name: String) {
        if summary.format.isEmpty {
            summary.format = name
        } else if !summary.format.contains(name) {
            summary.format += ", " + name
        }
    }

    /// The error for a file no reader of the family recognises: what its first bytes are, and the
    /// command for them when they are another family's.
    func notRecognised(_ head: [UInt8], at location: InputLocation) -> ExportError {
        if let other = ExportFormats.readers.first(where: { $0.format.family != .android && $0.recognises(head: head, name: nil) }) {
            return .notAnExport(location, expected: .android, found: "found \(other.format.family)",
                                remedy: .useReader(for: other.format.id, inArchive: false))
        }
        let text = ContentHead.afterBOMAndSpace(head)
        guard let first = text.first else {
            if head.count < Self.headLength {
                return .notAnExport(location, expected: .android, found: "the input is empty", remedy: nil)
            }
            return .notAnExport(location, expected: .android,
                                found: "its first \(head.count) bytes are white space only, with no export format's "
                                    + "first character", remedy: .useAcceptedFormat)
        }
        if first == UInt8(ascii: "<") {
            return .notAnExport(location, expected: .android, found: "found XML that is not an export",
                                remedy: .useAcceptedFormat)
        }
        return .notAnExport(location, expected: .android,
                            found: "its first bytes (\"\(ContentHead.start(head))\") are none of the accepted formats",
                            remedy: .useAcceptedFormat)
    }
}

/// A parser that can describe what it read, in the words of the import report.
protocol SummarizingParser: RecordParser {
    /// Adds this parser's counts, notes and skipped records to `summary`.
    func summarize(into summary: inout ImportSummary, at location: InputLocation)
    /// A few words on the format found, e.g. "react-native-health-connect JSON".
    var formatName: String { get }
    /// Adds what this parser recognised to an inventory (`stepimport inspect`).
    func takeStock(into inventory: inout ExportInventory)
    /// Whether what it read gives steps alone, whatever `--metric` asked for (the summary says so).
    var givesStepsOnly: Bool { get }
}

extension SummarizingParser {
    var givesStepsOnly: Bool { true }
}
