import ExportInput
import HealthDays

extension ExportFormatID {
    public static let appDumpJSON = ExportFormatID(rawValue: "appDumpJSON")
}

/// JSON dumps of Health Connect and Google Fit data by apps (react-native-health-connect, HCGateway,
/// Capacitor, Flutter health, record arrays, day totals), and Google Fit Takeout's raw step
/// streams given alone: `AppDumpJSONParser`.
enum AppDumpJSONReader: ExportReader {
    static let format = ExportFormat(id: .appDumpJSON, name: "app JSON dumps", family: .android,
                                     metrics: HealthConnectDatabaseReader.appMetrics, forcedBy: "json", marksHandEntries: true,
                                     accepted: "JSON dumps (react-native-health-connect, HCGateway, Capacitor, Flutter health, "
                                         + "record arrays, day totals)")

    /// `{` or `[` after a byte-order mark and white space.
    static func recognises(head: [UInt8], name: String?) -> Bool {
        let first = ContentHead.afterBOMAndSpace(head).first
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        try readDump(input.stream, in: &session)
    }

    /// Streams one JSON dump through the parser.
    static func readDump(_ stream: ByteStream, in session: inout ReadSession) throws(ExportError) {
        let parser = AppDumpJSONParser(sink: session.sink, invalidRecords: session.policy, metrics: session.metrics)
        try session.pump(stream, through: parser, grammar: "JSON")
    }
}
