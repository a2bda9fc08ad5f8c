import BackendUpload
import ExportParsers
import HealthDays
import StreamingText

/// `inspect --format json`: one object for scripts (its shape is in docs/guide.md).
extension JSONWriter {
    public func writeInspection(_ inspection: Inspection, to sink: any OutputSink) throws(OutputError) {
        let summary = inspection.result.summary
        let inventory = inspection.inventory
        var fields: [String] = []
        func field(_ name: String, _ value: String) { fields.append("\"\(name)\":\(value)") }
        func string(_ text: String?) -> String { text.map(JSONString.literal) ?? "null" }
        func date(_ day: LocalDate?) -> String { day.map { "\"\($0)\"" } ?? "null" }

        field("kind", inspection.result.family == .appleHealth ? "\"appleHealth\"" : "\"healthConnect\"")
        field("format", string(summary.format))
        field("locations", "[" + zip(summary.locations, inspection.places).map { location, place in
            "{\"path\":\(string(location.path)),\"entries\":[\(location.entries.map(JSONString.literal).joined(separator: ","))],"
                + "\"place\":\(string(place))}"
        }.joined(separator: ",") + "]")
        field("apple", inventory.apple.map { apple in
            "{\"locale\":\(string(apple.locale)),\"exportDate\":\(string(apple.exportDate)),"
                + "\"healthKitExportVersion\":\(string(apple.healthKitExportVersion))}"
        } ?? "null")
        field("database", inventory.database.map { database in
            "{\"userVersion\":\(database.userVersion),\"tables\":[\(database.tables.map(JSONString.literal).joined(separator: ","))]}"
        } ?? "null")
        field("takeout", inventory.takeout.map { takeout in
            func list(_ names: [String]) -> String { "[" + names.map(JSONString.literal).joined(separator: ",") + "]" }
            return "{\"read\":\(string(takeout.read)),\"dailySummaries\":\(list(takeout.dailySummaries)),"
                + "\"perDayCSVs\":\(list(takeout.perDayCSVs)),\"estimatedStepsStreams\":\(list(takeout.estimatedStepsStreams)),"
                + "\"otherStreams\":\(list(takeout.otherStreams))}"
        } ?? "null")
        field("recordTypes", "[" + inventory.recordTypes.map { type in
            "{\"kind\":\(string(type.kind)),\"name\":\(string(type.name)),\"count\":\(type.count)}"
        }.joined(separator: ",") + "]")
        field("sources", "[" + inspection.sources.map { source in
            "{\"name\":\(string(source.name)),\"records\":\(source.samples),\"dayTotals\":\(source.dayTotals),"
                + "\"enteredByHand\":{\"records\":\(source.enteredByHand),\"steps\":\(Int(source.stepsEnteredByHand.rounded()))},"
                + "\"firstDay\":\(date(source.firstDay)),\"lastDay\":\(date(source.lastDay))}"
        }.joined(separator: ",") + "]")
        field("offsets", "[" + inspection.offsets.map { offset in
            "{\"offset\":\"\(OffsetText.format(offset.seconds))\",\"seconds\":\(offset.seconds),\"samples\":\(offset.samples)}"
        }.joined(separator: ",") + "]")
        field("withoutOffset", String(inspection.withoutOffset))
        field("exportTimeOffset", inspection.exportTimeOffset.map { "\"\(OffsetText.format($0.offset))\"" } ?? "null")
        field("clockChange", inspection.exportTimeOffset.map {
            "{\"date\":\"\($0.change.date)\",\"zone\":\(JSONString.literal($0.change.zone))}"
        } ?? "null")
        let statistics = inspection.statistics
        field("stepRecords", String(statistics.samples))
        field("duplicates", String(statistics.duplicates))
        field("days", "{\"count\":\(inspection.days.count),\"first\":\(date(inspection.days.first?.date)),"
                + "\"last\":\(date(inspection.days.last?.date))}")
        field("zone", string(inspection.zone.jsonName))
        field("refusedDays", "[" + inspection.refused.map { entry in
            "{\"date\":\"\(entry.day.date)\",\"steps\":\(entry.day.steps),\"reason\":\"\(entry.refusal.code)\","
                + "\"words\":\(string(entry.refusal.words(for: entry.day)))}"
        }.joined(separator: ",") + "]")
        try sink.write("{" + fields.joined(separator: ",") + "}\n")
    }
}

extension ZoneRule {
    /// The zone for scripts: an IANA name, or `recordedOffset`.
    public var jsonName: String {
        switch self {
        case .zone(let zone): return zone.identifier
        case .recordedOffset: return "recordedOffset"
        }
    }
}
