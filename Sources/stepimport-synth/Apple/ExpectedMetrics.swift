/// The day values `stepimport apple --metric all` must print for the export the
/// generator wrote, under one zone rule, and the implausible values it must leave
/// out: computed from the generator's own notes of its records
/// (`WrittenMetricSample`), by the rules of docs/metrics.md, never by reading the
/// file and never with the importer's code.
///
/// Written to be read beside docs/metrics.md, rule by rule (the rules themselves
/// are in `ExpectedMetrics+Rules.swift`):
/// - exact duplicates (same metric, source, start, end, value; for sleep, the same
///   stage) count once, before anything else;
/// - distance, active energy, flights, exercise minutes: the step rule (split at
///   local midnight in proportion to time, per source and day summed and rounded,
///   the highest source wins, ties to the name first in UTF-8 order);
/// - heart rate, resting heart rate, HRV, VO2max: values outside the plausible
///   range are left out and counted; per local day of the sample's start, the
///   source with the most samples gives the mean (and for heart rate the minimum
///   and maximum);
/// - sleep and in bed: per source the union of its intervals, cut into periods at
///   gaps of an hour or more, each period's minutes on the day it ends; the source
///   with the most minutes wins;
/// - workouts: per source and day of the start, the count and the minutes of the
///   `duration` attribute; the source with the most minutes wins.
///
/// Sums and means are rounded half away from zero, once, at the end; "the most
/// minutes" and "the highest" compare the rounded values, as for steps.
struct ExpectedMetrics {
    /// One local day: the value of each column that has one (one-decimal columns in tenths).
    struct Day {
        let dayNumber: Int64
        var values: [MetricColumn: Int] = [:]
    }

    /// Every day on which some column has a value, in date order.
    let days: [Day]
    /// Per metric (its `--metric` name, in the order of docs/metrics.md), what was left
    /// out as implausible: the samples outside the range (heart rate, resting heart
    /// rate, HRV, VO2max), or the source-days whose sum is outside it (the others).
    let leftOut: [(metric: String, count: Int)]
    /// The cells an importer may print one unit (in the last place) either side of the
    /// value here without breaking a rule: through floating-point arithmetic alone (a sum
    /// of approximate terms within 1e-6 of a half, which the order of its additions tips;
    /// a mean exactly halfway between two tenths, which a double holds a hair below or
    /// above), or, for a workout count, by comparing the sources' minutes before rounding.
    let roundingTies: [Int64: Set<MetricColumn>]

    /// The metrics of `samples` under `placement`; `steps` are the step section's day
    /// winners under the same rule (the `steps` column).
    init(samples: [WrittenMetricSample], steps: [ExpectedTotals.DayWinner], placement: DayPlacement) {
        var rules = Rules(placement: placement)
        rules.apply(to: ExpectedMetrics.fileOrdered(samples))
        for winner in steps where winner.steps > 0 {
            rules.columns[Int64(winner.dayNumber), default: [:]][.steps] = winner.steps
        }
        days = rules.columns.keys.sorted().map { Day(dayNumber: $0, values: rules.columns[$0]!) }
        leftOut = rules.leftOut
        roundingTies = rules.roundingTies
    }

    /// The notes in the order the file holds their records (each day's elements sorted by
    /// start, ties in the order written) with exact duplicates removed: sums then add up in
    /// the order an importer meets the records.
    private static func fileOrdered(_ samples: [WrittenMetricSample]) -> [WrittenMetricSample] {
        let ordered = samples.indices.sorted { (samples[$0].start, $0) < (samples[$1].start, $1) }
        var seen = Set<Key>()
        var unique: [WrittenMetricSample] = []
        unique.reserveCapacity(samples.count)
        for index in ordered where seen.insert(Key(samples[index])).inserted {
            unique.append(samples[index])
        }
        return unique
    }

    /// The JSON member `"key": {...}` (indented by two spaces) for `ExpectedTotals.json`:
    /// `heading` (e.g. `"rule": "file-offset"`), the days with only the columns that have a
    /// value, the left-out counts, and the rounding ties (`{"date": .., "column": ..}`).
    func jsonSection(key: String, heading: String) -> String {
        var out = "  \"\(key)\": {\n    \(heading),\n    \"days\": [\n"
        out += days.map { day in
            var members = ["\"date\": \"\(CivilDate(dayNumber: Int(day.dayNumber)).text)\""]
            for column in MetricColumn.apple {
                if let value = day.values[column] {
                    members.append("\"\(column.name)\": \(column.text(value))")
                }
            }
            return "      {" + members.joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        out += "\n    ],\n    \"left_out\": {"
        out += leftOut.map { "\"\($0.metric)\": \($0.count)" }.joined(separator: ", ")
        out += "},\n    \"rounding_ties\": ["
        let ties = roundingTies.keys.sorted().flatMap { day in
            MetricColumn.apple.filter { roundingTies[day]!.contains($0) }.map { column in
                "{\"date\": \"\(CivilDate(dayNumber: Int(day)).text)\", \"column\": \"\(column.name)\"}"
            }
        }
        out += ties.isEmpty ? "]" : "\n      " + ties.joined(separator: ",\n      ") + "\n    ]"
        out += "\n  }"
        return out
    }

    /// Identity of a record for the duplicate collapse.
    private struct Key: Hashable {
        let metric: WrittenMetricSample.Metric
        let stage: WrittenMetricSample.SleepStage?
        let source: ExportSource
        let start: Int64
        let end: Int64
        let value: UInt64

        init(_ sample: WrittenMetricSample) {
            metric = sample.metric
            stage = sample.stage
            source = sample.source
            start = sample.start
            end = sample.end
            value = sample.value.bitPattern
        }
    }
}
