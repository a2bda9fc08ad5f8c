/// The day values `stepimport hc DB --metric all` must print for a database the generator wrote,
/// by the rules of docs/metrics.md as Health Connect's tables map onto them, computed from the
/// generator's own notes of what it wrote (`HealthConnectMetricDay`), never by reading the
/// database and never with the importer's code. Each record is placed in its own zone offset
/// (the file-offset rule): the start's for interval records and heart-rate series (every sample
/// of a series in its parent row's `start_zone_offset`), `zone_offset` for instants, the
/// session's `end_zone_offset` for the end of a sleep period, the start's for a workout.
///
/// The mapping, rule by rule:
/// - `distance_record_table.distance` (metres) → `distance_m`, `active_calories_burned_record_table`
///   `.energy` / 1000 (small calories to kcal) → `active_kcal`, `floors_climbed_record_table.floors`
///   → `flights`: the step rule. Exact duplicates (app, start, end, value) once; split at local
///   midnight in proportion to time; per app and day summed, taken to the nearest millionth and
///   rounded half away from zero; a source-day outside the plausible range (350,000 m, 20,000 kcal,
///   5,000 floors) left out; the highest app wins, ties to the package name first in UTF-8 order;
///   zero days empty. `total_calories_burned_record_table.energy` / 1000 → `total_kcal` by the
///   same rule (30,000 kcal), never into `active_kcal`.
/// - heart-rate series samples → `hr_avg` (one decimal), `hr_min`, `hr_max`: exact duplicates
///   (app, time, bpm) once; samples outside 25-250 left out; per day the app with the most samples.
/// - resting heart rate (25-150) → `resting_hr`, HRV RMSSD (1-300 ms) → `hrv_rmssd_ms`, VO2max
///   (10-95) → `vo2max`: per day the mean of the app with the most samples, one decimal.
/// - sleep: per app the asleep intervals (stages 2, 4, 5, 6; a session without stages whole),
///   their union cut into periods at gaps of an hour or more, each period's minutes on the day it
///   ends; per app and day the minutes, rounded; over 1,440 left out; the most minutes win. In
///   bed: the same with the sessions' spans.
/// - exercise sessions → `workouts`, `workout_min`: exact duplicates (app, start, end) once; each
///   on the day of its start, end − start; per app and day the count and the minutes, rounded;
///   over 1,440 left out; the app with the most minutes gives both.
///
/// "Most" and "highest" compare the values as printed (rounded), ties to the package name first
/// in UTF-8 order. Records are added a day of the generator at a time, as written; duplicates are
/// looked for within one generated day, which is where the generator makes them.
struct HealthConnectExpectedMetrics {
    private static let dayMs: Int64 = 86_400_000

    // Cumulative quantities: per (kind, app, day) the exact thousandths of whole records and the
    // parts of records split at midnight.
    private struct QuantityKey: Hashable {
        let kind: HealthConnectQuantityRecord.Kind
        let source: String
        let day: Int64
    }
    private struct QuantitySum {
        var whole: Int64 = 0
        var split: Double = 0
        var isSplit = false
    }
    private var quantities: [QuantityKey: QuantitySum] = [:]

    // Heart rate: per (app, day) the count, sum, minimum and maximum of the plausible samples.
    private struct SourceDay: Hashable {
        let source: String
        let day: Int64
    }
    private struct HeartRateDay {
        var count = 0
        var sum = 0
        var minimum = Int.max
        var maximum = Int.min
    }
    private var heartRates: [SourceDay: HeartRateDay] = [:]
    private var heartRatesOutside = 0

    // Instants: per (kind, app, day) the count and sum in hundredths.
    private struct InstantKey: Hashable {
        let kind: HealthConnectInstantRecord.Kind
        let source: String
        let day: Int64
    }
    private var instants: [InstantKey: (count: Int64, sum: Int64)] = [:]
    private var instantsOutside: [HealthConnectInstantRecord.Kind: Int] = [:]

