import ExportParsers
import FuzzSupport
import HealthDays

/// Samsung Health's step CSVs: `SamsungHealthFile` tells the layout and encoding from the first
/// line, as the reader does; an input whose first line tells none gets them from its length.
/// `SamsungHealthCSVParser` reads it in chunks, under both record policies, for steps or steps and
/// distance, into the day rules.
let encodings: [SamsungHealthFile.Encoding] = [.utf8, .utf16(.littleEndian), .utf16(.bigEndian)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamsungHealth(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let file = SamsungHealthFile(head: Array(input.bytes.prefix(4096)))
    let layout = file.flatMap { SamsungHealthCSVParser.Layout($0.kind) }
        ?? ((size / 56) % 2 == 0 ? .dayTrend : .minuteBins)
    let encoding = file?.encoding ?? encodings[(size / 112) % encodings.count]
    let metrics = input.metrics.isStepsOnly ? MetricSet.steps : MetricSet([.steps, .distance])
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metricAggregator = MetricAggregator(metrics: metrics, rule: input.zoneRule)
    let sink: RecordSink = metrics.isStepsOnly ? aggregator : metricAggregator
    let parser = SamsungHealthCSVParser(sink: sink, layout: layout,
                                        encoding: encoding, invalidRecords: input.policy, metrics: metrics)
    guard input.parses(with: parser) else { return 0 }
    let statistics = parser.statistics
    expect(statistics.dayTotals + statistics.samples <= statistics.rows, "more records than rows: \(statistics)")
    expect(statistics.combinedDayTotals <= statistics.dayTotals, "more combined totals than day totals: \(statistics)")
    if metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metricAggregator) }
    return 0
}
