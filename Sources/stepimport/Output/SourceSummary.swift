import DisplayText
import HealthDays

/// The summary line that names the sources: each with the records it was handed in and the days
/// it won (the highest-source rule's winner), the most records first.
///
/// The same for every format. An export with many sources (a phone that synced a dozen apps)
/// keeps to one line: the first `shown`, then the rest added up (when they are two or more).
enum SourceSummary {
    /// Sources named before the rest are added up.
    static let shown = 5

    /// nil when no source was handed a record.
    static func line(_ sources: [SourceRecordCount], days: [DayTotal]) -> String? {
        guard !sources.isEmpty else { return nil }
        var won: [String: Int] = [:]
        for day in days { won[day.source, default: 0] += 1 }
        let ranked = sources.sorted { lhs, rhs in
            lhs.records != rhs.records ? lhs.records > rhs.records : lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
        }
        // One more than `shown` takes no more room named than added up.
        let named = ranked.count <= shown + 1 ? ranked.count : shown
        var parts = ranked.prefix(named).map { source in
            "\(source.source.escapingControlCharacters()) (\(counts(records: source.records, won: won[source.source] ?? 0)))"
        }
        let rest = ranked.dropFirst(named)
        if !rest.isEmpty {
            let records = rest.reduce(0) { $0 + $1.records }
            let days = rest.reduce(0) { $0 + (won[$1.source] ?? 0) }
            parts.append("and \(rest.count) more (\(counts(records: records, won: days)); --by-source shows them)")
        }
        return "\(Plural.count(sources.count, "source")): " + parts.joined(separator: ", ")
    }

    private static func counts(records: Int, won days: Int) -> String {
        "\(Plural.count(records, "record")), " + (days == 0 ? "won no day" : "won \(Plural.count(days, "day"))")
    }
}
