import HealthDays
import Outputs

/// The words of the `--metric` summary: a line per metric.
enum MetricWords {
    /// `heart-rate: 12,345 records, 3 exact duplicates counted once, 2 samples outside 25-250 bpm
    /// left out; values on 310 days`. Counts of nothing are left out.
    static func line(_ metric: Metric, _ statistics: MetricStatistics, days: Int, crossingMidnight: Int?) -> String {
        var parts = [Plural.count(statistics.records, metric == .workouts ? "workout" : "record")]
        if statistics.duplicates > 0 {
            parts.append("\(Plural.count(statistics.duplicates, "exact duplicate")) counted once")
        }
        if let crossingMidnight, crossingMidnight > 0 {
            parts.append("\(crossingMidnight) split across midnight")
        }
        if statistics.leftOut > 0, let range = metric.plausibleRange {
            parts.append(leftOut(statistics.leftOut, metric, range))
        }
        if statistics.refused > 0 {
            parts.append(refused(statistics.refused))
        }
        return "\(metric.name): " + parts.joined(separator: ", ") + "; values on \(Plural.count(days, "day"))"
    }

    /// `3 beyond what one record may hold (docs/reliability.md) left out`: records the day rules
    /// could not take safely (`SampleLimits`), under either rule.
    static func refused(_ count: Int) -> String {
        "\(count) beyond what one record may hold (docs/reliability.md) left out"
    }

    /// `no records of exercise, hrv or vo2max in this export`.
    static func absent(_ metrics: [Metric]) -> String {
        let names = metrics.map(\.name)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        return "no records of \(list) in this export"
    }

    /// Sampled metrics are checked sample by sample; the others by a source's day.
    private static func leftOut(_ count: Int, _ metric: Metric, _ range: ClosedRange<Double>) -> String {
        let unit = metric.unitWords.isEmpty ? "" : " \(metric.unitWords)"
        if metric.kind == .sampled {
            return "\(Plural.count(count, "sample")) outside \(number(range.lowerBound))-\(number(range.upperBound))\(unit) left out"
        }
        return "\(Plural.count(count, "value")) over \(number(range.upperBound))\(unit) a day left out"
    }

    private static func number(_ value: Double) -> String {
        GroupedNumber.format(Int(exactly: value.rounded()) ?? 0)
    }
}
