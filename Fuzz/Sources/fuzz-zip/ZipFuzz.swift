import ExportParsers
import FuzzSupport
import HealthDays

/// Archive bytes through the one opener and the one importer, as a user's file: the bytes are
/// written to a temporary file (removed after the run), `ExportImporter.open(path:as:)` opens
/// it (libzip, nested zips through temporary spools, the Apple locator, the table of
/// formats and Takeout plan) and `read` reads what it found into the day rules. The reader is
/// chosen by the input's length: `apple`, `hc` or automatic.
let choices: [ExportChoice] = [.auto, .family(.appleHealth), .family(.android)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    withScratchFile(input.bytes, name: "export.zip") { path in
        let aggregator = DayAggregator(rule: input.zoneRule)
        do throws(ExportError) {
            let importer = try ExportImporter.open(path: path, as: choices[size % choices.count])
            // One parse thread: the pieces path has its own target.
            let result = try importer.read(into: aggregator, options: ImportOptions(invalidRecords: input.policy, parseWorkers: 0))
            blackHole(result.summary)
        } catch {
            blackHole(error.description)
            return
        }
        totalDays(aggregator)
    }
    return 0
}
