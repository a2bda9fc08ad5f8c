import ExportParsers
import FuzzSupport
import HealthDays

/// Apple Health XML on one thread: the bytes, in chunks, through `AppleXMLPrefilter` (DOCTYPE
/// and control characters out) and `AppleHealthParser` (libxml2 SAX) into the day rules, of steps
/// alone or of every metric (`--metric all`).
/// A thrown `ParseFailure` is a fine answer; only a trap or a sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleXML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let aggregator = DayAggregator(rule: input.zoneRule)
    let metrics = MetricAggregator(metrics: input.metrics, rule: input.zoneRule)
    let parser = AppleHealthParser(sink: input.metrics.isStepsOnly ? aggregator : metrics, invalidRecords: input.policy,
                                   metrics: input.metrics)
    var filter = AppleXMLPrefilter()
    let output = UnsafeMutableRawBufferPointer.allocate(
        byteCount: min(input.chunkSize, max(input.bytes.count, 1)) + AppleXMLPrefilter.maxGrowth, alignment: 16)
    defer { output.deallocate() }
    do throws(ParseFailure) {
        try input.forEachChunk { (chunk) throws(ParseFailure) in
            let count = filter.filter(chunk, into: output)
            try parser.feed(UnsafeRawBufferPointer(rebasing: output[0..<count]))
        }
        let count = filter.finish(into: output)
        try parser.feed(UnsafeRawBufferPointer(rebasing: output[0..<count]))
        try parser.finish()
    } catch {
        blackHole(error.message)
        return 0
    }
    blackHole(parser.statistics)
    if input.metrics.isStepsOnly { totalDays(aggregator) } else { totalMetricDays(metrics) }
    return 0
}
