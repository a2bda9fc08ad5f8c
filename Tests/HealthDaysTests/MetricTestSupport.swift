import Foundation
@testable import HealthDays
import TestSupport

/// Hand-built samples for the metric aggregators (docs/metrics.md), and compact views of what
/// they give back, so that each test can state its expected values as text worked out by hand.
enum MetricTime {
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
}

/// A set of metrics from a list (`.steps` alone would be ambiguous with `MetricSet.steps`).
func metricSet(_ metrics: Metric...) -> MetricSet {
    MetricSet(metrics)
}

extension MetricAggregator {
    /// Adds one sample of `metric`: times in ms since 1970 (UTC), the offset it was written with.
    func add(_ metric: Metric, _ start: Int64, _ end: Int64, _ value: Double = 0, offset: Int32? = 0, source: String) {
        var source = source
        let sample = HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: value)
        source.withUTF8 { add(sample, of: metric, sourceUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// An instant sample (a heart-rate reading).
    func add(_ metric: Metric, at instant: Int64, _ value: Double, offset: Int32? = 0, source: String) {
        add(metric, instant, instant, value, offset: offset, source: source)
    }

    /// `date=value` for every day on which `column` has a value, in date order.
    func column(_ column: MetricColumn, in range: ClosedRange<LocalDate>? = nil) -> [String] {
        days(in: range).compactMap { day in day[column].map { "\(day.date)=\(metricText($0))" } }
    }

    /// `date source value standing` for every source's value of `column`, in the order given.
    func sourceRows(_ column: MetricColumn) -> [String] {
        sourceValues().filter { $0.column == column }.map { "\($0.date) \($0.source) \(metricText($0.value)) \($0.standing)" }
    }
}

/// A value as the tests write it: whole numbers without a fraction.
func metricText(_ value: Double) -> String {
    if let whole = Int(exactly: value) { return String(whole) }
    return String(value)
}
