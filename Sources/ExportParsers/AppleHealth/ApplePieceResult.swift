#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a worker made of one piece of an Apple Health export: the step samples in document
/// order with their sources, the counts, and whether libxml2 accepted the piece.
///
/// Workers never aggregate: the consumer replays the samples into the one `StepSink` in piece
/// order, so duplicate collapse, source numbering and every tie come out as in a single parse.
struct ApplePieceResult: Sendable {
    /// A step sample and the index of its source in `sources`.
    struct Sample: Sendable {
        let sample: StepSample
        let source: Int32
    }

    var samples: [Sample] = []
    /// Source names as UTF-8, in order of first use within the piece.
    var sources: [[UInt8]] = []
    /// Counts for the piece; skipped examples carry lines as the piece's parser saw them.
    var statistics = AppleParseStatistics()
    /// The piece's parse failed: its samples are not to be used (the consumer parses it again).
    var failed = false
    /// Line breaks in the piece, to place the next one in the file.
    var lineBreaks = 0

    /// Parses one piece on a worker: inside its frame unless it starts the document, closed with
    /// the root end tag unless it ends it.
    static func parse(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece, policy: InvalidRecordPolicy) -> ApplePieceResult {
        let collector = Collector()
        let parser = AppleHealthParser(sink: collector, invalidRecords: policy, lineOffset: 0, rootLine: 1)
        do throws(ParseFailure) {
            if piece.index > 0, let frame = piece.frame {
                try parser.feed(frame.prefix)
            }
            try parser.feed(bytes)
            if !piece.isLast, let frame = piece.frame {
                try parser.feed(frame.suffix)
            }
            try parser.finish()
        } catch {
            collector.result.failed = true
        }
        var result = collector.result
        result.statistics = parser.statistics
        result.lineBreaks = countLineBreaks(bytes)
        return result
    }

    private static func countLineBreaks(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return count
    }

    /// Replays the samples into `sink`, in order.
    func replay(into sink: StepSink) {
        for entry in samples {
            sources[Int(entry.source)].withUnsafeBytes { sink.add(entry.sample, sourceUTF8: $0) }
        }
    }

    /// Collects a piece's samples, numbering sources as they first appear.
    private final class Collector: StepSink {
        var result = ApplePieceResult()
        private var lastSource: Int32 = -1
        private var index: [[UInt8]: Int32] = [:]
        private static let linearLimit = 32

        func add(_ sample: StepSample, sourceUTF8: UnsafeRawBufferPointer) {
            result.samples.append(Sample(sample: sample, source: sourceID(sourceUTF8)))
        }

        func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
            preconditionFailure("Apple Health exports have no day totals")
        }

        private func sourceID(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            if lastSource >= 0 && Collector.equal(result.sources[Int(lastSource)], bytes) { return lastSource }
            if result.sources.count <= Collector.linearLimit {
                for (candidate, name) in result.sources.enumerated() where Collector.equal(name, bytes) {
                    lastSource = Int32(candidate)
                    return lastSource
                }
            } else if let known = index[Array(bytes)] {
                lastSource = known
                return known
            }
            let name = Array(bytes)
            lastSource = Int32(result.sources.count)
            result.sources.append(name)
            index[name] = lastSource
            return lastSource
        }

        private static func equal(_ name: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
            guard name.count == bytes.count else { return false }
            return name.withUnsafeBytes { stored in
                bytes.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
        }
    }
}
