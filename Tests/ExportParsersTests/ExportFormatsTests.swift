import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import TestSupport

/// The table of formats: one row per format, the lists derived from it, and the readers it picks.
@Suite struct ExportFormatsTests {
    @Test func everyFormatHasOneRowAndAFamily() {
        let ids = ExportFormats.all.map(\.id)
        #expect(Set(ids).count == ids.count, "an id names one row")
        #expect(ids == [.appleHealthXML, .healthConnectDatabase, .googleFitTakeout, .fitbitTakeout, .samsungHealth, .appDumpJSON,
                        .recordCSV])
        for family in ExportFamily.allCases {
            #expect(ExportFormats.all.contains { $0.family == family }, "\(family) has a format")
        }
        #expect(ExportFormats.format(.fitbitTakeout)?.service == "Fitbit")
        #expect(ExportFormats.format(ExportFormatID(rawValue: "none")) == nil)
    }

    /// `--metric all` of each command: the union of its formats' metrics (docs/metrics.md).
    @Test func aFamilysMetricsAreItsFormats() {
        let apple = Set(ExportFamily.appleHealth.metrics.metrics)
        #expect(apple == Set(Metric.allCases).subtracting([.heartRateVariabilityRMSSD, .totalEnergy, .moveMinutes, .heartPoints]))
        let android = Set(ExportFamily.android.metrics.metrics)
        #expect(android == Set(Metric.allCases).subtracting([.heartRateVariability, .exercise]))
        #expect(ExportFormats.format(.fitbitTakeout)?.metrics.contains(.moveMinutes) == false)
    }

    @Test func commandsAndBatchKindsComeFromTheFamilies() {
        #expect(ExportFamily.allCases.map(\.command) == ["apple", "hc"])
        #expect(ExportFamily(command: "hc") == .android)
        #expect(ExportFamily(command: "auto") == nil)
        #expect(ExportChoice.words == ["apple", "hc", "auto"])
        #expect(ExportChoice(word: "HC") == .family(.android))
        #expect(ExportChoice(word: "auto") == .auto)
        #expect(ExportChoice(word: "samsung") == nil)
        #expect(ExportFormats.forcingWords(of: .android) == ["sqlite", "json", "csv"])
        #expect(ExportFormats.forcingWords(of: .appleHealth).isEmpty)
    }

    /// A plain file goes to the first reader of the table that recognises its first bytes.
    @Test(arguments: [
        ("SQLite format 3\u{0}rest", ExportFormatID.healthConnectDatabase),
        ("[{\"dateTime\":\"01/02/24 00:00:00\",\"value\":\"12\"}]", .fitbitTakeout),
        ("\u{FEFF}  {\"steps\":[]}", .appDumpJSON),
        ("[]", .appDumpJSON),
        ("\u{FEFF}com.samsung.shealth.step_daily_trend,6307003,6\nbinning_data,day_time\n", .samsungHealth),
        ("com.samsung.health.heart_rate,6307003,3\r\n", .samsungHealth),
        ("date,steps\n2024-01-01,10\n", .recordCSV),
        ("date;steps\n", .recordCSV),
        ("<?xml version=\"1.0\"?><HealthData locale=\"en\">", .appleHealthXML),
    ])
    func aFileGoesToTheFirstReaderThatKnowsIt(_ text: String, _ expected: ExportFormatID) {
        let head = Array(text.utf8)
        let reader = ExportFormats.readers.first { $0.recognises(head: head, name: "file") }
        #expect(reader?.format.id == expected)
    }

    @Test(arguments: ["", "   ", "<root/>", "plain words", "\u{1}binary,data"])
    func noReaderTakesWhatIsNoFormat(_ text: String) {
        let head = Array(text.utf8)
        #expect(!ExportFormats.readers.contains { $0.recognises(head: head, name: "file") })
    }

    /// `--input-format sqlite` forces a member of a folder to be read as a database: a clear error
    /// for a JSON file, never a trap.
    @Test func aForcedFormatReadsAFoldersMembersAsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("[{\"a\":1}]".utf8).write(to: URL(fileURLWithPath: folder + "/x.json"))
        #expect {
            try ExportImporter.open(path: folder, as: .family(.android, forcing: "sqlite")).read(into: SampleCollector())
        } throws: { error in
            guard case .notAnExport(let location, .android, let found, _) = error as? ExportError else { return false }
            return location.path.hasSuffix("x.json") && found.contains("not an SQLite database")
        }
    }

    /// The remedy for another family's file names that family's format.
    @Test func anAppleFileReadAsAndroidNamesTheAppleFormat() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/export.xml"
        try Data("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n</HealthData>\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try ExportImporter.open(path: path, as: .family(.android)).read(into: SampleCollector())
        } throws: { error in
            (error as? ExportError)?.remedy == .useReader(for: .appleHealthXML, inArchive: false)
        }
        let found = try ExportImporter.open(path: path, as: .auto)
        #expect(found.family == .appleHealth)
    }
}