    // Sleep: per app every asleep interval and every session span, with the end offset.
    private struct Interval {
        let start: Int64
        let end: Int64
        let endOffset: Int64
    }
    private var asleep: [String: [Interval]] = [:]
    private var inBed: [String: [Interval]] = [:]

    // Workouts: per (app, day) the count and milliseconds.
    private var workouts: [SourceDay: (count: Int, ms: Int64)] = [:]

    /// Adds the records of one generated day.
    mutating func add(_ day: HealthConnectMetricDay) {
        addQuantities(day.quantities)
        addHeartRates(day.heartRates)
        addInstants(day.instants)
        addSleep(day.sleepSessions)
        addWorkouts(day.exercises)
    }

    // MARK: - Adding

    private mutating func addQuantities(_ records: [HealthConnectQuantityRecord]) {
        struct Identity: Hashable {
            let kind: HealthConnectQuantityRecord.Kind
            let app: HealthConnectApp
            let start: Int64
            let end: Int64
            let thousandths: Int64
        }
        var seen = Set<Identity>()
        for record in records {
            guard seen.insert(Identity(kind: record.kind, app: record.metadata.app, start: record.startMs, end: record.endMs,
                                       thousandths: record.thousandths)).inserted else { continue }
            let offset = Int64(record.startOffset) * 1000
            let start = record.startMs + offset
            let end = record.endMs + offset
            var day = floorDivide(start, Self.dayMs)
            let source = record.metadata.app.source
            if end <= (day + 1) * Self.dayMs {
                quantities[QuantityKey(kind: record.kind, source: source, day: day), default: QuantitySum()].whole += record.thousandths
                continue
            }
            var from = start
            while from < end {
                let to = min(end, (day + 1) * Self.dayMs)
                let key = QuantityKey(kind: record.kind, source: source, day: day)
                quantities[key, default: QuantitySum()].split += Double(record.thousandths) * Double(to - from) / Double(end - start)
                quantities[key, default: QuantitySum()].isSplit = true
                from = to
                day += 1
            }
        }
    }

    private mutating func addHeartRates(_ records: [HealthConnectHeartRateSeries]) {
        struct Identity: Hashable {
            let app: HealthConnectApp
            let sample: HealthConnectHeartRateSeries.Sample
        }
        var seen = Set<Identity>()
        for record in records {
            let offset = Int64(record.startOffset) * 1000
            for sample in record.samples where seen.insert(Identity(app: record.metadata.app, sample: sample)).inserted {
                guard (25...250).contains(sample.beatsPerMinute) else {
                    heartRatesOutside += 1
                    continue
                }
                let key = SourceDay(source: record.metadata.app.source, day: floorDivide(sample.epochMs + offset, Self.dayMs))
                var entry = heartRates[key, default: HeartRateDay()]
                entry.count += 1
                entry.sum += sample.beatsPerMinute
                entry.minimum = min(entry.minimum, sample.beatsPerMinute)
                entry.maximum = max(entry.maximum, sample.beatsPerMinute)
                heartRates[key] = entry
            }
        }
    }

    private mutating func addInstants(_ records: [HealthConnectInstantRecord]) {
        struct Identity: Hashable {
            let kind: HealthConnectInstantRecord.Kind
            let app: HealthConnectApp
            let time: Int64
            let hundredths: Int64
        }
        var seen = Set<Identity>()
        for record in records {
            guard seen.insert(Identity(kind: record.kind, app: record.metadata.app, time: record.timeMs,
                                       hundredths: record.hundredths)).inserted else { continue }
            guard HealthConnectExpectedMetrics.range(record.kind).contains(record.hundredths) else {
                instantsOutside[record.kind, default: 0] += 1
                continue
            }
            let day = floorDivide(record.timeMs + Int64(record.offset) * 1000, Self.dayMs)
            let key = InstantKey(kind: record.kind, source: record.metadata.app.source, day: day)
            instants[key, default: (0, 0)].count += 1
            instants[key, default: (0, 0)].sum += record.hundredths
        }
    }

