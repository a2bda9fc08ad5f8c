import ExportInput
import ExportParsers
import FuzzSupport
import HealthDays

/// Apple Health XML through the parallel pieces path: `AppleHealthImport.read` with two parse
/// workers and small pieces over an in-memory stream that hands out small reads, so that the
/// boundary scanner, the piece frames, the ring and the in-order fallback all run on every input;
/// for steps alone or every metric (`--metric all`). The record selection is on (the default:
/// records of types not asked for are left out before libxml2, `AppleRecordSelector`); every
/// third input length also takes `inspect`'s census, which the selection then counts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApplePieces(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics, rule: input.zoneRule)
    // Pieces of 64 to 1,024 bytes, reads of 1 to 512 bytes, both chosen by the length.
    let pieceSize = 64 << (size % 5)
    let readSize = [1, 7, 100, 512][(size / 5) % 4]
    let stream = MemoryStream(input.bytes, name: "export.xml", readSize: readSize)
    let options = ImportOptions(invalidRecords: input.policy, parseWorkers: 2, pieceSize: pieceSize,
                                takesInventory: size % 3 == 0, metrics: input.metrics)
    do throws(ExportError) {
        let sink: RecordSink = input.metrics.isStepsOnly ? aggregator : metrics
        let summary = try AppleHealthImport.read(stream, into: sink, options: options)
        blackHole(summary.importSummary)
        blackHole(summary.parse.census?.records)
    } catch {
        blackHole(error.description)
        return 0
    }
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}
