import HealthDays

extension ExportFormatID {
    public static let appleHealthXML = ExportFormatID(rawValue: "appleHealthXML")
}

/// Apple Health's export (`export.zip`, `export.xml`, the unpacked folder): its row of the table.
/// The export XML is found in a zip or folder by `AppleExportLocator` and read by `AppleHealthImport`.
enum AppleHealthReader: ExportReader {
    static let format = ExportFormat(id: .appleHealthXML, name: "Apple Health XML", family: .appleHealth,
                                     metrics: MetricSet(Metric.allCases.filter {
                                         ![.heartRateVariabilityRMSSD, .totalEnergy, .moveMinutes, .heartPoints].contains($0)
                                     }), marksHandEntries: true)

    /// XML (after a byte-order mark and white space) with Apple's DOCTYPE or root in its first bytes.
    static func recognises(head: [UInt8], name: String?) -> Bool {
        AppleExportLocator.looksLikeXML(head) && AppleExportLocator.looksLikeHealthXML(head)
    }
}
