import ExportParsers
import FuzzSupport
import HealthDays

/// Health Connect and app JSON dumps (react-native-health-connect, HCGateway, Capacitor, Flutter,
/// plain record arrays, day totals, Google Fit's raw streams): `HealthConnectJSONParser`, in
/// chunks, into the day rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthConnectJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let parser = HealthConnectJSONParser(sink: aggregator, invalidRecords: input.policy)
    do throws(ParseFailure) {
        try input.forEachChunk { (chunk) throws(ParseFailure) in try parser.feed(chunk) }
        try parser.finish()
    } catch {
        blackHole(error.message)
        return 0
    }
    blackHole(parser.statistics.shapeNames)
    totalDays(aggregator)
    return 0
}
