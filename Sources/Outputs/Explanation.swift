import DisplayText
import HealthDays

/// What `--explain DATE` shows: the library's `DayExplanation` of each metric asked for (steps
/// alone without `--metric`), and the zone rule in words.
public struct Explanation {
    public let days: [DayExplanation]
    /// Whether `--metric` asked for the metrics (the JSON then lists them, steps among them or not).
    public let byMetric: Bool
    /// Which rule placed the samples, in the table's words.
    public let zoneWords: String
    /// The first and last days with steps (with `--metric`, with values) of the whole export, for
    /// a day outside them.
    public let exportSpan: ClosedRange<LocalDate>?

    public init(_ days: [DayExplanation], byMetric: Bool, zoneWords: String, exportSpan: ClosedRange<LocalDate>? = nil) {
        self.days = days
        self.byMetric = byMetric
        self.zoneWords = zoneWords
        self.exportSpan = exportSpan
    }

    /// A wall-clock time in milliseconds since 1970 as `2024-03-23 08:10:00`.
    static func clock(_ ms: Int64) -> String {
        let days = Int32(truncatingIfNeeded: floorDivision(ms, 86_400_000))
        let second = Int((ms - Int64(days) * 86_400_000) / 1000)
        let time = String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
        return "\(LocalDate(daysSinceEpoch: days)) \(time)"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor != 0 && value < 0 ? quotient - 1 : quotient
    }

    /// A share with at most two decimals, as shown (the totals are the rule's, rounded once).
    static func amount(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if let whole = Int(exactly: rounded) { return String(whole) }
        return String(format: "%.2f", rounded)
    }

    /// A status in words (`counted` shows nothing; a split shows its share).
    static func note(_ sample: DayExplanation.Sample) -> String {
        var parts: [String] = []
        switch sample.status {
        case .counted: break
        case .duplicate: parts.append("exact duplicate of an earlier sample: counted once")
        case .excludedBySource(let pattern): parts.append("left out by --exclude-source \(pattern)")
        case .enteredByHandLeftOut: parts.append("typed in by hand: left out by --exclude-manual")
        case .refused: parts.append("beyond the bounds a sample can have: refused")
        case .implausible: parts.append("outside the plausible range: left out")
        case .countedOnAnotherDay(let day): parts.append("its period ends on \(day): counted there")
        }
        if sample.entry.sample.enteredByHand, sample.status != .enteredByHandLeftOut { parts.append("typed in by hand") }
        if sample.entry.split { parts.append("split at midnight: this day's share") }
        if sample.entry.isDayTotal { parts.append("a day total from the export") }
        return parts.joined(separator: "; ")
    }

    /// The status as JSON and CSV name it.
    static func code(_ status: DayExplanation.Status) -> String {
        switch status {
        case .counted: return "counted"
        case .duplicate: return "duplicate"
        case .excludedBySource: return "excluded-source"
        case .enteredByHandLeftOut: return "excluded-manual"
        case .refused: return "refused"
        case .implausible: return "implausible"
        case .countedOnAnotherDay: return "other-day"
        }
    }
}
