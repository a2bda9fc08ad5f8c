import Foundation
import ExportInput
import HealthDays

/// One fuzzer input, with the choices a target derives from it.
///
/// The choices come from the input's length, not from a leading control byte, so that every seed
/// (a real export, a fixture) stays a valid input as it is and the fuzzer still explores chunk
/// boundaries, both record policies and both zone rules.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// The size of the chunks the bytes are fed in: 1, 2, 3, 7, 64, 4096 or all at once.
    public var chunkSize: Int {
        [1, 2, 3, 7, 64, 4096, Int.max][bytes.count % 7]
    }

    /// Stop at the first invalid record, or skip and count it.
    public var policy: InvalidRecordPolicy {
        (bytes.count / 7) % 2 == 0 ? .fail : .skip
    }

    /// Each sample in its recorded offset, or in a zone with daylight saving.
    public var zoneRule: ZoneRule {
        (bytes.count / 14) % 2 == 0 ? .recordedOffset : (ZoneRule.named("Europe/Berlin") ?? .recordedOffset)
    }

    /// Steps alone, or every metric (`--metric all`): the metric records' paths and rules too.
    public var metrics: MetricSet {
        (bytes.count / 28) % 2 == 0 ? .steps : .all
    }

    /// Feeds the bytes to `parser` chunk by chunk and finishes it; false (its failure's words
    /// used, as a reader's would be) when it failed.
    public func parses(with parser: RecordParser) -> Bool {
        do throws(ParseFailure) {
            try forEachChunk { (chunk) throws(ParseFailure) in try parser.feed(chunk) }
            try parser.finish()
            return true
        } catch {
            blackHole(error.message)
            return false
        }
    }

    /// Calls `body` with each chunk of the bytes in turn (all of them at once when `whole`);
    /// stops at the first error.
    public func forEachChunk<Failure: Error>(whole: Bool = false,
                                             _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        let step = whole ? Int.max : chunkSize
        let part = bytes[...]
        var failure: Failure?
        part.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = all.count - start > step ? start + step : all.count
                do throws(Failure) {
                    try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                } catch {
                    failure = error
                    return
                }
                start = end
            }
        }
        if let failure { throw failure }
    }
}

/// Runs what a reader handed to the aggregator through the day rules: the half of the pipeline
/// where a file's values meet arithmetic (sums, splits, rounding), so it is fuzzed with every reader.
public func totalDays(_ aggregator: DayAggregator) {
    do {
        try aggregator.finish()
    } catch {
        return
    }
    let days = aggregator.dayTotals()
    let perSource = aggregator.sourceDayTotals()
    // Touch the results so that nothing is optimised away.
    var check = 0
    for day in days { check &+= day.steps }
    for entry in perSource { check &+= entry.steps }
    blackHole(check)
}

/// Runs what a reader handed to the metrics' aggregators through their day rules (`--metric`).
public func totalMetricDays(_ aggregator: MetricAggregator) {
    do {
        try aggregator.finish()
    } catch {
        return
    }
    var check = 0.0
    for day in aggregator.days() {
        for value in day.values { check += value ?? 0 }
    }
    for value in aggregator.sourceValues() { check += value.value }
    for metric in aggregator.metrics.metrics { blackHole(aggregator.statistics(of: metric)) }
    blackHole(check)
}

/// Keeps a value alive past the optimiser.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}


/// A private folder for targets that need files (a database image, a zip), under `$TMPDIR`
/// (`scripts/fuzz` points it into `.build/fuzz/`), made once per process.
public let fuzzScratchFolder: String = {
    let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let folder = base + "/stepimport-fuzz-\(getpid())"
    mkdir(folder, 0o700)
    return folder
}()

/// Writes `bytes` to a new file named `name` in the scratch folder, runs `body` on its path, and
/// removes the file whatever happens.
public func withScratchFile<Result>(_ bytes: [UInt8], name: String, _ body: (String) -> Result) -> Result {
    let path = fuzzScratchFolder + "/" + name
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot create \(path): errno \(errno)")
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            precondition(count > 0, "cannot write \(path): errno \(errno)")
            written += count
        }
    }
    close(descriptor)
    defer { unlink(path) }
    return body(path)
}

/// Stops with `message` when `condition` is false: a broken promise of the code under test, which
/// libFuzzer reports as a crash. Unlike `precondition`, the message survives `-O` (fatalError
/// always prints it).
public func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError(message())
    }
}
