import ExportInput
import HealthDays

extension ExportFormatID {
    public static let recordCSV = ExportFormatID(rawValue: "recordCSV")
}

/// Record and day-total CSV, and Google Fit Takeout's CSVs given alone: `RecordCSVParser`, which
/// tells the layouts apart by their header.
enum RecordCSVReader: ExportReader {
    static let format = ExportFormat(id: .recordCSV, name: "record and day-total CSV", family: .android,
                                     metrics: MetricSet(Metric.allCases.filter { $0 != .heartRateVariability && $0 != .exercise }),
                                     forcedBy: "csv", accepted: "record or day-total CSV")

    /// Printable text (after a byte-order mark and white space, not `<`, `{` or `[`) whose first line
    /// holds a comma, or a semicolon or tab, which the CSV reader then names as the wrong separator.
    static func recognises(head: [UInt8], name: String?) -> Bool {
        let text = ContentHead.afterBOMAndSpace(head)
        guard let first = text.first, first != UInt8(ascii: "<"), first != UInt8(ascii: "{"), first != UInt8(ascii: "[")
        else { return false }
        let firstLine = text.prefix(while: { $0 != 0x0A && $0 != 0x0D })
        let printable = !firstLine.contains(where: { $0 < 0x20 && $0 != 0x09 })
        let separated = firstLine.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == 0x09 }
        return printable && separated
    }

    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        try readCSV(input.stream, name: input.name, in: &session)
    }

    /// Streams one CSV file through the parser; its name tells Takeout's per-day files.
    static func readCSV(_ stream: ByteStream, name: String?, in session: inout ReadSession) throws(ExportError) {
        let parser = RecordCSVParser(sink: session.sink, invalidRecords: session.policy, fileName: name,
                                   metrics: session.metrics)
        try session.pump(stream, through: parser, grammar: "CSV")
    }
}