    /// The plausible range of an instant metric, in hundredths.
    private static func range(_ kind: HealthConnectInstantRecord.Kind) -> ClosedRange<Int64> {
        switch kind {
        case .restingHeartRate: return 2500...15_000
        case .heartRateVariability: return 100...30_000
        case .vo2Max: return 1000...9500
        }
    }

    private mutating func addSleep(_ sessions: [HealthConnectSleepSession]) {
        for session in sessions {
            let source = session.metadata.app.source
            let offset = Int64(session.endOffset) * 1000
            inBed[source, default: []].append(Interval(start: session.startMs, end: session.endMs, endOffset: offset))
            if session.stages.isEmpty {
                asleep[source, default: []].append(Interval(start: session.startMs, end: session.endMs, endOffset: offset))
            }
            for stage in session.stages where stage.type.isAsleep {
                asleep[source, default: []].append(Interval(start: stage.startMs, end: stage.endMs, endOffset: offset))
            }
        }
    }

    private mutating func addWorkouts(_ sessions: [HealthConnectExerciseSession]) {
        struct Identity: Hashable {
            let app: HealthConnectApp
            let start: Int64
            let end: Int64
        }
        var seen = Set<Identity>()
        for session in sessions where seen.insert(Identity(app: session.metadata.app, start: session.startMs, end: session.endMs)).inserted {
            let day = floorDivide(session.startMs + Int64(session.startOffset) * 1000, Self.dayMs)
            let key = SourceDay(source: session.metadata.app.source, day: day)
            workouts[key, default: (0, 0)].count += 1
            workouts[key, default: (0, 0)].ms += session.endMs - session.startMs
        }
    }

    // MARK: - The day values

    /// The computed columns per day, the left-out counts (in the order of docs/metrics.md) and
    /// the cells that floating-point arithmetic alone may tip one unit either way.
    struct Result {
        var columns: [Int64: [MetricColumn: Int]] = [:]
        var leftOut: [(metric: String, count: Int)] = []
        var roundingTies: [Int64: Set<MetricColumn>] = [:]
    }

    /// Every day's values; `steps` are the step section's winners (the `steps` column).
    func result(steps: [(dayNumber: Int, steps: Int, source: String)]) -> Result {
        var result = Result()
        for day in steps where day.steps > 0 {
            result.columns[Int64(day.dayNumber), default: [:]][.steps] = day.steps
        }
        cumulative(.distance, .distance, "distance", maximum: 350_000, into: &result)
        cumulative(.activeCalories, .activeEnergy, "active-energy", maximum: 20_000, into: &result)
        cumulative(.totalCalories, .totalEnergy, "total-energy", maximum: 30_000, into: &result)
        cumulative(.floors, .flights, "flights", maximum: 5_000, into: &result)
        heartRate(into: &result)
        sampled(.restingHeartRate, .restingHeartRate, "resting-hr", into: &result)
        sampled(.heartRateVariability, .heartRateVariabilityRMSSD, "hrv", into: &result)
        sampled(.vo2Max, .vo2Max, "vo2max", into: &result)
        sleepPeriods(asleep, .sleep, "sleep", into: &result)
        sleepPeriods(inBed, .inBed, "in-bed", into: &result)
        workoutDays(into: &result)
        return result
    }

