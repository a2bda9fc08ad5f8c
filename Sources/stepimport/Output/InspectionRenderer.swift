import BackendUpload
import DisplayText
import ExportParsers
import HealthDays
import StreamingText

/// Renders what `stepimport inspect` found: sections for people, or one JSON object for scripts
/// (its shape is in the README).
struct InspectionRenderer {
    let inspection: Inspection

    init(_ inspection: Inspection) {
        self.inspection = inspection
    }

    private var summary: ImportSummary { inspection.result.summary }
    private var inventory: ExportInventory { inspection.inventory }

    // MARK: - Table

    func table() -> String {
        var out = ""
        func line(_ label: String, _ value: String) {
            out += pad(label, 16) + value + "\n"
        }
        line("Format", summary.format.escapingControlCharacters())
        for location in summary.locations {
            line(location == summary.locations.first ? "Found in" : "",
                 "\(location) (\(ContainerWords.place(of: location, given: inspection.path)))")
        }
        if let apple = inventory.apple {
            line("Locale", apple.locale.map { $0.escapingControlCharacters() } ?? "(none)")
            line("Export date", apple.exportDate.map { $0.escapingControlCharacters() } ?? "(none)")
            line("HealthKit", apple.healthKitExportVersion.map { "export version \($0.escapingControlCharacters())" }
                 ?? "export version not stated")
        }
        if let database = inventory.database {
            line("user_version", "\(database.userVersion)")
            line("Tables", "\(database.tables.count): " + database.tables.joined(separator: ", ").escapingControlCharacters())
        }
        if let takeout = inventory.takeout {
            line("Takeout", "read the \(takeout.read)")
            line("", "daily summaries: " + names(takeout.dailySummaries))
            line("", "per-day CSVs: \(takeout.perDayCSVs.count)")
            line("", "estimated_steps streams: " + names(takeout.estimatedStepsStreams))
            if !takeout.otherStreams.isEmpty {
                line("", "other step streams (never read): " + names(takeout.otherStreams))
            }
        }

        out += "\nRecord types\n"
        if inventory.recordTypes.isEmpty {
            out += "  (none)\n"
        } else {
            let rows = inventory.recordTypes.map { type in
                [type.kind == type.name ? type.name : "\(type.kind): \(type.name)", String(type.count)]
            }
            out += grid(["Type", "Records"], rows, rightAligned: [1])
        }

        out += "\nStep sources\n"
        if inspection.sources.isEmpty {
            out += "  (none)\n"
        } else {
            // The day totals' column only where an export gives day totals (Takeout, day-total CSV and JSON).
            let dayTotals = inspection.sources.contains { $0.dayTotals > 0 }
            let rows = inspection.sources.map { source in
                [source.name, String(source.samples)] + (dayTotals ? [String(source.dayTotals)] : [])
                    + [source.firstDay.map(String.init(describing:)) ?? "-", source.lastDay.map(String.init(describing:)) ?? "-"]
            }
            out += grid(["Source", "Records"] + (dayTotals ? ["Day totals"] : []) + ["First day", "Last day"], rows,
                        rightAligned: dayTotals ? [1, 2] : [1])
        }

        out += "\nUTC offsets\n"
        if inspection.offsets.isEmpty && inspection.withoutOffset == 0 {
            out += "  (none)\n"
        } else {
            var rows = inspection.offsets.map { [OffsetText.format($0.seconds), String($0.samples)] }
            if inspection.withoutOffset > 0 { rows.append(["none (taken as UTC)", String(inspection.withoutOffset)]) }
            out += grid(["Offset", "Samples"], rows, rightAligned: [1])
        }
        if let offset = inspection.exportTimeOffset {
            out += "  Hint: " + ExportTimeOffsetWords.hint(offset) + ".\n"
        }

        let statistics = inspection.statistics
        out += "\n"
        line("Duplicates", "\(Plural.count(statistics.duplicates, "exact duplicate")) counted once, of \(statistics.samples) handed to the day rules")
        if let first = inspection.days.first, let last = inspection.days.last {
            line("Days", "\(Plural.count(inspection.days.count, "day")) with steps, \(first.date) to \(last.date) (\(inspection.zone.words))")
        } else {
            line("Days", "no days with steps")
        }
        if inspection.refused.isEmpty {
            line("Refused days", "none")
        } else {
            line("Refused days", "\(inspection.refused.count) the server would refuse or that cannot be true:")
            out += grid(["Date", "Steps", "Why"], inspection.refused.map { [String(describing: $0.day.date), String($0.day.steps), $0.refusal.words(for: $0.day)] },
                        rightAligned: [1])
        }
        return out
    }

    private func names(_ list: [String]) -> String {
        list.isEmpty ? "none" : list.joined(separator: ", ").escapingControlCharacters()
    }

    /// An indented table with a header (the one table layout, `TextTable`); cells from files have
    /// their control characters escaped.
    private func grid(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
        var table = TextTable(header, rightAligned: rightAligned, indent: "  ")
        for row in rows { table.add(row.map { $0.escapingControlCharacters() }) }
        return table.rendered
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    // MARK: - JSON

    func json() -> String {
        var fields: [String] = []
        func field(_ name: String, _ value: String) { fields.append("\"\(name)\":\(value)") }
        func string(_ text: String?) -> String { text.map(JSONString.literal) ?? "null" }
        func date(_ day: LocalDate?) -> String { day.map { "\"\($0)\"" } ?? "null" }

        field("kind", inspection.result.family == .appleHealth ? "\"appleHealth\"" : "\"healthConnect\"")
        field("format", string(summary.format))
        field("locations", "[" + summary.locations.map { location in
            "{\"path\":\(string(location.path)),\"entries\":[\(location.entries.map(JSONString.literal).joined(separator: ","))],"
                + "\"place\":\(string(ContainerWords.place(of: location, given: inspection.path)))}"
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
                + "\"firstDay\":\(date(source.firstDay)),\"lastDay\":\(date(source.lastDay))}"
        }.joined(separator: ",") + "]")
        field("offsets", "[" + inspection.offsets.map { offset in
            "{\"offset\":\"\(OffsetText.format(offset.seconds))\",\"seconds\":\(offset.seconds),\"samples\":\(offset.samples)}"
        }.joined(separator: ",") + "]")
        field("withoutOffset", String(inspection.withoutOffset))
        field("exportTimeOffset", inspection.exportTimeOffset.map { "\"\(OffsetText.format($0))\"" } ?? "null")
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
        return "{" + fields.joined(separator: ",") + "}\n"
    }
}

extension ZoneRule {
    /// The zone for scripts: an IANA name, or `recordedOffset`.
    var jsonName: String {
        switch self {
        case .zone(let zone): return zone.identifier
        case .recordedOffset: return "recordedOffset"
        }
    }
}
