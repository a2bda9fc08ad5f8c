import CLibXML2
import Foundation
import HealthDays
import ExportInput

/// What one Apple Health import read and how, for the report on stderr.
public struct AppleImportSummary: Sendable {
    /// The XML that was read (file, or zip and entry).
    public let location: InputLocation
    /// Bytes of XML read.
    public let bytesRead: Int64
    public let parse: AppleParseStatistics
    /// Stray control characters removed before parsing.
    public let droppedControlCharacters: Int
    /// Whether the internal DTD was removed before parsing.
    public let skippedDoctype: Bool
    /// The `HealthKit Export Version` named in the DOCTYPE, as written; nil when there was none.
    public var healthKitExportVersion: String? = nil
}

/// Reads an Apple Health export end to end: locate the XML, filter it, parse it, feed the samples on.
public enum AppleHealthImport {
    /// Size of each read from the input.
    static let chunkSize = 256 * 1024
    /// Bytes of XML per piece when the parse is spread over several threads.
    public static let defaultPieceSize = 256 * 1024
    /// Size of each read from the input when parsing in pieces (a piece's buffer holds the piece
    /// and up to two reads beyond it): a whole piece and the few lines past it in one read. ISA-L
    /// keeps a copy of the last 32 KiB of each call's output as history and inflates through a
    /// buffer of its own where a call begins, so small reads copy bytes twice (1 GB export: memmove
    /// 120 of the reader's 1,996 samples at this size, 241 with reads of 64 KiB).
    static let pieceReadSize = defaultPieceSize + 8 * 1024

    /// Parser threads when the caller does not say: 2 on a machine with more than one core, else 1.
    /// One worker still selects records (`AppleRecordSelector`), which libxml2's whole parse on
    /// the calling thread (0) does not: on one core it reads an export in about a quarter of the
    /// CPU time, in the same memory.
    public static var defaultParseWorkers: Int {
        ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
    }

    /// Reads the export at `path` (zip, XML, folder or `-`) into `sink`.
    public static func read(path: String, into sink: RecordSink,
                            options: ImportOptions = ImportOptions()) throws(ExportError) -> AppleImportSummary {
        try read(try AppleExportLocator.open(path: path), into: sink, options: options)
    }

    /// Reads an already located XML stream into `sink`.
    ///
    /// `options.parseWorkers` threads parse pieces of the XML while another reads and inflates it;
    /// 0 parses on the calling thread (still reading on a second one). The result is the same
    /// either way. `options.progress` is called after each chunk with the bytes of XML read so
    /// far and the total when known.
    public static func read(_ stream: ByteStream, into sink: RecordSink,
                            options: ImportOptions = ImportOptions()) throws(ExportError) -> AppleImportSummary {
        let workers = options.parseWorkers ?? defaultParseWorkers
        if workers <= 0 {
            return try readOnThisThread(stream, into: sink, invalidRecords: options.invalidRecords,
                                        takesCensus: options.takesInventory, metrics: options.metrics,
                                        progress: options.progress)
        }
        // `inspect`'s census of every record by type is taken by the selection too.
        let selects = !options.strictXML
        return try readInPieces(stream, into: sink, invalidRecords: options.invalidRecords, workers: workers,
                                pieceSize: options.pieceSize ?? defaultPieceSize, takesCensus: options.takesInventory,
                                metrics: options.metrics, selectsRecords: selects, progress: options.progress)
    }

