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
                                                         .heartRate, .sleep]))

    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool {
        let members = container.members
        guard let plan = TakeoutPlan.choose(members.map(\.name), inFolderNamed: folderName) else { return false }
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = plan.files.compactMap { byName[$0] }
        var otherStreams: [String] = []
        if session.inventory != nil {
            try takeStock(of: plan, byName, folderName: folderName, in: &session)
        }
        if plan.tier == .rawStreams {
            // Only the estimated_steps stream matches Fit's totals; the file names do not say which is which.
            var estimated: [InputMember] = []
            for member in chosen {
                if try holdsEstimatedSteps(member) {
                    estimated.append(member)
                } else {
                    otherStreams.append(member.name)
                }
            }
            guard !estimated.isEmpty else {
                throw ExportError.notAnExport(container.location, expected: .android,
                                              found: "its Google Fit step streams are all other than estimated_steps (\(otherStreams.joined(separator: ", ")))",
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
        session.summary.format = plan.tier.rawValue
        let ignored = plan.ignored + otherStreams
        if !ignored.isEmpty {
            session.summary.notes.append("Takeout: read the \(plan.tier.part); \(Plural.count(ignored.count, "other step file")) left out, as they hold the same steps again (never added together)")
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

    /// Whether a Takeout step stream holds `estimated_steps`, the one that matches Fit's totals:
    /// its `"Data Source"` says so in its first bytes.
    static func holdsEstimatedSteps(_ member: InputMember) throws(ExportError) -> Bool {
        let head = try member.head(ReadSession.headLength)
        return String(decoding: head, as: UTF8.self).contains(":estimated_steps\"")
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
