import ExportInput
import HealthDays

/// Which reader an input goes to.
public enum ExportChoice: Sendable, Equatable {
    /// Apple Health (`stepimport apple`).
    case apple
    /// Health Connect, app dumps and Google Fit Takeout (`stepimport hc`), optionally forcing how a
    /// plain file is read.
    case healthConnect(HealthConnectInputFormat?)
    /// Apple Health if the Apple reader finds an export in the input, else Health Connect.
    case auto
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
    /// The metrics whose records are read (`--metric`); steps by default. Only the Apple reader
    /// reads others so far; the Health Connect readers hand on steps alone.
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
    /// Which reader read it.
    public let kind: ExportKind
    /// What was read and how, the same for every format.
    public let summary: ImportSummary
    /// What the export holds besides steps, when `ImportOptions.takesInventory` asked; else nil.
    public var inventory: ExportInventory? = nil
}

/// The one importer: an input and a choice of reader in; samples into a sink and a summary out.
/// The single-file commands and batch both read through it, in two steps: `open` finds what to
/// read and which reader reads it, `read` reads it.
public struct ExportImporter {
    private enum Located {
        case apple(ByteStream)
        case healthConnect(OpenedInput, HealthConnectInputFormat?)
    }

    /// Which reader will read the input.
    public let kind: ExportKind
    private let located: Located
    /// The caps on temporary copies.
    private let limits: TemporaryCopyLimits

    private init(kind: ExportKind, located: Located, limits: TemporaryCopyLimits) {
        self.kind = kind
        self.located = located
        self.limits = limits
    }

    /// Opens `path` (a file, `-`, a folder, a zip) and finds what the chosen reader reads in it;
    /// every temporary copy (a zip on standard input or inside a zip, a database) keeps to `limits`.
    public static func open(path: String, as choice: ExportChoice,
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) -> ExportImporter {
        switch choice {
        case .apple:
            return ExportImporter(kind: .appleHealth, located: .apple(try AppleExportLocator.open(path: path, limits: limits)),
                                  limits: limits)
        case .healthConnect(let forced):
            let input = try InputOpener.open(path: path, headLength: HealthConnectImport.headLength, limits: limits)
            return ExportImporter(kind: .healthConnect, located: .healthConnect(input, forced), limits: limits)
        case .auto:
            // Opened once: the Apple locator only looks at heads, so Health Connect reads the same input.
            let input = try InputOpener.open(path: path, headLength: HealthConnectImport.headLength, limits: limits)
            do {
                return ExportImporter(kind: .appleHealth, located: .apple(try AppleExportLocator.open(input)), limits: limits)
            } catch {
                guard case .notAnExport = error else { throw error }
                return ExportImporter(kind: .healthConnect, located: .healthConnect(input, nil), limits: limits)
            }
        }
    }

    /// Reads the input into `sink`.
    public func read(into sink: StepSink, options: ImportOptions = ImportOptions()) throws(ExportError) -> ImportResult {
        switch located {
        case .apple(let stream):
            let apple = try AppleHealthImport.read(stream, into: sink, options: options)
            return ImportResult(kind: kind, summary: apple.importSummary,
                                inventory: options.takesInventory ? apple.inventory : nil)
        case .healthConnect(let input, let forced):
            let (summary, inventory) = try HealthConnectImport.readTakingStock(input, into: sink, format: forced,
                                                                              options: options, limits: limits)
            return ImportResult(kind: kind, summary: summary, inventory: inventory)
        }
    }
}

extension ImportResult {
    /// The one UTC offset every sample of an Apple export carries, when its days span more than
    /// 60: Apple writes each timestamp with the phone's offset at export time, so in a zone with
    /// daylight saving the dates near midnight may be an hour off (the remedy is the trainee's zone).
    /// `first` and `last` are the first and last days shown.
    public func exportTimeOffset(_ statistics: AggregationStats, from first: LocalDate?, to last: LocalDate?) -> Int32? {
        guard kind == .appleHealth, statistics.offsets.count == 1, let first, let last,
              Int(last.daysSinceEpoch) - Int(first.daysSinceEpoch) > 60
        else { return nil }
        return statistics.offsets[0]
    }
}
