import ExportInput
import HealthDays

/// Which formats of the table an input is read as.
public enum ExportChoice: Sendable, Equatable {
    /// The formats of one family (its command), by content; `forcing`, an `--input-format` word
    /// of that family, has a plain file read as the formats it names.
    case family(ExportFamily, forcing: String? = nil)
    /// The first family whose formats are found in the input, in the table's order.
    case auto
}

extension ExportChoice {
    /// The word a `batch` manifest's `kind` column writes for the choice: a family's command, or `auto`.
    public var word: String {
        switch self {
        case .family(let family, _): return family.command
        case .auto: return "auto"
        }
    }

    /// The choice a manifest's `kind` word names, in any case; nil for none.
    public init?(word: String) {
        let lower = word.lowercased()
        if lower == "auto" {
            self = .auto
        } else if let family = ExportFamily(command: lower) {
            self = .family(family)
        } else {
            return nil
        }
    }

    /// Every word a manifest's `kind` column takes, in the table's order.
    public static var words: [String] { ExportFamily.allCases.map(\.command) + ["auto"] }
}

/// How to read: what to do with unusable records, how many parse threads, progress.
public struct ImportOptions {
    public var invalidRecords: InvalidRecordPolicy
    /// Apple Health parse threads beside the reading thread; nil for `AppleHealthImport.defaultParseWorkers`.
    public var parseWorkers: Int?
    /// Bytes of Apple XML per piece when parsing on threads; nil for the default (tests cut smaller).
    public var pieceSize: Int?
    /// Called after each chunk with the bytes read so far and the total when known.
    public var progress: ((Int64, Int64?) -> Void)?
    /// Also take stock of what the export holds besides steps (`ImportResult.inventory`, for
    /// `stepimport inspect`); off by default, so that the totals pay nothing for it.
    public var takesInventory: Bool
    /// The metrics whose records are read (`--metric`); steps by default.
    public var metrics: MetricSet
    /// Hand libxml2 every record of an Apple export (`--strict-xml`): the whole document is checked
    /// as XML. Off by default: the records of types nobody asked for are left out before the
    /// parse and only their structure is checked (`AppleRecordSelector`, docs/architecture.md).
    public var strictXML: Bool

    public init(invalidRecords: InvalidRecordPolicy = .fail, parseWorkers: Int? = nil, pieceSize: Int? = nil,
                progress: ((Int64, Int64?) -> Void)? = nil, takesInventory: Bool = false, metrics: MetricSet = .steps,
                strictXML: Bool = false) {
        self.strictXML = strictXML
        self.takesInventory = takesInventory
        self.metrics = metrics
        self.invalidRecords = invalidRecords
        self.parseWorkers = parseWorkers
        self.pieceSize = pieceSize
        self.progress = progress
    }
}

/// What one import read.
public struct ImportResult {
    /// The family of the formats that read it.
    public let family: ExportFamily
    /// What was read and how, the same for every format.
    public let summary: ImportSummary
    /// What the export holds besides steps, when `ImportOptions.takesInventory` asked; else nil.
    public var inventory: ExportInventory? = nil
    /// The formats of the table that read it, each once, in the order they read.
    public var formats: [ExportFormat] = []
}

/// The one importer: an input and a choice of reader in; samples into a sink and a summary out.
/// The single-file commands and batch both read through it, in two steps: `open` finds what to
/// read and which reader reads it, `read` reads it.
public struct ExportImporter {
    /// What was found to read: Apple's export XML (found by `AppleExportLocator`), or an input
    /// whose files the Android family's readers recognise as they read it (`AndroidImport`).
    private enum Located {
        case apple(ByteStream)
        case android(OpenedInput, forced: [any ExportReader.Type]?)
    }

    /// The family whose formats will read the input.
    public let family: ExportFamily
    private let located: Located
    /// The caps on temporary copies.
    private let limits: TemporaryCopyLimits

    private init(_ located: Located, limits: TemporaryCopyLimits) {
        switch located {
        case .apple: family = .appleHealth
        case .android: family = .android
        }
        self.located = located
        self.limits = limits
    }

    /// Opens `path` (a file, `-`, a folder, a zip) and finds what the chosen reader reads in it;
    /// every temporary copy (a zip on standard input or inside a zip, a database) keeps to `limits`.
    public static func open(path: String, as choice: ExportChoice,
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) -> ExportImporter {
        switch choice {
        case .family(.appleHealth, _):
            return ExportImporter(.apple(try AppleExportLocator.open(path: path, limits: limits)), limits: limits)
        case .family(.android, let word):
            let input = try InputOpener.open(path: path, headLength: ReadSession.headLength, limits: limits)
            return ExportImporter(.android(input, forced: word.map(forcedReaders)), limits: limits)
        case .auto:
            // Opened once: the Apple locator only looks at heads, so the Android readers read the same input.
            let input = try InputOpener.open(path: path, headLength: ReadSession.headLength, limits: limits)
            do {
                return ExportImporter(.apple(try AppleExportLocator.open(input)), limits: limits)
            } catch {
                guard case .notAnExport = error else { throw error }
                return ExportImporter(.android(input, forced: nil), limits: limits)
            }
        }
    }

    /// The Android readers an `--input-format` word forces, in the table's order.
    private static func forcedReaders(_ word: String) -> [any ExportReader.Type] {
        ExportFormats.readers(of: .android).filter { $0.format.forcedBy == word }
    }

    /// Reads the input into `sink`.
    public func read(into sink: RecordSink, options: ImportOptions = ImportOptions()) throws(ExportError) -> ImportResult {
        switch located {
        case .apple(let stream):
            let apple = try AppleHealthImport.read(stream, into: sink, options: options)
            return ImportResult(family: family, summary: apple.importSummary,
                                inventory: options.takesInventory ? apple.inventory : nil, formats: [AppleHealthReader.format])
        case .android(let input, let forced):
            var session = ReadSession(sink: sink, options: options, forced: forced, limits: limits)
            try AndroidImport.read(input, in: &session)
            return ImportResult(family: family, summary: session.summary, inventory: session.inventory,
                                formats: session.formatsRead.compactMap(ExportFormats.format))
        }
    }
}

extension ImportResult {
    /// The one UTC offset every sample of an Apple export carries, with the first change of
    /// clocks inside the days shown (`first` to `last`) in a zone at that offset: Apple writes
    /// each timestamp with the phone's offset at export time, so across such a date the days near
    /// midnight may be an hour off (the remedy is the trainee's zone, `--tz`). nil when the samples
    /// carry several offsets, or all lie on one side of every such change.
    public func exportTimeOffset(_ statistics: AggregationStats, from first: LocalDate?, to last: LocalDate?) -> ExportTimeOffset? {
        guard family == .appleHealth, statistics.offsets.count == 1, let first, let last,
              let change = ClockChange.first(atOffset: statistics.offsets[0], from: first, to: last)
        else { return nil }
        return ExportTimeOffset(offset: statistics.offsets[0], change: change)
    }
}

/// The one offset of an Apple export and a change of clocks it was carried across.
public struct ExportTimeOffset: Equatable, Sendable {
    /// Seconds east of UTC.
    public let offset: Int32
    public let change: ClockChange
}
