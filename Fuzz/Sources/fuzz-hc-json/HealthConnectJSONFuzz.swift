import ExportParsers
import FuzzSupport
import HealthDays

/// Health Connect and app JSON dumps (react-native-health-connect, HCGateway, Capacitor, Flutter,
/// plain record arrays, day totals, Google Fit's raw streams): `HealthConnectJSONParser`, in
/// chunks, into the day rules; for every other input with every metric (`--metric all`: the
/// metric records, their samples and stages through the spool, into the metrics' day rules); and
/// every input through Fitbit's per-minute reader too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthConnectJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    fuzzFitbitMinutes(input)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics.isStepsOnly ? .steps : .healthConnect, rule: input.zoneRule)
    let parser = input.metrics.isStepsOnly
        ? HealthConnectJSONParser(sink: aggregator, invalidRecords: input.policy)
        : HealthConnectJSONParser(sink: metrics, invalidRecords: input.policy, metrics: .healthConnect)
    do throws(ParseFailure) {
        try input.forEachChunk { (chunk) throws(ParseFailure) in try parser.feed(chunk) }
        try parser.finish()
    } catch {
        blackHole(error.message)
        return 0
    }
    blackHole(parser.statistics.shapeNames)
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}

/// Fitbit's per-minute arrays (`steps-YYYY-MM-DD.json` of a Google Takeout), which `hc` tells from
/// the dumps above by their first bytes: `FitbitMinuteParser`, in chunks, into the day rules.
func fuzzFitbitMinutes(_ input: FuzzInput) {
    let aggregator = DayAggregator(rule: input.zoneRule)
    let parser = FitbitMinuteParser(sink: aggregator, invalidRecords: input.policy)
    do throws(ParseFailure) {
        try input.forEachChunk { (chunk) throws(ParseFailure) in try parser.feed(chunk) }
        try parser.finish()
    } catch {
        blackHole(error.message)
        return
    }
    blackHole(FitbitMinuteParser.looksLikeMinuteArray(Array(input.bytes.prefix(4096))))
    totalDays(aggregator)
}
