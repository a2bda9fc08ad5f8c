import CLibXML2
import HealthDays

/// The records of metrics beyond steps (`--metric`, docs/metrics.md): read with the same care
/// as step records (the same times, the same bounds, invalid records named), their values
/// converted to the column's unit or refused.
extension AppleHealthParser {
    /// A top-level `Record` of a metric asked for.
    func handleMetricRecord(_ type: AppleMetricType, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>,
                            _ count: Int) {
        if case .quantity(let metric) = type { metricBeingRead = metric } else { metricBeingRead = .sleep }
        defer { metricBeingRead = nil }
        let (source, start, end, value, unit) = read(attributes, count, value: "value", unit: "unit")
        guard var sample = recordInterval(start: start, end: end) else { return }
        guard let value else { return invalid("missing value") }
        let metric: Metric
        switch type {
        case .sleepAnalysis:
            switch AppleMetricType.sleepValue(value) {
            case .asleep: metric = .sleep
            case .inBed: metric = .inBed
            case .awake: return
            case nil:
                return invalid("value \(quoted(value)) is not a sleep analysis value stepimport knows "
                               + "(HKCategoryValueSleepAnalysisInBed, Awake, Asleep, AsleepUnspecified, AsleepCore, "
                               + "AsleepDeep or AsleepREM)")
            }
            guard metrics.contains(metric) else { return }
        case .quantity(let quantity):
            metric = quantity
            guard let number = DecimalNumber.parse(value), number >= 0 else {
                return invalid("value \(quoted(value)) is not a non-negative number")
            }
            guard let unit else { return invalid("missing unit (a \(metric.name) record says its unit)") }
            guard let factor = AppleMetricType.factor(unit, for: metric) else { return unknownUnit(unit, metric) }
            sample.value = number * factor
        }
        guard checkTimes(sample, start: start, end: end) else { return }
        hand(sample, of: metric, source: source, record: true)
    }

    /// A top-level `Workout` (asked for with `--metric workouts`): its minutes on the day it starts.
    func handleWorkout(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int) {
        metricBeingRead = .workouts
        defer { metricBeingRead = nil }
        let (source, start, end, duration, unit) = read(attributes, count, value: "duration", unit: "durationUnit")
        guard var sample = recordInterval(start: start, end: end) else { return }
        if let duration {
            guard let number = DecimalNumber.parse(duration), number >= 0 else {
                return invalid("workout duration \(quoted(duration)) is not a non-negative number")
            }
            guard let unit else { return invalid("missing durationUnit (a workout with a duration says its unit)") }
            guard let factor = AppleMetricType.factor(unit, for: .workouts) else { return unknownUnit(unit, .workouts) }
            sample.value = number * factor
        } else {
            // Older exports write no duration: the time from start to end.
            sample.value = Double(sample.endMs - sample.startMs) / 60_000
        }
        guard checkTimes(sample, start: start, end: end) else { return }
        hand(sample, of: .workouts, source: source)
    }

    /// The attributes a metric record or workout is read from, in one pass: `sourceName`,
    /// `startDate`, `endDate`, and its value and unit under the names given.
    private func read(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ count: Int,
                      value valueName: StaticString, unit unitName: StaticString)
        -> (source: UnsafeRawBufferPointer?, start: UnsafeRawBufferPointer?, end: UnsafeRawBufferPointer?,
            value: UnsafeRawBufferPointer?, unit: UnsafeRawBufferPointer?) {
        var found: (source: UnsafeRawBufferPointer?, start: UnsafeRawBufferPointer?, end: UnsafeRawBufferPointer?,
                    value: UnsafeRawBufferPointer?, unit: UnsafeRawBufferPointer?) = (nil, nil, nil, nil, nil)
        for index in 0..<count {
            let base = index * 5
            guard let name = attributes[base] else { continue }
            let text = span(attributes[base + 3], attributes[base + 4])
            // By the first letter, then whole: most names are compared once.
            switch name[0] {
            case UInt8(ascii: "s"):
                if isNamed(name, "sourceName") { found.source = text } else if isNamed(name, "startDate") { found.start = text }
            case UInt8(ascii: "e"):
                if isNamed(name, "endDate") { found.end = text }
            default:
                if isNamed(name, valueName) { found.value = text } else if isNamed(name, unitName) { found.unit = text }
            }
        }
        return found
    }

    /// The times' bounds (`SampleLimits.timeProblem`), the same as a step record's; false after
    /// reporting the record invalid.
    private func checkTimes(_ sample: HealthSample, start: UnsafeRawBufferPointer?, end: UnsafeRawBufferPointer?) -> Bool {
        guard let problem = SampleLimits.timeProblem(in: sample) else { return true }
        let startWords = "startDate \(start.map(quoted) ?? "")"
        invalid(problem.message(steps: "value", start: startWords, end: "endDate \(end.map(quoted) ?? "")",
                                offset: "the offset of \(startWords)"))
        return false
    }

    /// `record`: a `Record`, which Apple's mark of a hand entry may follow; a workout is handed on at once.
    private func hand(_ sample: HealthSample, of metric: Metric, source: UnsafeRawBufferPointer?, record: Bool = false) {
        statistics.metricRecords += 1
        if let source, source.count > 0 {
            record ? deliver(sample, of: metric, source: source) : sink.add(sample, of: metric, sourceUTF8: source)
        } else {
            AppleHealthParser.unknownSource.withUnsafeBytes {
                record ? deliver(sample, of: metric, source: $0) : sink.add(sample, of: metric, sourceUTF8: $0)
            }
        }
    }

    private func unknownUnit(_ unit: UnsafeRawBufferPointer, _ metric: Metric) {
        let known = AppleMetricType.units(of: metric).map(\.unit).joined(separator: ", ")
        let what = metric == .workouts ? "a workout duration" : metric.name
        invalid("unit \(quoted(unit)) is not a unit of \(what) stepimport knows (\(known)); "
                + "it is refused rather than given a wrong number")
    }

    /// What an invalid record is called in its message: "step record", "distance record",
    /// "sleep analysis record" (asleep or in bed), "workout".
    var recordWords: String {
        switch metricBeingRead {
        case nil, .steps?: ParseFailure.stepRecord
        case .workouts?: "workout"
        case .sleep?, .inBed?: "sleep analysis record"
        case let metric?: "\(metric.name) record"
        }
    }

    private func quoted(_ text: UnsafeRawBufferPointer) -> String {
        "\"\(String(decoding: text, as: UTF8.self))\""
    }
}
