import ExportInput
import HealthDays

extension ExportFormatID {
    public static let googleFitTakeout = ExportFormatID(rawValue: "googleFitTakeout")
}

/// Google Fit's part of a Google Takeout (the zip, the `Takeout` folder or `Fit/` given itself):
/// one of its three copies of the steps (`TakeoutPlan`), never two added together.
enum GoogleFitTakeoutReader: ExportReader {
    static let format = ExportFormat(id: .googleFitTakeout, name: "Google Fit Takeout", service: "Google Fit",
                                     family: .android,
                                     metrics: MetricSet([.steps, .distance, .totalEnergy, .moveMinutes, .heartPoints,
                                                         .heartRate, .sleep]),
                                     accepted: "Google Fit Takeout (zip, folder, daily summary CSV, per-day CSVs, estimated_steps JSON)")

    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool {
        let members = container.members
        guard let plan = TakeoutPlan.choose(members.map(\.name), inFolderNamed: folderName) else { return false }
        session.claim(plan.files + plan.ignored)
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = plan.files.compactMap { byName[$0] }
        var otherStreams: [String] = []
        var part = plan.tier.part
        if session.inventory != nil {
            try takeStock(of: plan, byName, folderName: folderName, in: &session)
        }
        if plan.tier == .rawStreams {
            // The estimated_steps stream matches Fit's totals; without it, merge_step_deltas comes
            // nearest. The file names do not say which is which: their "Data Source" does.
            var estimated: [InputMember] = []
            var merged: [InputMember] = []
            for member in chosen {
                switch try stream(of: member) {
                case .estimated: estimated.append(member)
                case .merged: merged.append(member)
                case .other: otherStreams.append(member.name)
                }
            }
            if estimated.isEmpty && !merged.isEmpty {
                part = "merge_step_deltas stream (there is no estimated_steps stream)"
                otherStreams += merged.dropFirst().map(\.name)
                estimated = Array(merged.prefix(1))
            } else {
                otherStreams += merged.map(\.name)
            }
            guard !estimated.isEmpty else {
                throw ExportError.notAnExport(container.location, expected: .android,
                                              found: "its Google Fit step streams are neither estimated_steps nor merge_step_deltas (\(otherStreams.joined(separator: ", ")))",
                                              remedy: .useEstimatedSteps)
            }
            chosen = estimated
        }
        session.plannedTotal = chosen.reduce(0) { $0 + $1.size }
        for member in chosen {
            if member.name.lowercased().hasSuffix(".json") {
                try AppDumpJSONReader.readDump(try member.open(), in: &session)
            } else {
                try RecordCSVReader.readCSV(try member.open(), name: member.name, in: &session)
            }
        }
        session.summary.format = part == plan.tier.part ? plan.tier.rawValue : "Google Fit Takeout merge_step_deltas stream"
        let ignored = plan.ignored + otherStreams
        if !ignored.isEmpty {
            session.summary.notes.append("Takeout: read the \(part); \(Plural.count(ignored.count, "other step file")) left out, as they hold the same steps again (never added together)")
        }
        return true
    }

    /// Notes which of Takeout's copies of the steps are present (the streams' heads say which
    /// stream each holds), and which is read.
    private static func takeStock(of plan: TakeoutPlan, _ byName: [String: InputMember], folderName: String?,
                                  in session: inout ReadSession) throws(ExportError) {
        var parts = ExportInventory.TakeoutParts()
        for name in plan.files + plan.ignored {
            switch TakeoutPlan.part(of: name, inFolderNamed: folderName) {
            case .dailySummary: parts.dailySummaries.append(name)
            case .perDayCSV: parts.perDayCSVs.append(name)
            case .stepStream:
                if let member = byName[name], try holdsEstimatedSteps(member) {
                    parts.estimatedStepsStreams.append(name)
                } else {
                    parts.otherStreams.append(name)
                }
            case nil: break
            }
        }
        parts.read = plan.tier.part
        session.inventory?.takeout = parts
    }

    /// Which of Fit's step streams a Takeout file holds, as its `"Data Source"` says in its first bytes.
    enum Stream { case estimated, merged, other }

    static func stream(of member: InputMember) throws(ExportError) -> Stream {
        let head = String(decoding: try member.head(ReadSession.headLength), as: UTF8.self)
        if head.contains(":estimated_steps\"") { return .estimated }
        if head.contains(":merge_step_deltas\"") { return .merged }
        return .other
    }

    /// Whether a Takeout step stream holds `estimated_steps`, the one that matches Fit's totals.
    static func holdsEstimatedSteps(_ member: InputMember) throws(ExportError) -> Bool {
        try stream(of: member) == .estimated
    }
}

extension TakeoutPlan.Tier {
    /// The part read, in a few words: "daily summary", "per-day CSVs", "estimated_steps stream".
    var part: String {
        switch self {
        case .dailySummary: return "daily summary"
        case .perDayCSVs: return "per-day CSVs"
        case .rawStreams: return "estimated_steps stream"
        }
    }
}
