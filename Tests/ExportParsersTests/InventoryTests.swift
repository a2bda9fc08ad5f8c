import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// `ImportOptions.takesInventory`: the Apple census (every top-level type, the export date, the
/// HealthKit export version), the same on one thread and in pieces, and off by default; the
/// inventory of a Health Connect database, a JSON dump and a Takeout folder.
@Suite struct InventoryTests {
    static let document = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 14 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
    <!ATTLIST VisionPrescription
      type CDATA #REQUIRED
    ]>
    <HealthData locale="fr_FR">
     <ExportDate value="2024-04-29 19:12:43 +0200"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:00:00 +0100" value="61">
      <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
     </Record>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:05:00 +0100" value="47"/>
     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-01-01 11:00:00 +0100" endDate="2024-01-01 11:00:00 +0100" value="70"/>
     <Record sourceName="Odd" unit="count" startDate="2024-01-01 11:00:00 +0100" endDate="2024-01-01 11:00:00 +0100" value="1"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="Watch" startDate="2024-01-01 12:00:00 +0100" endDate="2024-01-01 12:30:00 +0100">
      <WorkoutStatistics type="HKQuantityTypeIdentifierStepCount" sum="3000"/>
     </Workout>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-03-31 23:50:00 +0200" endDate="2024-04-01 00:10:00 +0200" value="100"/>
     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100">
      <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100" value="120"/>
     </Correlation>
     <ActivitySummary dateComponents="2024-01-01" activeEnergyBurned="300"/>
     <ActivitySummary dateComponents="2024-01-02" activeEnergyBurned="280"/>
     <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100" value="120"/>
    </HealthData>

    """

    static let expectedTypes: [ExportInventory.RecordType] = [
        .init(kind: "Record", name: "HKQuantityTypeIdentifierHeartRate", count: 2),
        .init(kind: "Record", name: "HKQuantityTypeIdentifierStepCount", count: 2),
        .init(kind: "Record", name: "(no type)", count: 1),
        .init(kind: "Record", name: "HKQuantityTypeIdentifierBloodPressureSystolic", count: 1),
        .init(kind: "Workout", name: "Workout", count: 1),
        .init(kind: "Correlation", name: "Correlation", count: 1),
        .init(kind: "ActivitySummary", name: "ActivitySummary", count: 2),
    ]

    static func summary(workers: Int?, pieceSize: Int = 1 << 18, takesInventory: Bool = true, selects: Bool = false,
                        document: String = document, counts: PieceCounts? = nil) throws -> AppleImportSummary {
        let bytes = Array(document.utf8)
        let sink = SampleCollector()
        if let workers {
            return try AppleHealthImport.readInPieces(MemoryStream(bytes, readSize: 64), into: sink, invalidRecords: .fail,
                                                      workers: workers, pieceSize: pieceSize, counts: counts,
                                                      takesCensus: takesInventory, selectsRecords: selects, progress: nil)
        }
        return try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: .fail,
                                                      takesCensus: takesInventory, progress: nil)
    }

    @Test func appleCensusCountsEveryTopLevelType() throws {
        let summary = try Self.summary(workers: nil)
        let inventory = summary.inventory
        // Records in record order of first appearance, then the other elements; ExportDate and Me
        // are facts, not records; the Record inside the Correlation is not counted.
        let sorted = inventory.recordTypes.filter { $0.kind == "Record" } + inventory.recordTypes.filter { $0.kind != "Record" }
        #expect(sorted == Self.expectedTypes)
        #expect(inventory.apple == ExportInventory.AppleMetadata(locale: "fr_FR", exportDate: "2024-04-29 19:12:43 +0200",
                                                                 healthKitExportVersion: "14"))
        #expect(summary.parse.records == 6)
        #expect(summary.parse.stepRecords == 2)
    }

    @Test(arguments: [40, 120, 300, 700, 5000])
    func piecesGiveTheSameCensus(pieceSize: Int) throws {
        let single = try Self.summary(workers: nil)
        let pieces = try Self.summary(workers: 2, pieceSize: pieceSize)
        #expect(pieces.parse.census == single.parse.census)
        #expect(pieces.healthKitExportVersion == "14")
        #expect(pieces.inventory == single.inventory)
    }

    /// The selection counts the records it leaves out and every other child of the root in
    /// document order; what it cannot count as libxml2 does (the export date, a record without a
    /// plain type) makes libxml2 read that piece whole. Either way, the census of one parser.
    @Test(arguments: [40, 120, 300, 700, 5000])
    func selectionGivesTheSameCensus(pieceSize: Int) throws {
        let single = try Self.summary(workers: nil)
        let selected = try Self.summary(workers: 2, pieceSize: pieceSize, selects: true)
        #expect(selected.parse.census == single.parse.census)
        #expect(selected.inventory == single.inventory)
        #expect(selected.parse.records == single.parse.records)
    }

    @Test(arguments: UInt64(1)...8)
    func selectionGivesTheSameCensusOfGeneratedExports(seed: UInt64) throws {
        for (plain, children) in [(false, false), (true, false), (true, true)] {
            var generator = ExportGenerator(seed: seed)
            generator.appleIndent = plain
            generator.plainRecords = plain
            generator.recordsWithChildren = children
            let document = generator.document(elements: 400)
            let single = try Self.summary(workers: nil, document: document)
            for pieceSize in [150, 1000, 4000] {
                let counts = PieceCounts()
                let selected = try Self.summary(workers: 2, pieceSize: pieceSize, selects: true, document: document,
                                                counts: counts)
                #expect(selected.parse.census == single.parse.census, "seed \(seed), plain \(plain), pieces of \(pieceSize)")
                #expect(selected.parse.records == single.parse.records)
                if plain && pieceSize == 1000 {
                    #expect(counts.recordsReadDirectly > 20, "seed \(seed): the selection read records and counted")
                }
            }
        }
    }

    @Test func noCensusUnlessAsked() throws {
        #expect(try Self.summary(workers: nil, takesInventory: false).parse.census == nil)
        #expect(try Self.summary(workers: 2, pieceSize: 100, takesInventory: false).parse.census == nil)
        // The version comes from the prefilter, which runs either way.
        #expect(try Self.summary(workers: nil, takesInventory: false).healthKitExportVersion == "14")
    }

    @Test func importerCarriesTheInventoryOnlyWhenAsked() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("samples/export.zip").path
        let plain = try ExportImporter.open(path: path, as: .auto).read(into: SampleCollector())
        #expect(plain.inventory == nil)
        let taken = try ExportImporter.open(path: path, as: .auto).read(into: SampleCollector(),
                                                                        options: ImportOptions(takesInventory: true))
        #expect(taken.family == .appleHealth)
        #expect(taken.inventory?.apple?.healthKitExportVersion == "13")
        #expect(taken.inventory?.recordTypes.first { $0.name == "HKQuantityTypeIdentifierStepCount" }?.count
                == taken.summary.stepRecords)
    }

    // MARK: - Health Connect and Takeout

    @Test func databaseInventoryListsTablesAndRecordTableRows() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("samples/Health Connect.zip").path
        let result = try ExportImporter.open(path: path, as: .auto).read(into: SampleCollector(),
                                                                         options: ImportOptions(takesInventory: true))
        #expect(result.family == .android)
        let inventory = try #require(result.inventory)
        #expect(inventory.database == ExportInventory.DatabaseMetadata(
            userVersion: 20, tables: ["active_calories_burned_record_table", "application_info_table", "device_info_table",
                                      "distance_record_table", "exercise_session_record_table", "floors_climbed_record_table",
                                      "health_data_category_priority_table", "heart_rate_record_series_table",
                                      "heart_rate_record_table", "heart_rate_variability_rmssd_record_table",
                                      "resting_heart_rate_record_table", "sleep_session_record_table", "sleep_stages_table",
                                      "sqlite_sequence", "steps_record_table", "total_calories_burned_record_table",
                                      "vo2_max_record_table"]))
        // Every *_record_table, by name, with its rows (the series and stage tables are not record tables).
        #expect(inventory.recordTypes.map(\.name) == ["active_calories_burned_record_table", "distance_record_table",
                                                     "exercise_session_record_table", "floors_climbed_record_table",
                                                     "heart_rate_record_table", "heart_rate_variability_rmssd_record_table",
                                                     "resting_heart_rate_record_table", "sleep_session_record_table",
                                                     "steps_record_table", "total_calories_burned_record_table",
                                                     "vo2_max_record_table"])
        #expect(inventory.recordTypes.allSatisfy { $0.kind == "table" && $0.count > 0 })
        #expect(inventory.recordTypes.first { $0.name == "steps_record_table" }?.count == result.summary.stepRecords)
        #expect(result.summary.stepRecords == 3116)
    }

    @Test func jsonInventoryNamesTheShape() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/dump.json"
        try Data("""
            {"records":[{"startTime":"2024-05-01T08:00:00Z","endTime":"2024-05-01T08:10:00Z","count":10,"metadata":{"dataOrigin":"a"}},
            {"startTime":"2024-05-01T09:00:00Z","endTime":"2024-05-01T09:10:00Z","count":5,"metadata":{"dataOrigin":"a"}}],"pageToken":null}
            """.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExportImporter.open(path: path, as: .auto).read(into: SampleCollector(),
                                                                         options: ImportOptions(takesInventory: true))
        #expect(result.inventory?.recordTypes == [.init(kind: "react-native-health-connect JSON", name: "step records", count: 2)])
        #expect(result.inventory?.apple == nil && result.inventory?.database == nil && result.inventory?.takeout == nil)
    }

    @Test func takeoutPartsSayWhatIsPresentAndWhatWasRead() throws {
        let folder = TemporaryFolder()
        let fit = folder.path + "/Takeout/Fit"
        try FileManager.default.createDirectory(atPath: fit + "/Daily activity metrics", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fit + "/All Data", withIntermediateDirectories: true)
        try Data("Date,Step count\n2024-05-01,100\n2024-05-02,\n".utf8)
            .write(to: URL(fileURLWithPath: fit + "/Daily activity metrics/Daily activity metrics.csv"))
        try Data("Start time,End time,Step count\n08:00:00.000+01:00,08:15:00.000+01:00,40\n".utf8)
            .write(to: URL(fileURLWithPath: fit + "/Daily activity metrics/2024-05-01.csv"))
        for (name, stream) in [("derived_com.google.step_count.delta_com.google.json", "top_level"),
                               ("derived_com.google.step_count.delta_com.google(1).json", "estimated_steps")] {
            try Data("""
                {"Data Source":"derived:com.google.step_count.delta:com.google.android.gms:\(stream)","Data Points":[]}
                """.utf8).write(to: URL(fileURLWithPath: fit + "/All Data/" + name))
        }
        let result = try ExportImporter.open(path: folder.path + "/Takeout", as: .auto)
            .read(into: SampleCollector(), options: ImportOptions(takesInventory: true))
        let parts = try #require(result.inventory?.takeout)
        #expect(parts.read == "daily summary")
        #expect(parts.dailySummaries == ["Fit/Daily activity metrics/Daily activity metrics.csv"])
        #expect(parts.perDayCSVs == ["Fit/Daily activity metrics/2024-05-01.csv"])
        #expect(parts.estimatedStepsStreams == ["Fit/All Data/derived_com.google.step_count.delta_com.google(1).json"])
        #expect(parts.otherStreams == ["Fit/All Data/derived_com.google.step_count.delta_com.google.json"])
        // Two columns: the CSV reader takes it for a day-total CSV (a real summary has 19 to 55).
        #expect(result.inventory?.recordTypes == [.init(kind: "day total CSV", name: "day totals", count: 1)])
    }
}

/// A folder for one test, removed when the test is done.
private final class TemporaryFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("inventory-test-\(UUID().uuidString)").path

    init() {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
