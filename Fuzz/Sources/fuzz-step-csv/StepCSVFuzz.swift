import ExportParsers
import FuzzSupport
import HealthDays

/// Step CSVs: Health Connect records and day totals from exporter apps, and Google Fit Takeout's
/// daily summaries and per-day files (whose date is only in the file name). `RecordCSVParser`, in
/// chunks, under a file name chosen by the input's length, into the day rules; every other input
/// with `--metric all` (Fit's metric columns, day values, a record CSV's metric column).
let fileNames: [String?] = [nil, "records.csv", "2025-02-02.csv", "Daily activity metrics.csv",
                            "Takeout/Fit/Daily Aggregations/Daily Summaries.csv", "2025-13-45.csv"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStepCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics.isStepsOnly ? .steps : ExportFamily.android.metrics, rule: input.zoneRule)
    let parser = RecordCSVParser(sink: input.metrics.isStepsOnly ? aggregator : metrics, invalidRecords: input.policy,
                               fileName: fileNames[(size / 28) % fileNames.count],
                               metrics: input.metrics.isStepsOnly ? .steps : ExportFamily.android.metrics)
    guard input.parses(with: parser) else { return 0 }
    blackHole(parser.statistics)
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}
