import HealthDays
extension StepCSVParser: SummarizingParser {
    /// The layout in words, e.g. "Google Fit Takeout daily summary CSV".
    var formatName: String {
        statistics.layout?.description ?? "CSV"
    }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        summary.stepRecords += statistics.samples + statistics.dayTotals
        summary.addSkipped(statistics.skipped, at: location)
        let empty = statistics.emptyCounts
        guard empty > 0 else { return }
        switch statistics.layout {
        case .takeoutDailySummary:
            summary.notes.append("\(location): \(empty) day\(empty == 1 ? "" : "s") without a step count (no data that day)")
        case .stepRecords, .dailyTotals:
            summary.notes.append("\(location): \(empty) row\(empty == 1 ? "" : "s") with an empty step count left out")
        case .takeoutPerDay, nil:
            // Most 15-minute buckets of a day are empty: not worth a line per file.
            break
        }
    }
}

extension StepCSVParser {
    /// The rows recognised, under the layout found: step records or day totals.
    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: "step records", count: statistics.samples)
        inventory.add(kind: formatName, name: "day totals", count: statistics.dayTotals)
    }
}
