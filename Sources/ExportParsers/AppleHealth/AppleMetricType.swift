import Glibc
import HealthDays

/// The Apple record types of the metrics beyond steps (docs/metrics.md), recognised from the
/// `type` attribute's bytes, with the units each is written in.
enum AppleMetricType {
    /// A quantity record of one metric.
    case quantity(Metric)
    /// `HKCategoryTypeIdentifierSleepAnalysis`: sleep or in bed, by its value.
    case sleepAnalysis

    private static let quantities: [(type: [UInt8], metric: Metric)] = ([
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", .distance),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", .activeEnergy),
        ("HKQuantityTypeIdentifierFlightsClimbed", .flights),
        ("HKQuantityTypeIdentifierAppleExerciseTime", .exercise),
        ("HKQuantityTypeIdentifierHeartRate", .heartRate),
        ("HKQuantityTypeIdentifierRestingHeartRate", .restingHeartRate),
        ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .heartRateVariability),
        ("HKQuantityTypeIdentifierVO2Max", .vo2Max),
    ] as [(String, Metric)]).map { (Array($0.0.utf8), $0.1) }
    private static let sleepType = Array("HKCategoryTypeIdentifierSleepAnalysis".utf8)

    /// The type these bytes name, or nil for a type no metric reads.
    init?(_ type: UnsafeRawBufferPointer) {
        if AppleMetricType.matches(type, AppleMetricType.sleepType) {
            self = .sleepAnalysis
            return
        }
        for entry in AppleMetricType.quantities where AppleMetricType.matches(type, entry.type) {
            self = .quantity(entry.metric)
            return
        }
        return nil
    }

    /// The `type`s of the records read for `metrics` beyond steps: those whose `isWanted(in:)` holds.
    static func types(wantedIn metrics: MetricSet) -> [[UInt8]] {
        (AppleMetricType.sleepAnalysis.isWanted(in: metrics) ? [sleepType] : [])
            + quantities.filter { AppleMetricType.quantity($0.metric).isWanted(in: metrics) }.map(\.type)
    }

    /// Whether any metric it feeds is asked for.
    func isWanted(in metrics: MetricSet) -> Bool {
        switch self {
        case .quantity(let metric): metrics.contains(metric)
        case .sleepAnalysis: metrics.contains(.sleep) || metrics.contains(.inBed)
        }
    }

    @inline(__always)
    private static func matches(_ text: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        guard text.count == expected.count else { return false }
        return expected.withUnsafeBytes { memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }
    }

    // MARK: - Units

    /// The factor from `unit` to the column unit of `metric` (docs/metrics.md, *Units*), or nil
    /// for a unit stepimport does not know: such a record is refused, never given a wrong number.
    static func factor(_ unit: UnsafeRawBufferPointer, for metric: Metric) -> Double? {
        for entry in unitTable[metric.rawValue] where matches(unit, entry.unit) { return entry.factor }
        return nil
    }

    /// `units(of:)` as bytes, by `Metric.rawValue`: no record costs an allocation.
    private static let unitTable: [[(unit: [UInt8], factor: Double)]] = Metric.allCases.map { metric in
        units(of: metric).map { (Array($0.unit.utf8), $0.factor) }
    }

    /// The units taken for `metric`'s records (and for workout durations), with their factors.
    static func units(of metric: Metric) -> [(unit: String, factor: Double)] {
        switch metric {
        case .distance: [("m", 1), ("km", 1000), ("cm", 0.01), ("mi", 1609.344), ("ft", 0.3048), ("yd", 0.9144)]
        case .activeEnergy, .totalEnergy: [("kcal", 1), ("Cal", 1), ("kJ", 1 / 4.184), ("cal", 0.001), ("J", 1 / 4184)]
        case .flights, .steps, .heartPoints: [("count", 1)]
        case .exercise, .moveMinutes, .workouts, .sleep, .inBed: [("min", 1), ("s", 1.0 / 60), ("hr", 60)]
        case .heartRate, .restingHeartRate: [("count/min", 1), ("count/s", 60)]
        case .heartRateVariability, .heartRateVariabilityRMSSD: [("ms", 1), ("s", 1000)]
        case .vo2Max: [("mL/min\u{00B7}kg", 1), ("mL/kg\u{00B7}min", 1), ("mL/(kg\u{00B7}min)", 1), ("ml/(kg*min)", 1)]
        }
    }

    // MARK: - Sleep values

    /// What a sleep analysis value counts as.
    enum SleepValue {
        case asleep, inBed, awake
    }

    private static let sleepValues: [(value: [UInt8], meaning: SleepValue)] = ([
        ("HKCategoryValueSleepAnalysisAsleep", .asleep),
        ("HKCategoryValueSleepAnalysisAsleepUnspecified", .asleep),
        ("HKCategoryValueSleepAnalysisAsleepCore", .asleep),
        ("HKCategoryValueSleepAnalysisAsleepDeep", .asleep),
        ("HKCategoryValueSleepAnalysisAsleepREM", .asleep),
        ("HKCategoryValueSleepAnalysisInBed", .inBed),
        ("HKCategoryValueSleepAnalysisAwake", .awake),
    ] as [(String, SleepValue)]).map { (Array($0.0.utf8), $0.1) }

    /// The meaning of a sleep analysis `value`, or nil for a value Apple has not defined (yet).
    static func sleepValue(_ text: UnsafeRawBufferPointer) -> SleepValue? {
        sleepValues.first { matches(text, $0.value) }?.meaning
    }
}
