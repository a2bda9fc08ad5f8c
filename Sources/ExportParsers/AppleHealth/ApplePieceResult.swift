import Glibc
import HealthDays

/// What a worker made of one piece of an Apple Health export: the step samples in document
/// order with their sources, the counts, and whether libxml2 accepted the piece.
///
/// Workers never aggregate: the consumer replays the samples into the one `RecordSink` in piece
/// order, so duplicate collapse, source numbering and every tie come out as in a single parse.
struct ApplePieceResult: Sendable {
    /// A step sample and the index of its source in `sources`.
    struct Sample: Sendable {
        let sample: HealthSample
        let source: Int32
        /// Steps, or the metric beyond steps it is a sample of (`--metric`).
        let metric: Metric
    }

    var samples: [Sample] = []
    /// Source names as UTF-8, in order of first use within the piece.
    var sources: [[UInt8]] = []
    /// Counts for the piece; skipped examples carry lines as the piece's parser saw them.
    var statistics = AppleParseStatistics()
    /// The piece's parse failed: its samples are not to be used (the consumer parses it again).
    var failed = false
    /// Lines the piece moved libxml2 on by, to place the next piece in the file.
    var lineBreaks = 0
    /// Records asked for that the selection read itself, without libxml2 (for tests).
    var recordsReadDirectly = 0
    /// Control characters the worker dropped from the piece before parsing it: the reader leaves
    /// those of the body in place (`AppleXMLPrefilter(dropsBodyControls:)`).
    var droppedControlCharacters = 0

    init(failed: Bool = false) {
        self.failed = failed
    }

    /// Bytes handed to libxml2 at a time.
    static let feedSize = 64 * 1024

    /// Parses pieces on one worker thread, reusing one libxml2 context.
    final class Worker {
        private let collector = Collector()
        private let parser: AppleHealthParser
        private var used = false
        /// The record types that pass the selection (`AppleRecordSelector`); nil: every record is parsed.
        private let wantedTypes: [[UInt8]]?
        /// Whether the census of the root's children is taken (`stepimport inspect`): the selection
        /// then counts them, records left out included.
        private let takesCensus: Bool
        /// Children of the root other than records that the selection leaves out (`elementsLeftOut(for:)`).
        private let elementsLeftOut: [StaticString]
        /// What passed the selection of the current piece; grown to the largest piece.
        private var selected = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        /// A piece without its control characters; allocated for the first piece that has one.
        private var clean = UnsafeMutableRawBufferPointer(start: nil, count: 0)

        /// `wantedTypes`: leave out, before libxml2, the top-level records of other types (nil: read all).
        init(policy: InvalidRecordPolicy, takesCensus: Bool = false, metrics: MetricSet = .steps,
             wantedTypes: [[UInt8]]? = nil) {
            parser = AppleHealthParser(sink: collector, invalidRecords: policy, lineOffset: 0, rootLine: 1,
                                       takesCensus: takesCensus, metrics: metrics)
            self.wantedTypes = wantedTypes
            self.takesCensus = takesCensus
            elementsLeftOut = wantedTypes == nil ? [] : AppleRecordSelector.elementsLeftOut(for: metrics)
        }

        deinit {
            selected.deallocate()
            clean.deallocate()
        }

        /// Parses one piece: inside its frame unless it starts the document, closed with the root
        /// end tag unless it ends it.
        ///
        /// With `wantedTypes`, the piece is first selected into a buffer of the worker's own (the
        /// piece's bytes stay as they are, for the consumer to parse them whole if this fails). A
        /// piece whose selection finds a structure error fails like one libxml2 rejects: the
        /// consumer then parses it and the rest whole, so the error is the one a single parser of
        /// every record reports.
        ///
        /// In a piece between the first and the last, the selection also reads the records asked
        /// for itself (`AppleRecordTag`) and hands them to the parser; libxml2 reads what is left
        /// (other elements, for their structure and counts). When such a piece also holds a record
        /// or workout libxml2 must read, it is selected and parsed again the plain way, so that
        /// every sample comes in document order.
        ///
        /// The reader leaves the body's control characters in the piece. The selection stops at
        /// the first it meets (so does the check before a whole parse); the worker then drops them
        /// all from a copy of the piece, as the prefilter would have, and parses that.
        func parse(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece) -> ApplePieceResult {
            if let result = parseUnlessControls(bytes, piece) { return result }
            if clean.count < bytes.count + AppleXMLPrefilter.maxGrowth {
                clean.deallocate()
                clean = .allocate(byteCount: bytes.count + AppleXMLPrefilter.maxGrowth, alignment: 16)
            }
            var filter = AppleXMLPrefilter.bodyFilter(at: 0)
            let count = filter.filter(bytes, into: clean)
            // Without control characters, none stops the parse again.
            var result = parseUnlessControls(UnsafeRawBufferPointer(rebasing: clean[0..<count]), piece)
                ?? ApplePieceResult(failed: true)
            result.droppedControlCharacters = filter.droppedControlCharacters
            return result
        }

