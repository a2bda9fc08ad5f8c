extension ExpectedMetrics {
    /// The rules of docs/metrics.md, one method per kind of metric, filling in the
    /// columns of each day and the left-out counts.
    struct Rules {
        let placement: DayPlacement
        /// The value of each column per day (one-decimal columns in tenths).
        var columns: [Int64: [MetricColumn: Int]] = [:]
        var leftOut: [(metric: String, count: Int)] = []
        /// The cells whose exact value lies halfway between two printable ones (or a sum
        /// within 1e-6 of that), where floating-point arithmetic alone may round either way.
        var roundingTies: [Int64: Set<MetricColumn>] = [:]

        init(placement: DayPlacement) {
            self.placement = placement
        }

        /// Applies every rule to `samples`, which are in file order without exact duplicates.
        mutating func apply(to samples: [WrittenMetricSample]) {
            var byMetric: [WrittenMetricSample.Metric: [WrittenMetricSample]] = [:]
            for sample in samples {
                byMetric[sample.metric, default: []].append(sample)
            }
            func records(_ metric: WrittenMetricSample.Metric) -> [WrittenMetricSample] {
                byMetric[metric] ?? []
            }
            // In the order of docs/metrics.md's table, which is the order of `leftOut`.
            cumulative(records(.distance), column: .distance, metric: "distance", maximum: 350_000)
            cumulative(records(.activeEnergy), column: .activeEnergy, metric: "active-energy", maximum: 20_000)
            cumulative(records(.flights), column: .flights, metric: "flights", maximum: 5_000)
            cumulative(records(.exercise), column: .exercise, metric: "exercise", maximum: 1_440)
            sampled(records(.heartRate), metric: "heart-rate", range: 25...250, mean: .heartRateAverage,
                    extremes: (.heartRateMinimum, .heartRateMaximum))
            sampled(records(.restingHeartRate), metric: "resting-hr", range: 25...150, mean: .restingHeartRate)
            sampled(records(.heartRateVariability), metric: "hrv", range: 1...300, mean: .heartRateVariability)
            sampled(records(.vo2Max), metric: "vo2max", range: 10...95, mean: .vo2Max)
            let sleep = records(.sleep)
            sleepPeriods(sleep.filter { $0.stage?.isAsleep == true }, column: .sleep, metric: "sleep")
            sleepPeriods(sleep.filter { $0.stage == .inBed }, column: .inBed, metric: "in-bed")
            workouts(records(.workout))
        }

        /// Distance, active energy, flights, exercise minutes: the step rule. Each sample on
        /// its local day, one that crosses midnight split in proportion to time (a zero-length
        /// one whole on its day); per source and day the sum, rounded; a source-day outside
        /// 0...`maximum` left out (and counted); the highest of the rest wins.
        mutating func cumulative(_ samples: [WrittenMetricSample], column: MetricColumn, metric: String,
                                 maximum: Int) {
            var sums: [Int64: [ExportSource: Double]] = [:]
            // Source-days with a term that binary floating point holds only approximately.
            var inexact: [Int64: Set<ExportSource>] = [:]
            func add(_ value: Double, day: Int64, source: ExportSource) {
                sums[day, default: [:]][source, default: 0] += value
                if (value * 1024).rounded() != value * 1024 {
                    inexact[day, default: []].insert(source)
                }
            }
            for sample in samples {
                let first = placement.day(sample.start)
                if sample.end <= placement.midnight(first + 1) {
                    add(sample.value, day: first, source: sample.source)
                    continue
                }
                let length = Double((sample.end - sample.start) * 1000)
                var from = sample.start
                var day = first
                while from < sample.end {
                    let to = min(sample.end, placement.midnight(day + 1))
                    if to > from {
                        add(sample.value * Double((to - from) * 1000) / length, day: day, source: sample.source)
                    }
                    from = to
                    day += 1
                }
            }
            var outside = 0
            for (day, bySource) in sums {
                var totals: [ExportSource: (rounded: Int, raw: Double)] = [:]
                for (source, sum) in bySource {
                    let rounded = Int(sum.rounded(.toNearestOrAwayFromZero))
                    if rounded < 0 || rounded > maximum {
                        outside += 1
                    } else {
                        totals[source] = (rounded, sum)
                    }
                }
                guard let winner = choose(totals) else { continue }
                let best = totals[winner]!.rounded
                columns[day, default: [:]][column] = best
                // A sum of approximate terms a hair from a half rounds by the order of its
                // additions: the winner's, or a runner-up's that could overtake it.
                let tipping = totals.contains { source, total in
                    abs(total.rounded - best) <= 1 && inexact[day]?.contains(source) == true
                        && abs(total.raw - total.raw.rounded(.down) - 0.5) < 1e-6
                }
                if tipping { roundingTies[day, default: []].insert(column) }
            }
            leftOut.append((metric, outside))
        }

        /// Heart rate, resting heart rate, HRV, VO2max: each sample outside `range` left out
        /// (and counted); per local day of each sample's start, the source with the most
        /// samples gives the mean, in tenths (and for heart rate the minimum and maximum,
        /// whole). Computed exactly, in ten-thousandths: every value is noted with at most
        /// four decimals, so a mean exactly halfway rounds away from zero, as written.
        mutating func sampled(_ samples: [WrittenMetricSample], metric: String, range: ClosedRange<Int64>,
                              mean: MetricColumn, extremes: (MetricColumn, MetricColumn)? = nil) {
            let scale: Int64 = 10_000
            var values: [Int64: [ExportSource: [Int64]]] = [:]
            var outside = 0
            for sample in samples {
                let units = Int64((sample.value * Double(scale)).rounded())
                precondition(abs(sample.value * Double(scale) - Double(units)) < 0.001,
                             "sampled values are noted with at most four decimals")
                guard units >= range.lowerBound * scale && units <= range.upperBound * scale else {
                    outside += 1
                    continue
                }
                values[placement.day(sample.start), default: [:]][sample.source, default: []].append(units)
            }
            for (day, bySource) in values {
                guard let winner = choose(bySource.mapValues { ($0.count, Double($0.count)) }) else { continue }
                let chosen = bySource[winner]!
                let sum = chosen.reduce(0, +)
                let divisor = Int64(chosen.count) * scale
                columns[day, default: [:]][mean] = Int(Rules.dividedHalfAway(sum * 10, by: divisor))
                // A mean exactly halfway between two tenths (72.35): computed as a double
                // first, it may fall a hair either side.
                if (sum * 10 * 2) % (2 * divisor) == divisor {
                    roundingTies[day, default: []].insert(mean)
                }
                if let (minimum, maximum) = extremes {
                    columns[day, default: [:]][minimum] = Int(Rules.dividedHalfAway(chosen.min()!, by: scale))
                    columns[day, default: [:]][maximum] = Int(Rules.dividedHalfAway(chosen.max()!, by: scale))
                    for (column, value) in [(minimum, chosen.min()!), (maximum, chosen.max()!)] where value % scale == scale / 2 {
                        roundingTies[day, default: []].insert(column)
                    }
                }
            }
            leftOut.append((metric, outside))
        }

        /// Sleep and in bed: per source the union of its intervals, cut into periods where
        /// a gap of an hour or more separates them; each period's seconds (the union's, gaps
        /// not counted) on the local day of the period's end; per source and day the
        /// minutes, rounded; a source-day over 1,440 left out; the most minutes win.
        mutating func sleepPeriods(_ samples: [WrittenMetricSample], column: MetricColumn, metric: String) {
            var intervals: [ExportSource: [Range<Int64>]] = [:]
            for sample in samples where sample.end > sample.start {
                intervals[sample.source, default: []].append(sample.start..<sample.end)
            }
            var seconds: [Int64: [ExportSource: Int64]] = [:]
            for (source, list) in intervals {
                let sorted = list.sorted { $0.lowerBound < $1.lowerBound }
                var pieceStart = sorted[0].lowerBound
                var pieceEnd = sorted[0].upperBound
                var period: Int64 = 0
                for interval in sorted.dropFirst() {
                    if interval.lowerBound <= pieceEnd {
                        pieceEnd = max(pieceEnd, interval.upperBound)
                        continue
                    }
                    period += pieceEnd - pieceStart
                    if interval.lowerBound - pieceEnd >= 3600 {
                        seconds[placement.day(pieceEnd), default: [:]][source, default: 0] += period
                        period = 0
                    }
                    pieceStart = interval.lowerBound
                    pieceEnd = interval.upperBound
                }
                period += pieceEnd - pieceStart
                seconds[placement.day(pieceEnd), default: [:]][source, default: 0] += period
            }
            var outside = 0
            for (day, bySource) in seconds {
                var totals: [ExportSource: (rounded: Int, raw: Double)] = [:]
                for (source, total) in bySource {
                    let minutes = Int(Rules.dividedHalfAway(total, by: 60))
                    if minutes > 1_440 {
                        outside += 1
                    } else {
                        totals[source] = (minutes, Double(total) / 60)
                    }
                }
                guard let winner = choose(totals) else { continue }
                columns[day, default: [:]][column] = totals[winner]!.rounded
            }
            leftOut.append((metric, outside))
        }

        /// Workouts: each on the local day of its start, never split; per source and day the
        /// count and the minutes of their durations, rounded; a source-day over 1,440
        /// minutes left out; the source with the most minutes gives both columns.
        mutating func workouts(_ samples: [WrittenMetricSample]) {
            var days: [Int64: [ExportSource: (count: Int, minutes: Double)]] = [:]
            var inexact: [Int64: Set<ExportSource>] = [:]
            for sample in samples {
                let day = placement.day(sample.start)
                days[day, default: [:]][sample.source, default: (0, 0)].count += 1
                days[day, default: [:]][sample.source, default: (0, 0)].minutes += sample.value
                if (sample.value * 1024).rounded() != sample.value * 1024 {
                    inexact[day, default: []].insert(sample.source)
                }
            }
            var outside = 0
            for (day, bySource) in days {
                var totals: [ExportSource: (rounded: Int, raw: Double)] = [:]
                for (source, entry) in bySource {
                    let minutes = Int(entry.minutes.rounded(.toNearestOrAwayFromZero))
                    if minutes < 0 || minutes > 1_440 {
                        outside += 1
                    } else {
                        totals[source] = (minutes, entry.minutes)
                    }
                }
                guard let winner = choose(totals) else { continue }
                let best = totals[winner]!
                columns[day, default: [:]][.workouts] = bySource[winner]!.count
                columns[day, default: [:]][.workoutMinutes] = best.rounded
                if inexact[day]?.contains(winner) == true && abs(best.raw - best.raw.rounded(.down) - 0.5) < 1e-6 {
                    roundingTies[day, default: []].insert(.workoutMinutes)
                }
                // docs/metrics.md does not say whether "the most minutes" compares them before
                // or after rounding; with a tie of the rounded minutes the two readings pick
                // different sources, whose counts may differ.
                if totals.contains(where: { $0.key != winner && $0.value.rounded == best.rounded && $0.value.raw != best.raw
                                            && bySource[$0.key]!.count != bySource[winner]!.count }) {
                    roundingTies[day, default: []].insert(.workouts)
                }
            }
            leftOut.append(("workouts", outside))
        }

        /// The source with the highest rounded value above zero, ties to the name first in
        /// UTF-8 order; nil when there is none.
        func choose(_ totals: [ExportSource: (rounded: Int, raw: Double)]) -> ExportSource? {
            var best: ExportSource?
            for source in totals.keys.sorted(by: { utf8Precedes($0.name, $1.name) }) {
                let value = totals[source]!.rounded
                guard value > 0 else { continue }
                if let current = best, totals[current]!.rounded >= value { continue }
                best = source
            }
            return best
        }

        /// `numerator / denominator` rounded half away from zero, exactly (`denominator` > 0).
        static func dividedHalfAway(_ numerator: Int64, by denominator: Int64) -> Int64 {
            let magnitude = (2 * numerator.magnitude + denominator.magnitude) / (2 * denominator.magnitude)
            return numerator < 0 ? -Int64(magnitude) : Int64(magnitude)
        }
    }
}
