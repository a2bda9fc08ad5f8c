import ExportParsers
import FuzzSupport
import HealthDays

/// Health Connect and app JSON dumps (react-native-health-connect, HCGateway, Capacitor, Flutter,
/// plain record arrays, day totals, Google Fit's raw streams): `AppDumpJSONParser`, in
/// chunks, into the day rules; for every other input with every metric (`--metric all`: the
/// metric records, their samples and stages through the spool, into the metrics' day rules); and
/// every input through Fitbit's per-minute reader too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthConnectJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    fuzzFitbitMinutes(input)
    fuzzPriority(input)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics.isStepsOnly ? .steps : ExportFamily.android.metrics, rule: input.zoneRule)
    let parser = input.metrics.isStepsOnly
        ? AppDumpJSONParser(sink: aggregator, invalidRecords: input.policy)
        : AppDumpJSONParser(sink: metrics, invalidRecords: input.policy, metrics: ExportFamily.android.metrics)
    guard input.parses(with: parser) else { return 0 }
    blackHole(parser.statistics.shapeNames)
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}

/// Fitbit's Google Takeout files, which `hc` tells from the dumps above by their name and first
/// bytes: `FitbitMinuteParser` as the kind the input's length picks (steps, distance, calories,
/// heart rate), and, for every other input, `FitbitSleepParser`, in chunks, into the metrics' day
/// rules (a minute or reading, a sleep log's stages and span).
func fuzzFitbitMinutes(_ input: FuzzInput) {
    let minuteKinds = FitbitMinuteParser.Kind.allCases.filter { $0 != .sleep }
    let kind = minuteKinds[(input.bytes.count / 7) % minuteKinds.count]
    let metrics = MetricAggregator(metrics: ExportFamily.android.metrics, rule: input.zoneRule)
    let parser: RecordParser = input.metrics.isStepsOnly
        ? FitbitMinuteParser(sink: metrics, kind: kind, invalidRecords: input.policy)
        : FitbitSleepParser(sink: metrics, invalidRecords: input.policy)
    guard input.parses(with: parser) else { return }
    blackHole(FitbitMinuteParser.looksLikeMinuteArray(Array(input.bytes.prefix(4096))))
    totalMetricDays(metrics)
}

/// `--rule hc-priority` on the same input: steps and the summed metrics into one sweep each, with
/// tiny limits so that the temporary-file runs, their merge and the overlap limit are reached.
func fuzzPriority(_ input: FuzzInput) {
    let metrics = MetricSet([.steps, .distance, .activeEnergy, .flights])
    let aggregator = PriorityMetricAggregator(metrics: metrics, rule: input.zoneRule,
                                              priority: ["android", "com.phone", "com.watch", "(unknown)"],
                                              inMemoryLimit: 3 + input.bytes.count % 5, overlapLimit: 64)
    let parser = AppDumpJSONParser(sink: aggregator, invalidRecords: input.policy, metrics: metrics)
    guard input.parses(with: parser) else { return }
    do throws(ExportError) {
        try aggregator.finish()
    } catch {
        blackHole(error.description)
        return
    }
    blackHole(aggregator.days().count + aggregator.sourceValues().count)
}
