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
}

/// Reads an Apple Health export end to end: locate the XML, filter it, parse it, feed the samples on.
public enum AppleHealthImport {
    /// Size of each read from the input.
    static let chunkSize = 256 * 1024

    /// Reads the export at `path` (zip, XML, folder or `-`) into `sink`.
    ///
    /// `progress` is called after each chunk with the bytes of XML read so far and the total when known.
    public static func read(path: String, into sink: StepSink, invalidRecords: InvalidRecordPolicy = .fail,
                            progress: ((Int64, Int64?) -> Void)? = nil) throws(ExportError) -> AppleImportSummary {
        let stream = try AppleExportLocator.open(path: path)
        return try read(stream, into: sink, invalidRecords: invalidRecords, progress: progress)
    }

    /// Reads an already opened XML stream into `sink`.
    public static func read(_ stream: ByteStream, into sink: StepSink, invalidRecords: InvalidRecordPolicy = .fail,
                            progress: ((Int64, Int64?) -> Void)? = nil) throws(ExportError) -> AppleImportSummary {
        let parser = AppleHealthParser(sink: sink, invalidRecords: invalidRecords)
        let location = stream.location
        // Reading (and inflating) and filtering run on a second thread, parsing on this one.
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
                    throw ExportError(error, at: location, expected: .appleHealth, grammar: "XML")
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
                                  skippedDoctype: filter.skippedDoctype)
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
        summary.otherRecords = parse.records - parse.stepRecords - parse.skippedRecords
        if parse.nestedStepRecords > 0 {
            summary.notes.append("\(parse.nestedStepRecords) step record\(parse.nestedStepRecords == 1 ? "" : "s") inside Correlation elements left out (Apple repeats them at top level)")
        }
        var repairs: [String] = []
        if skippedDoctype { repairs.append("the internal DTD was skipped") }
        if droppedControlCharacters > 0 {
            repairs.append("\(droppedControlCharacters) stray control character\(droppedControlCharacters == 1 ? "" : "s") dropped")
        }
        if !repairs.isEmpty { summary.notes.append(repairs.joined(separator: "; ")) }
        summary.addSkipped(parse.skippedRecords, examples: parse.skippedExamples, at: location)
        return summary
    }
}