    /// Reads (and inflates) and filters on a second thread, parses on this one.
    static func readOnThisThread(_ stream: ByteStream, into sink: RecordSink, invalidRecords: InvalidRecordPolicy,
                                 takesCensus: Bool = false, metrics: MetricSet = .steps,
                                 progress: ((Int64, Int64?) -> Void)?) throws(ExportError) -> AppleImportSummary {
        let parser = AppleHealthParser(sink: sink, invalidRecords: invalidRecords, takesCensus: takesCensus,
                                       metrics: metrics)
        let location = stream.location
        let readAhead = FilteredReadAhead(stream: stream, chunkSize: chunkSize)
        var total: Int64 = 0
        var endReached = false
        do throws(ExportError) {
            while let chunk = try readAhead.next() {
                defer { readAhead.recycle(chunk.slot) }
                total += Int64(chunk.rawBytes)
                if chunk.rawBytes == 0 { endReached = true }
                do {
                    try parser.feed(chunk.bytes)
                    if endReached { try parser.finish() }
                } catch {
                    let filter = readAhead.stop()
                    throw ExportError(filter.dropped.placing(error), at: location, expected: .appleHealth, grammar: "XML")
                }
                if chunk.rawBytes > 0 { progress?(total, stream.totalBytes) }
            }
        } catch {
            _ = readAhead.stop()
            throw error
        }
        let filter = readAhead.stop()
        return AppleImportSummary(location: stream.location, bytesRead: total, parse: parser.statistics,
                                  droppedControlCharacters: filter.droppedControlCharacters,
                                  skippedDoctype: filter.skippedDoctype,
                                  healthKitExportVersion: filter.healthKitExportVersion)
    }

    /// Reads, filters and cuts the XML into pieces on one thread and parses the pieces on `workers`
    /// others; this thread replays their samples into `sink` in document order.
    ///
    /// From the first piece a worker could not parse on its own (a failure, or no boundary found),
    /// this thread parses everything that is left itself, starting at that piece, so every error is
    /// the one a single parse reports, at the same line and column.
    static func readInPieces(_ stream: ByteStream, into sink: RecordSink, invalidRecords policy: InvalidRecordPolicy,
                             workers: Int, pieceSize: Int, readSize: Int = pieceReadSize, counts: PieceCounts? = nil,
                             takesCensus: Bool = false, metrics: MetricSet = .steps, selectsRecords: Bool = false,
                             progress: ((Int64, Int64?) -> Void)?) throws(ExportError) -> AppleImportSummary {
        let location = stream.location
        // libxml2's global set-up is not safe to run on several threads at once: do it here, once.
        xmlInitParser()
        let wantedTypes = selectsRecords ? AppleRecordSelector.wantedTypes(for: metrics) : nil
        let pieces = PiecePipeline<ApplePieceResult>(stream: stream, workers: workers, pieceSize: pieceSize,
                                                   readSize: readSize) {
            let worker = ApplePieceResult.Worker(policy: policy, takesCensus: takesCensus, metrics: metrics,
                                                 wantedTypes: wantedTypes)
            return { bytes, piece in worker.parse(bytes, piece) }
        }
        var statistics = AppleParseStatistics()
        if takesCensus { statistics.census = AppleRecordCensus() }
        // The file line the next piece starts on.
        var nextLine = 1
        // Parses in order from the first piece no worker could; nil while the workers keep up.
        var inOrder: AppleHealthParser?
        // Drops the control characters of the pieces parsed in order (the reader leaves those of
        // the body), and notes where, from the first such piece on; with its buffer.
        var inOrderFilter = AppleXMLPrefilter.bodyFilter(at: 0)
        var inOrderBytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        defer { inOrderBytes.deallocate() }
        // Those the workers dropped from the pieces whose results were used.
        var droppedByWorkers = 0
        var reported: Int64 = 0
        do throws(ExportError) {
            while let (piece, slot, bytes, result) = try pieces.next() {
                defer { pieces.recycle(slot) }
                if inOrder == nil, let result, !result.failed {
                    result.replay(into: sink)
                    counts?.byWorkers += 1
                    counts?.recordsReadDirectly += result.recordsReadDirectly
                    droppedByWorkers += result.droppedControlCharacters
                    statistics.add(result.statistics, lineShift: piece.index == 0 ? 0 : nextLine - 2)
                    nextLine += result.lineBreaks
                } else {
                    do throws(ParseFailure) {
                        let parser: AppleHealthParser
                        if let inOrder {
                            parser = inOrder
                        } else {
                            pieces.parseRestInOrder()
                            let prefix = piece.index > 0 ? piece.frame?.prefix.count ?? 0 : 0
                            parser = AppleHealthParser(sink: sink, invalidRecords: policy,
                                                       lineOffset: piece.index == 0 ? 0 : nextLine - 2,
                                                       rootLine: piece.frame?.rootLine ?? 1,
                                                       byteShift: piece.filteredStart - Int64(prefix),
                                                       takesCensus: takesCensus, metrics: metrics)
                            if piece.index > 0, let frame = piece.frame {
                                try parser.feed(frame.prefix)
                            }
                            inOrder = parser
                            inOrderFilter = AppleXMLPrefilter.bodyFilter(at: piece.filteredStart)
                        }
                        counts?.inOrder += 1
                        if inOrderBytes.count < bytes.count + AppleXMLPrefilter.maxGrowth {
                            inOrderBytes.deallocate()
                            inOrderBytes = .allocate(byteCount: bytes.count + AppleXMLPrefilter.maxGrowth, alignment: 16)
                        }
                        let count = inOrderFilter.filter(bytes, into: inOrderBytes)
                        try parser.feed(UnsafeRawBufferPointer(rebasing: inOrderBytes[0..<count]))
                        if piece.isLast { try parser.finish() }
                    } catch {
                        let (filter, _) = pieces.stop()
                        // From libxml2's stream to the reader's output, then to the input.
                        let placed = filter.dropped.placing(inOrderFilter.dropped.placing(error))
                        throw ExportError(placed, at: location, expected: .appleHealth, grammar: "XML")
                    }
                }
                if piece.rawBytesRead > reported {
                    reported = piece.rawBytesRead
                    progress?(reported, stream.totalBytes)
                }
            }
        } catch {
            _ = pieces.stop()
            throw error
        }
        if let inOrder { statistics.add(inOrder.statistics, lineShift: 0) }
        let (filter, rawBytes) = pieces.stop()
        counts?.cutsAtLines = pieces.cutsAtLines
        let dropped = filter.droppedControlCharacters + droppedByWorkers + inOrderFilter.droppedControlCharacters
        return AppleImportSummary(location: location, bytesRead: rawBytes, parse: statistics,
                                  droppedControlCharacters: dropped,
                                  skippedDoctype: filter.skippedDoctype,
                                  healthKitExportVersion: filter.healthKitExportVersion)
    }
}

