import BackendUpload
import ExportParsers
import Foundation
import HealthDays
import Outputs
import Platform

/// `stepimport inspect`: reads an export through the one importer, as `apple` and `hc` do, with
/// the inventory taken and a `SourceCensus` before the day rules, and prints what it holds.
struct InspectCommand {
    let path: String
    let request: InspectRequest
    let diagnostics: Diagnostics

    func run() throws(CommandError) {
        let options = request.read
        let started = Date()
        if case .zone(let zone) = options.zone, let caution = ZoneCaution(zone) {
            diagnostics.warn("--tz \(caution)")
        }
        // An output that cannot be made (-o in a folder that does not exist) fails before any reading.
        let destination = try ResultsDestination(path: options.output, format: request.format.output,
                                                 formatGiven: request.formatGiven, color: options.color, diagnostics: diagnostics)
        let aggregator = DayAggregator(rule: options.zone)
        // The census counts records typed in by hand either way; --exclude-manual leaves them out of the days.
        let handEntries = HandEntries(excludes: options.excludeManual, zone: options.zone, next: aggregator)
        let census = SourceCensus(passingOn: handEntries)
        let meter = diagnostics.showsProgress && options.progress ? ProgressMeter(width: diagnostics.width) : nil
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
        let exportTimeOffset = result.exportTimeOffset(statistics, from: days.first?.date, to: days.last?.date)
        var inspection = Inspection(path: path, result: result, inventory: result.inventory ?? ExportInventory(),
                                    places: result.summary.locations.map { ContainerWords.place(of: $0, given: path) },
                                    sources: census.sources, offsets: census.offsets, withoutOffset: census.withoutOffset,
                                    exportTimeOffset: exportTimeOffset, exportTimeOffsetHint: exportTimeOffset.map(ExportTimeOffsetWords.hint),
                                    statistics: statistics, days: days, refused: refused, zone: options.zone,
                                    zoneWords: options.zone.words)
        inspection.chartStyle = chartStyle(terminalColumns: destination.terminalColumns)
        // Everything is computed before the first byte is written: an error never leaves a partial report.
        try destination.write { (writer, sink) throws(OutputError) in try writer.writeInspection(inspection, to: sink) }
        diagnostics.warnSkipped(result.summary)
        if options.verbose {
            diagnostics.reportRead(result.summary, seconds: Date().timeIntervalSince(started), given: path, verbose: true)
        }
        if let line = destination.wrote("the inspection") {
            diagnostics.note(line)
        }
    }

    /// The chart's width (`TerminalDisplay`: COLUMNS, else `terminalColumns`, the terminal's when
    /// the report goes to one, else 80) and characters (ASCII with `--ascii` or a locale that is
    /// not UTF-8).
    private func chartStyle(terminalColumns: Int?) -> SourceChart.Style {
        let environment = ProcessInfo.processInfo.environment
        let unicode = !request.ascii && TerminalDisplay.showsUnicode(environment: environment)
        return SourceChart.Style(width: TerminalDisplay.columns(environment: environment, terminalColumns: terminalColumns),
                                 glyphs: unicode ? .unicode : .ascii)
    }
}