        /// `parse` of a piece, or nil when it holds a control character.
        private func parseUnlessControls(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece) -> ApplePieceResult? {
            if used { parser.reset() }
            used = true
            collector.start()
            guard let wantedTypes else { return parseWhole(bytes, piece) }
            if selected.count < bytes.count {
                selected.deallocate()
                selected = .allocate(byteCount: bytes.count, alignment: 16)
            }
            if piece.index > 0 && !piece.isLast {
                let reading = AppleRecordSelector(wantedTypes: wantedTypes, insideRoot: true, reader: parser,
                                                  takesCensus: takesCensus, otherElementsLeftOut: elementsLeftOut)
                switch selectAndParse(bytes, piece, reading) {
                case .parsed(let result): return result
                case .sawControl: return nil
                case .needsWholeParse: break
                }
                parser.reset()
                collector.start()
            }
            let plain = AppleRecordSelector(wantedTypes: wantedTypes, insideRoot: piece.index > 0, takesCensus: takesCensus,
                                            otherElementsLeftOut: elementsLeftOut)
            switch selectAndParse(bytes, piece, plain) {
            case .parsed(let result): return result
            case .sawControl: return nil
            case .needsWholeParse: break
            }
            // Only a census stops a plain selection: a child of the root it cannot count as libxml2
            // does (the `ExportDate`, a record written another way). libxml2 reads the piece whole.
            parser.reset()
            collector.start()
            return parseWhole(bytes, piece)
        }

        /// libxml2's parse of the whole piece, or nil when it holds a control character.
        private func parseWhole(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece) -> ApplePieceResult? {
            guard !AppleXMLPrefilter.containsControl(bytes) else { return nil }
            return ApplePieceResult.parse(bytes, piece, parser: parser, collector: collector)
        }

        private enum Selected {
            case parsed(ApplePieceResult)
            /// The selector, reading records, met one libxml2 must read (the piece is to be
            /// parsed plainly), or with a census a child it cannot count (parsed whole).
            case needsWholeParse
            /// The piece holds a control character.
            case sawControl
        }

        /// Selects the piece into `selected` with `selector` and parses what passes.
        private func selectAndParse(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece,
                                    _ start: AppleRecordSelector) -> Selected {
            var selector = start
            let count = selector.select(piece: bytes, into: selected)
            guard !selector.sawControl else { return .sawControl }
            guard selector.failure == nil else { return .parsed(ApplePieceResult(failed: true)) }
            guard !selector.needsWholeParse else { return .needsWholeParse }
            let blank = selector.passedOnlyBlanks ? selector.lineFeedsPassed : nil
            var result = ApplePieceResult.parse(UnsafeRawBufferPointer(rebasing: selected[0..<count]), piece,
                                                parser: parser, collector: collector, blankLineFeeds: blank)
            // The records left out are counted as the parser counts those it reads.
            result.statistics.records += selector.skippedRecords
            result.statistics.nestedStepRecords += selector.nestedStepRecords
            result.recordsReadDirectly = selector.recordsRead
            // The selection counted every child of the root, those left out too; the parser saw
            // only those that passed.
            if let census = selector.census { result.statistics.census = census }
            return .parsed(result)
        }
    }

    /// `blankLineFeeds`: `bytes` passed a selection and hold only spaces, tabs and this many line
    /// feeds (every child of the root was read or left out). Inside a frame libxml2 is then given
    /// the frame alone: it would only have counted the line feeds (in the 1 GB export, where
    /// nothing else passes, a twentieth of the workers' time).
    private static func parse(_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece, parser: AppleHealthParser,
                              collector: Collector, blankLineFeeds blank: Int? = nil) -> ApplePieceResult {
        var blankLineFeeds = 0
        var bytes = bytes
        if let blank, piece.index > 0, !piece.isLast, piece.frame != nil {
            blankLineFeeds = blank
            bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<0])
        }
        do throws(ParseFailure) {
            if piece.index > 0, let frame = piece.frame {
                try parser.feed(frame.prefix)
            }
            // In slices: libxml2 copies what it is given into its own buffer, which then stays small.
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + feedSize)
                try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
            if !piece.isLast, let frame = piece.frame {
                try parser.feed(frame.suffix)
            }
            try parser.finish()
        } catch {
            collector.result.failed = true
        }
        var result = collector.result
        result.statistics = parser.statistics
        // Lines as libxml2 counted them (the prefix is line 1, the suffix has no line break), so
        // that the next piece's lines agree with what one parser would say.
        result.lineBreaks = parser.lineReached - (piece.index > 0 ? 2 : 1) + blankLineFeeds
        return result
    }

    /// Replays the samples into `sink`, in order.
    func replay(into sink: RecordSink) {
        for entry in samples {
            if entry.metric == .steps {
                sources[Int(entry.source)].withUnsafeBytes { sink.add(entry.sample, sourceUTF8: $0) }
            } else {
                sources[Int(entry.source)].withUnsafeBytes { sink.add(entry.sample, of: entry.metric, sourceUTF8: $0) }
            }
        }
    }

    /// Collects a piece's samples, numbering sources as they first appear.
    private final class Collector: RecordSink {
        // Touched for every sample: unchecked, as one worker owns the collector and no method
        // reaches one of them while another holds it (each sample's source is looked up before
        // it is appended), so that each access costs no dynamic exclusivity check (with the
        // parser's place of a record, 3% of a `--metric all` run, callgrind).
        @exclusivity(unchecked) var result = ApplePieceResult()
        @exclusivity(unchecked) private var lastSource: Int32 = -1
        @exclusivity(unchecked) private var index: [[UInt8]: Int32] = [:]
        private static let linearLimit = 32

        /// Forgets the previous piece.
        func start() {
            result = ApplePieceResult()
            lastSource = -1
            index.removeAll(keepingCapacity: true)
        }

        func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
            let source = sourceID(sourceUTF8)
            result.samples.append(Sample(sample: sample, source: source, metric: .steps))
        }

        func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
            let source = sourceID(sourceUTF8)
            result.samples.append(Sample(sample: sample, source: source, metric: metric))
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
