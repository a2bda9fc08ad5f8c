import HealthDays
extension RecordCSVParser: SummarizingParser {
    /// The layout in words, e.g. "Google Fit Takeout daily summary CSV".
    var formatName: String {
        if statistics.layout == .stepRecords && columns.metric >= 0 { return "record CSV with a metric column" }
        return statistics.layout?.description ?? "CSV"
    }

    /// A CSV gives every metric its columns or rows hold (docs/metrics.md, *CSV*).
    var givesStepsOnly: Bool { false }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        summary.stepRecords += statistics.samples + statistics.dayTotals
        summary.addSkipped(statistics.skipped, at: location)
        summarizeMetrics(into: &summary, at: location)
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

extension RecordCSVParser {
    /// What the metric cells gave and left, when metrics beyond steps were asked for.
    private func summarizeMetrics(into summary: inout ImportSummary, at location: InputLocation) {
        let types = statistics.otherTypeRows
        if types > 0 {
            let shown = statistics.otherTypes.map { Self.quoted($0) }.joined(separator: ", ")
            summary.notes.append(.fact("\(location): \(types) record\(types == 1 ? "" : "s") of types no metric reads "
                + "left out (\(shown)\(types > statistics.otherTypes.count ? ", ..." : ""); the metrics are "
                + "\(Metric.allCases.map(\.name).joined(separator: ", ")), or Health Connect's record type names)"))
        }
        guard !metrics.isStepsOnly else { return }
        let other = statistics.otherMetricRows
        if other > 0 {
            summary.notes.append("\(location): \(other) record\(other == 1 ? "" : "s") of metrics not asked for (--metric) left out")
        }
        let layout = statistics.layout
        guard layout == .takeoutDailySummary || layout == .takeoutPerDay else { return }
        // Said once for all of a Takeout's files (a year of per-day files has the same header 365 times).
        func once(_ note: ImportNote) {
            if !summary.notes.contains(note) { summary.notes.append(note) }
        }
        let keys = Set(names.map(Self.normalized))
        if metrics.contains(.activeEnergy) && keys.contains("calories(kcal)") {
            once(.fact("Google Fit's \"Calories (kcal)\" include resting energy: they are total-energy (total_kcal), "
                + "never active-energy"))
        }
        let unread = statistics.unreadColumns
        if !unread.isEmpty {
            let shown = unread.prefix(6).map { "\"\($0)\"" }.joined(separator: ", ")
            once(.fact("\(unread.count) Google Fit column\(unread.count == 1 ? "" : "s") no metric reads: "
                + "\(shown)\(unread.count > 6 ? " and \(unread.count - 6) more" : "")"))
        }
    }

    /// The rows recognised, under the layout found: step records or day totals.
    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: "step records", count: statistics.samples)
        inventory.add(kind: formatName, name: "day totals", count: statistics.dayTotals)
        inventory.add(kind: formatName, name: "metric values", count: statistics.metricValues)
    }
}
