import HealthDays

/// What an export holds besides its step totals, for `stepimport inspect`: its records counted
/// by type, and the facts its format records about itself. Taken only when
/// `ImportOptions.takesInventory` asks; the executable words it.
public struct ExportInventory: Equatable, Sendable {
    /// Records of one type, as the format names it (an Apple `type` or element name, a Health
    /// Connect table, what a JSON or CSV reader recognised).
    public struct RecordType: Equatable, Sendable {
        /// Where the name comes from, e.g. `Record`, `Workout` (Apple), `table`, `JSON`, `CSV`.
        public let kind: String
        public let name: String
        public var count: Int

        public init(kind: String, name: String, count: Int) {
            self.kind = kind
            self.name = name
            self.count = count
        }
    }

    /// What an Apple Health export says about itself.
    public struct AppleMetadata: Equatable, Sendable {
        /// `<HealthData locale=...>`.
        public var locale: String?
        /// `<ExportDate value=...>`, as written.
        public var exportDate: String?
        /// The `HealthKit Export Version` in the DOCTYPE's comment.
        public var healthKitExportVersion: String?
    }

    /// What a Health Connect database holds.
    public struct DatabaseMetadata: Equatable, Sendable {
        /// `PRAGMA user_version`.
        public var userVersion: Int
        /// Every table, in name order.
        public var tables: [String]
    }

    /// Which of Google Fit Takeout's three copies of the steps are present, and which was read.
    public struct TakeoutParts: Equatable, Sendable {
        /// The daily summary CSVs (`Daily activity metrics.csv`, `Daily Summaries.csv`).
        public var dailySummaries: [String] = []
        /// The per-day `YYYY-MM-DD.csv` files.
        public var perDayCSVs: [String] = []
        /// The `derived_com.google.step_count.delta` JSON files holding `estimated_steps`.
        public var estimatedStepsStreams: [String] = []
        /// The other step streams (`top_level`, `merge_step_deltas`), never read; known only when
        /// the streams are what is read (their heads say which stream they hold).
        public var otherStreams: [String] = []
        /// What was read: "daily summary", "per-day CSVs" or "estimated_steps stream".
        public var read: String = ""
    }

    /// Every type seen, in order of first appearance.
    public var recordTypes: [RecordType] = []
    public var apple: AppleMetadata?
    public var database: DatabaseMetadata?
    public var takeout: TakeoutParts?

    public init() {}

    /// Adds `count` records of a type, to an entry already there or a new one.
    mutating func add(kind: String, name: String, count: Int) {
        guard count > 0 else { return }
        if let index = recordTypes.firstIndex(where: { $0.kind == kind && $0.name == name }) {
            recordTypes[index].count += count
        } else {
            recordTypes.append(RecordType(kind: kind, name: name, count: count))
        }
    }
}

extension AppleImportSummary {
    /// The inventory of an Apple export read with a census.
    var inventory: ExportInventory {
        var inventory = ExportInventory()
        inventory.apple = ExportInventory.AppleMetadata(locale: parse.locale, exportDate: parse.census?.exportDate,
                                                        healthKitExportVersion: healthKitExportVersion)
        for (type, count) in parse.census?.records ?? [] {
            inventory.add(kind: "Record", name: type, count: count)
        }
        for (name, count) in parse.census?.otherElements ?? [] {
            inventory.add(kind: name, name: name, count: count)
        }
        return inventory
    }
}