    private func cumulative(_ kind: HealthConnectQuantityRecord.Kind, _ column: MetricColumn, _ metric: String, maximum: Int64,
                            into result: inout Result) {
        var days: [Int64: [String: (rounded: Int64, exact: Double, isSplit: Bool)]] = [:]
        for (key, sum) in quantities where key.kind == kind {
            let rounded: Int64
            let exact = (Double(sum.whole) + sum.split) / 1000
            if sum.isSplit {
                // As MetricColumn.rounded: to the nearest millionth first, then half away from zero.
                rounded = Int64(((exact * 1_000_000).rounded() / 1_000_000).rounded(.toNearestOrAwayFromZero))
            } else {
                rounded = HealthConnectExpectedMetrics.dividedHalfAway(sum.whole, by: 1000)
            }
            days[key.day, default: [:]][key.source] = (rounded, exact, sum.isSplit)
        }
        var outside = 0
        for (day, bySource) in days {
            var totals: [String: Int64] = [:]
            for (source, value) in bySource {
                if value.rounded < 0 || value.rounded > maximum { outside += 1 } else { totals[source] = value.rounded }
            }
            guard let winner = HealthConnectExpectedMetrics.choose(totals) else { continue }
            let best = totals[winner]!
            result.columns[day, default: [:]][column] = Int(best)
            // A sum with split parts within a millionth of a half rounds by the order of its additions.
            let tipping = bySource.contains { source, value in
                totals[source] != nil && value.isSplit && abs(value.rounded - best) <= 1
                    && abs(value.exact - value.exact.rounded(.down) - 0.5) < 1e-6
            }
            if tipping { result.roundingTies[day, default: []].insert(column) }
        }
        result.leftOut.append((metric, outside))
    }

    private func heartRate(into result: inout Result) {
        var days: [Int64: [String: HeartRateDay]] = [:]
        for (key, entry) in heartRates {
            days[key.day, default: [:]][key.source] = entry
        }
        for (day, bySource) in days {
            guard let winner = HealthConnectExpectedMetrics.choose(bySource.mapValues { Int64($0.count) }) else { continue }
            let entry = bySource[winner]!
            result.columns[day, default: [:]][.heartRateAverage] =
                Int(HealthConnectExpectedMetrics.dividedHalfAway(Int64(entry.sum) * 10, by: Int64(entry.count)))
            result.columns[day, default: [:]][.heartRateMinimum] = entry.minimum
            result.columns[day, default: [:]][.heartRateMaximum] = entry.maximum
        }
        result.leftOut.append(("heart-rate", heartRatesOutside))
    }

    private func sampled(_ kind: HealthConnectInstantRecord.Kind, _ column: MetricColumn, _ metric: String, into result: inout Result) {
        var days: [Int64: [String: (count: Int64, sum: Int64)]] = [:]
        for (key, entry) in instants where key.kind == kind {
            days[key.day, default: [:]][key.source] = entry
        }
        for (day, bySource) in days {
            guard let winner = HealthConnectExpectedMetrics.choose(bySource.mapValues(\.count)) else { continue }
            let entry = bySource[winner]!
            // The mean in tenths: sum / 100 / count * 10.
            result.columns[day, default: [:]][column] = Int(HealthConnectExpectedMetrics.dividedHalfAway(entry.sum, by: entry.count * 10))
        }
        result.leftOut.append((metric, instantsOutside[kind] ?? 0))
    }

    private func sleepPeriods(_ intervals: [String: [Interval]], _ column: MetricColumn, _ metric: String, into result: inout Result) {
        var milliseconds: [Int64: [String: Int64]] = [:]
        for (source, list) in intervals {
            let sorted = list.filter { $0.end > $0.start }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            guard var piece = sorted.first else { continue }
            var period: Int64 = 0
            func close(_ period: Int64, endingWith piece: Interval) {
                milliseconds[floorDivide(piece.end + piece.endOffset, Self.dayMs), default: [:]][source, default: 0] += period
            }
            for interval in sorted.dropFirst() {
                if interval.start <= piece.end {
                    // Overlapping or touching: one piece; it ends with the interval that ends last.
                    if interval.end > piece.end { piece = Interval(start: piece.start, end: interval.end, endOffset: interval.endOffset) }
                    continue
                }
                period += piece.end - piece.start
                if interval.start - piece.end >= 3_600_000 {
                    close(period, endingWith: piece)
                    period = 0
                }
                piece = interval
            }
            period += piece.end - piece.start
            close(period, endingWith: piece)
        }
        var outside = 0
        for (day, bySource) in milliseconds {
            var totals: [String: Int64] = [:]
            for (source, total) in bySource {
                let minutes = HealthConnectExpectedMetrics.dividedHalfAway(total, by: 60_000)
                if minutes > 1_440 { outside += 1 } else { totals[source] = minutes }
            }
            guard let winner = HealthConnectExpectedMetrics.choose(totals) else { continue }
            result.columns[day, default: [:]][column] = Int(totals[winner]!)
        }
        result.leftOut.append((metric, outside))
    }

