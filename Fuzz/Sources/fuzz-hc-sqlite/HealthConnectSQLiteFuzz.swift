import ExportInput
import ExportParsers
import FuzzSupport
import HealthDays

/// Health Connect's export database on a database image: `HealthConnectDatabase(copying:)` writes
/// the bytes to a temporary file (in `$TMPDIR`, which `scripts/fuzz` points into `.build/fuzz/`),
/// opens it read-only and removes its name; then its step rows go through the day rules.
/// SQLite itself is the system library (not instrumented): what is fuzzed is the checks of the
/// header and schema and the reading of every column of `steps_record_table`, and, for every
/// other input, of every metric table (`--metric all`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthConnectSQLite(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics.isStepsOnly ? .steps : ExportFamily.android.metrics, rule: input.zoneRule)
    do throws(ExportError) {
        let database = try HealthConnectDatabase(copying: MemoryStream(input.bytes, name: "health_connect_export.db"))
        let statistics = input.metrics.isStepsOnly
            ? try database.read(into: aggregator, invalidRecords: input.policy)
            : try database.read(into: metrics, invalidRecords: input.policy, metrics: ExportFamily.android.metrics)
        blackHole(statistics)
    } catch {
        blackHole(error.description)
        return 0
    }
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}
