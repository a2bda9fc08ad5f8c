import BackendUpload
import ExportParsers
import Foundation
import HealthDays
import Platform

/// What `stepimport inspect` found in an export: the library's typed values, gathered for the renderer.
struct Inspection {
    /// The path as given.
    let path: String
    let result: ImportResult
    let inventory: ExportInventory
    /// Step sources, in order of first appearance.
    let sources: [StepCensus.Source]
    let offsets: [StepCensus.OffsetCount]
    let withoutOffset: Int
    /// The one offset of a long Apple export (the daylight-saving hint), from `ImportResult.exportTimeOffset`.
    let exportTimeOffset: Int32?
    let statistics: AggregationStats
    let days: [DayTotal]
    /// The days `UploadRules.refusal(of:today:)` refuses, in date order.
    let refused: [(day: DayTotal, refusal: DayRefusal)]
    let zone: ZoneRule
}

/// `stepimport inspect`: reads an export through the one importer, as `apple` and `hc` do, with
/// the inventory taken and a `StepCensus` before the day rules, and prints what it holds.
struct InspectCommand {
    let path: String
    let request: InspectRequest
    let diagnostics: Diagnostics

    func run() throws(CommandError) {
        let options = request.read
        let aggregator = DayAggregator(rule: options.zone)
        let census = StepCensus(passingOn: aggregator)
        let meter = diagnostics.showsProgress && options.progress ? ProgressMeter() : nil
        let progress = meter.map { meter in { (done: Int64, total: Int64?) in meter.update(done: done, total: total) } }
        let tuning = Tuning(environment: ProcessInfo.processInfo.environment)
        let importOptions = ImportOptions(invalidRecords: options.skipInvalid ? .skip : .fail,
                                          parseWorkers: tuning.parseWorkers, pieceSize: tuning.pieceSize,
                                          progress: progress, takesInventory: true, strictXML: options.strictXML)
        // Apple or Android by content; a forced --input-format is for Android's plain files.
        let choice: ExportChoice = options.inputFormat.map { .family(.android, forcing: $0) } ?? .auto
        let result: ImportResult
        do throws(ExportError) {
            defer { meter?.clear() }
            result = try ExportImporter.open(path: path, as: choice).read(into: census, options: importOptions)
            try aggregator.finish()
        } catch {
            throw .export(error)
        }
        let days = aggregator.dayTotals()
        let statistics = aggregator.statistics
        let today: LocalDate
        switch options.zone {
        case .zone(let zone): today = UploadRules.today(in: zone)
        case .recordedOffset: today = UploadRules.today(in: TimeZone.current)
        }
        let refused = days.compactMap { day in UploadRules.refusal(of: day, today: today).map { (day, $0) } }
        let inspection = Inspection(path: path, result: result, inventory: result.inventory ?? ExportInventory(),
                                    sources: census.sources, offsets: census.offsets, withoutOffset: census.withoutOffset,
                                    exportTimeOffset: result.exportTimeOffset(statistics, from: days.first?.date, to: days.last?.date),
                                    statistics: statistics, days: days, refused: refused, zone: options.zone)
        let renderer = InspectionRenderer(inspection)
        let text = request.format == .json ? renderer.json() : renderer.table()
        // Everything is computed before the first byte goes to stdout: an error never leaves a partial report.
        try CommandError.writeResults(text)
        diagnostics.warnSkipped(result.summary)
    }
}
