import HealthDays
/// How a JSON read reads in the import report.
extension AppDumpJSONParser: SummarizingParser {
    /// The shapes found, e.g. "react-native-health-connect JSON".
    var formatName: String {
        let shapes = statistics.shapes
        guard !shapes.isEmpty else { return "JSON" }
        return shapes.map {
            switch $0 {
            case .googleFitEstimatedSteps: return "Google Fit Takeout estimated_steps JSON"
            case .googleFitMergedSteps: return "Google Fit Takeout merge_step_deltas JSON"
            default: return "\($0) JSON"
            }
        }
            .joined(separator: ", ")
    }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        let statistics = self.statistics
        summary.stepRecords += statistics.stepRecords + statistics.dayTotals
        summary.otherRecords += statistics.otherTypeRecords
        summary.addSkipped(statistics.skipped, at: location)
        if statistics.otherTypeRecords > 0 {
            summary.notes.append(.fact("\(location): \(Plural.count(statistics.otherTypeRecords, "record")) of other types "
                                       + "(not steps) left out"))
        }
        if statistics.untypedEnergyRecords > 0 {
            summary.notes.append(.fact("\(location): \(Plural.count(statistics.untypedEnergyRecords, "energy record")) left out: "
                                       + "they do not say whether they are active or total calories (react-native and "
                                       + "HCGateway write both alike); put each type's records under a member named "
                                       + "ActiveCaloriesBurned or TotalCaloriesBurned"))
        }
        if statistics.shapes.contains(.googleFitMergedSteps) {
            summary.notes.append(.fact("\(location): Google Fit's merge_step_deltas stream read; Google Fit's own totals "
                                       + "come from its estimated_steps stream (or the daily summary CSV) and may differ on some days"))
        }
        // Records with no offset are reported by the aggregation, for every format alike.
        if statistics.wallClock > 0 {
            summary.notes.append(.wallClockRecords(location, count: statistics.wallClock))
        }
    }

}

extension AppDumpJSONParser {
    /// Google Fit Takeout's step stream holds steps alone; the app dumps hold every metric.
    var givesStepsOnly: Bool {
        statistics.shapes.contains(.googleFitEstimatedSteps) || statistics.shapes.contains(.googleFitMergedSteps)
    }

    /// The records recognised, under the shapes found: step records, day totals, and records of
    /// other types (read past, never counted).
    func takeStock(into inventory: inout ExportInventory) {
        let statistics = self.statistics
        inventory.add(kind: formatName, name: "step records", count: statistics.stepRecords)
        inventory.add(kind: formatName, name: "day totals", count: statistics.dayTotals)
        inventory.add(kind: formatName, name: "records of other types", count: statistics.otherTypeRecords)
    }
}