    private func workoutDays(into result: inout Result) {
        var days: [Int64: [String: (count: Int, minutes: Int64, ms: Int64)]] = [:]
        for (key, entry) in workouts {
            days[key.day, default: [:]][key.source] = (entry.count, HealthConnectExpectedMetrics.dividedHalfAway(entry.ms, by: 60_000), entry.ms)
        }
        var outside = 0
        for (day, bySource) in days {
            var totals: [String: Int64] = [:]
            for (source, entry) in bySource {
                if entry.minutes > 1_440 { outside += 1 } else { totals[source] = entry.minutes }
            }
            guard let winner = HealthConnectExpectedMetrics.choose(totals) else { continue }
            let best = bySource[winner]!
            result.columns[day, default: [:]][.workouts] = best.count
            result.columns[day, default: [:]][.workoutMinutes] = Int(best.minutes)
            // docs/metrics.md compares the rounded minutes; an importer comparing them before
            // rounding would pick another app on a tie, whose count may differ.
            if totals.contains(where: { $0.key != winner && $0.value == best.minutes && bySource[$0.key]!.ms != best.ms
                                        && bySource[$0.key]!.count != best.count }) {
                result.roundingTies[day, default: []].insert(.workouts)
            }
        }
        result.leftOut.append(("workouts", outside))
    }

    // MARK: - Rules shared by every metric

    /// The source with the highest value above zero, ties to the name first in UTF-8 order.
    private static func choose(_ totals: [String: Int64]) -> String? {
        var best: String?
        for source in totals.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let value = totals[source]!
            guard value > 0 else { continue }
            if let current = best, totals[current]! >= value { continue }
            best = source
        }
        return best
    }

    /// `numerator / denominator` rounded half away from zero, exactly (`denominator` > 0).
    private static func dividedHalfAway(_ numerator: Int64, by denominator: Int64) -> Int64 {
        let magnitude = (2 * numerator.magnitude + denominator.magnitude) / (2 * denominator.magnitude)
        return numerator < 0 ? -Int64(magnitude) : Int64(magnitude)
    }

    // MARK: - JSON

    /// The member `"metrics": {...}` (indented by two spaces) of the `--expected` file: the rule,
    /// the days with only the columns that have a value, the left-out counts, the rounding ties.
    func jsonSection(steps: [(dayNumber: Int, steps: Int, source: String)]) -> String {
        let result = result(steps: steps)
        var out = "  \"metrics\": {\n    \"rule\": \"file-offset\",\n    \"days\": [\n"
        out += result.columns.keys.sorted().map { day in
            var members = ["\"date\": \"\(CivilDate(dayNumber: Int(day)).text)\""]
            for column in MetricColumn.healthConnect {
                if let value = result.columns[day]![column] {
                    members.append("\"\(column.name)\": \(column.text(value))")
                }
            }
            return "      {" + members.joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        out += "\n    ],\n    \"left_out\": {"
        out += result.leftOut.map { "\"\($0.metric)\": \($0.count)" }.joined(separator: ", ")
        out += "},\n    \"rounding_ties\": ["
        let ties = result.roundingTies.keys.sorted().flatMap { day in
            MetricColumn.healthConnect.filter { result.roundingTies[day]!.contains($0) }.map { column in
                "{\"date\": \"\(CivilDate(dayNumber: Int(day)).text)\", \"column\": \"\(column.name)\"}"
            }
        }
        out += ties.isEmpty ? "]" : "\n      " + ties.joined(separator: ",\n      ") + "\n    ]"
        out += "\n  }"
        return out
    }
}