/// How many pieces the workers parsed and how many the consumer parsed in order, for tests.
final class PieceCounts {
    var byWorkers = 0
    var inOrder = 0
    /// Records asked for that the workers' selection read without libxml2.
    var recordsReadDirectly = 0
    /// Pieces cut where a line began like a child of the root (`TopLevelBoundaryScanner.childLine`).
    var cutsAtLines = 0
}

extension AppleParseStatistics {
    /// Adds the counts of a later part of the same document; `lineShift` moves its skipped examples to file lines.
    mutating func add(_ other: AppleParseStatistics, lineShift: Int) {
        records += other.records
        stepRecords += other.stepRecords
        metricRecords += other.metricRecords
        nestedStepRecords += other.nestedStepRecords
        skipped.add(other.skipped, lineShift: lineShift)
        if locale == nil { locale = other.locale }
        if let other = other.census {
            census?.add(other)
        }
    }
}

extension AppleImportSummary {
    /// The same facts in the form every format reports.
    public var importSummary: ImportSummary {
        var summary = ImportSummary()
        summary.locations = [location]
        summary.format = "Apple Health XML" + (parse.locale.map { ", locale \($0)" } ?? "")
        summary.bytesRead = bytesRead
        summary.stepRecords = parse.stepRecords
        summary.otherRecords = parse.records - parse.stepRecords - parse.skipped.count
        // Every export with a watch has Correlation copies, and most an internal DTD: details.
        if parse.nestedStepRecords > 0 {
            summary.notes.append(.detail("\(parse.nestedStepRecords) step record\(parse.nestedStepRecords == 1 ? "" : "s") inside Correlation elements left out (Apple repeats them at top level)"))
        }
        if skippedDoctype { summary.notes.append(.detail("the internal DTD was skipped")) }
        if droppedControlCharacters > 0 {
            summary.notes.append(.fact("\(droppedControlCharacters) stray control character\(droppedControlCharacters == 1 ? "" : "s") dropped"))
        }
        summary.addSkipped(parse.skipped, at: location)
        return summary
    }
}
