import BackendUpload
import ExportParsers
import HealthDays

/// What `stepimport inspect` found in an export: the library's typed values, gathered for the
/// writers, with the few phrases the executable words (where the data was found, the zone rule,
/// the daylight-saving hint) given as text.
public struct Inspection {
    /// The path as given.
    public let path: String
    public let result: ImportResult
    public let inventory: ExportInventory
    /// Where in its container each of `result.summary.locations` was found, in the same order.
    public let places: [String]
    /// Step sources, in order of first appearance.
    public let sources: [SourceCensus.Source]
    public let offsets: [SourceCensus.OffsetCount]
    public let withoutOffset: Int
    /// The one offset of an Apple export carried across a change of clocks (the daylight-saving
    /// hint), from `ImportResult.exportTimeOffset`.
    public let exportTimeOffset: ExportTimeOffset?
    /// The hint's sentence for people, given exactly when there is an `exportTimeOffset`.
    public let exportTimeOffsetHint: String?
    public let statistics: AggregationStats
    public let days: [DayTotal]
    /// The days `UploadRules.refusal(of:today:)` refuses, in date order.
    public let refused: [(day: DayTotal, refusal: DayRefusal)]
    public let zone: ZoneRule
    /// Which rule placed the samples, in the table's words.
    public let zoneWords: String
    /// How the table draws the steps of each source (`SourceChart`): the terminal's width and
    /// whether it shows Unicode.
    public var chartStyle = SourceChart.Style.standard

    public init(path: String, result: ImportResult, inventory: ExportInventory, places: [String],
                sources: [SourceCensus.Source], offsets: [SourceCensus.OffsetCount], withoutOffset: Int,
                exportTimeOffset: ExportTimeOffset?, exportTimeOffsetHint: String?, statistics: AggregationStats, days: [DayTotal],
                refused: [(day: DayTotal, refusal: DayRefusal)], zone: ZoneRule, zoneWords: String) {
        self.path = path
        self.result = result
        self.inventory = inventory
        self.places = places
        self.sources = sources
        self.offsets = offsets
        self.withoutOffset = withoutOffset
        self.exportTimeOffset = exportTimeOffset
        self.exportTimeOffsetHint = exportTimeOffsetHint
        self.statistics = statistics
        self.days = days
        self.refused = refused
        self.zone = zone
        self.zoneWords = zoneWords
    }
}
