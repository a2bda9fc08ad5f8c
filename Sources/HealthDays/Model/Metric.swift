/// A daily metric an export can give besides steps (docs/metrics.md): what it is called on the
/// command line, the columns it fills, how its day is computed and which values are plausible.
public enum Metric: Int, CaseIterable, Sendable, Comparable {
    case steps
    case distance
    case activeEnergy
    /// Energy burned in all, the body's resting energy included (Health Connect's total calories,
    /// Google Fit's calories): its own column, never mixed into active energy.
    case totalEnergy
    case flights
    case exercise
    /// Google Fit's Move Minutes: minutes of any movement.
    case moveMinutes
    /// Google Fit's Heart Points: a point a minute of moderate activity, two of vigorous.
    case heartPoints
    case heartRate
    case restingHeartRate
    case heartRateVariability
    /// Heart-rate variability as Health Connect stores it (RMSSD), never mixed with Apple's SDNN.
    case heartRateVariabilityRMSSD
    case vo2Max
    case sleep
    case inBed
    case workouts

    /// How a metric's day is computed.
    public enum Kind: Sendable {
        /// Summed like steps: duplicates once, split at midnight, the highest single source.
        case cumulative
        /// Measured now and then: the day's samples of the source with the most samples, averaged.
        case sampled
        /// Intervals: per source their union, in periods, on the day each period ends.
        case sleep
        /// Sessions: counted with their minutes on the day they start.
        case workouts
    }

    /// The word `--metric` takes.
    public var name: String {
        switch self {
        case .steps: "steps"
        case .distance: "distance"
        case .activeEnergy: "active-energy"
        case .totalEnergy: "total-energy"
        case .flights: "flights"
        case .exercise: "exercise"
        case .moveMinutes: "move-minutes"
        case .heartPoints: "heart-points"
        case .heartRate: "heart-rate"
        case .restingHeartRate: "resting-hr"
        case .heartRateVariability: "hrv"
        case .heartRateVariabilityRMSSD: "hrv-rmssd"
        case .vo2Max: "vo2max"
        case .sleep: "sleep"
        case .inBed: "in-bed"
        case .workouts: "workouts"
        }
    }

    /// The metric `--metric` calls `name`, or nil.
    public init?(name: String) {
        guard let found = Metric.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    public var kind: Kind {
        switch self {
        case .steps, .distance, .activeEnergy, .totalEnergy, .flights, .exercise, .moveMinutes, .heartPoints: .cumulative
        case .heartRate, .restingHeartRate, .heartRateVariability, .heartRateVariabilityRMSSD, .vo2Max: .sampled
        case .sleep, .inBed: .sleep
        case .workouts: .workouts
        }
    }

    /// The columns it fills, in output order.
    public var columns: [MetricColumn] {
        switch self {
        case .steps: [.steps]
        case .distance: [.distanceMetres]
        case .activeEnergy: [.activeKilocalories]
        case .totalEnergy: [.totalKilocalories]
        case .flights: [.flights]
        case .exercise: [.exerciseMinutes]
        case .moveMinutes: [.moveMinutes]
        case .heartPoints: [.heartPoints]
        case .heartRate: [.heartRateAverage, .heartRateMinimum, .heartRateMaximum]
        case .restingHeartRate: [.restingHeartRate]
        case .heartRateVariability: [.heartRateVariability]
        case .heartRateVariabilityRMSSD: [.heartRateVariabilityRMSSD]
        case .vo2Max: [.vo2Max]
        case .sleep: [.sleepMinutes]
        case .inBed: [.inBedMinutes]
        case .workouts: [.workouts, .workoutMinutes]
        }
    }

    /// The values taken (docs/metrics.md, *Plausible ranges*), in the column's unit: for a sampled
    /// metric each sample's, otherwise a source's day total. Nil for steps, which keep their own rule.
    public var plausibleRange: ClosedRange<Double>? {
        switch self {
        case .steps: nil
        case .distance: 0...350_000
        case .activeEnergy: 0...20_000
        case .totalEnergy: 0...30_000
        case .flights: 0...5_000
        case .exercise, .moveMinutes, .sleep, .inBed, .workouts: 0...1_440
        case .heartPoints: 0...2_880
        case .heartRate: 25...250
        case .restingHeartRate: 25...150
        case .heartRateVariability, .heartRateVariabilityRMSSD: 1...300
        case .vo2Max: 10...95
        }
    }

    /// The unit of the values compared with `plausibleRange`, for the summary.
    public var unitWords: String {
        switch self {
        case .steps, .flights, .heartPoints: ""
        case .distance: "m"
        case .activeEnergy, .totalEnergy: "kcal"
        case .exercise, .moveMinutes, .sleep, .inBed, .workouts: "min"
        case .heartRate, .restingHeartRate: "bpm"
        case .heartRateVariability, .heartRateVariabilityRMSSD: "ms"
        case .vo2Max: "mL/(kg·min)"
        }
    }

    public static func < (lhs: Metric, rhs: Metric) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One output column of the daily metrics (docs/metrics.md, *Metrics and columns*).
public enum MetricColumn: Int, CaseIterable, Sendable, Comparable {
    case steps
    case distanceMetres
    case activeKilocalories
    case totalKilocalories
    case flights
    case exerciseMinutes
    case moveMinutes
    case heartPoints
    case heartRateAverage
    case heartRateMinimum
    case heartRateMaximum
    case restingHeartRate
    case heartRateVariability
    case heartRateVariabilityRMSSD
    case vo2Max
    case sleepMinutes
    case inBedMinutes
    case workouts
    case workoutMinutes

    /// The column's name in every output format.
    public var name: String {
        switch self {
        case .steps: "steps"
        case .distanceMetres: "distance_m"
        case .activeKilocalories: "active_kcal"
        case .totalKilocalories: "total_kcal"
        case .flights: "flights"
        case .exerciseMinutes: "exercise_min"
        case .moveMinutes: "move_min"
        case .heartPoints: "heart_points"
        case .heartRateAverage: "hr_avg"
        case .heartRateMinimum: "hr_min"
        case .heartRateMaximum: "hr_max"
        case .restingHeartRate: "resting_hr"
        case .heartRateVariability: "hrv_sdnn_ms"
        case .heartRateVariabilityRMSSD: "hrv_rmssd_ms"
        case .vo2Max: "vo2max"
        case .sleepMinutes: "sleep_min"
        case .inBedMinutes: "in_bed_min"
        case .workouts: "workouts"
        case .workoutMinutes: "workout_min"
        }
    }

    /// Decimal places its values keep: one for averages, none for the rest.
    public var decimals: Int {
        switch self {
        case .heartRateAverage, .restingHeartRate, .heartRateVariability, .heartRateVariabilityRMSSD, .vo2Max: 1
        default: 0
        }
    }

    /// The metric it belongs to.
    public var metric: Metric {
        switch self {
        case .steps: .steps
        case .distanceMetres: .distance
        case .activeKilocalories: .activeEnergy
        case .totalKilocalories: .totalEnergy
        case .flights: .flights
        case .exerciseMinutes: .exercise
        case .moveMinutes: .moveMinutes
        case .heartPoints: .heartPoints
        case .heartRateAverage, .heartRateMinimum, .heartRateMaximum: .heartRate
        case .restingHeartRate: .restingHeartRate
        case .heartRateVariability: .heartRateVariability
        case .heartRateVariabilityRMSSD: .heartRateVariabilityRMSSD
        case .vo2Max: .vo2Max
        case .sleepMinutes: .sleep
        case .inBedMinutes: .inBed
        case .workouts, .workoutMinutes: .workouts
        }
    }

    /// `value` rounded, half away from zero, to the column's decimal places: the one rounding of
    /// every metric value, at the end.
    ///
    /// The value is first taken to the nearest millionth, so that binary floating point never
    /// decides a half: 2.5795 km in metres is 2579.4999999999995 as a `Double`, but 2579.5 as
    /// written, which rounds to 2580. (Steps keep their own rounding of the plain sum.)
    public func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        let millionths = (value * 1_000_000).rounded()
        if decimals == 0 { return (millionths / 1_000_000).rounded(.toNearestOrAwayFromZero) }
        return (millionths / 100_000).rounded(.toNearestOrAwayFromZero) / 10
    }

    public static func < (lhs: MetricColumn, rhs: MetricColumn) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The metrics asked for; iterates in output order.
public struct MetricSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public init(_ metric: Metric) {
        rawValue = 1 << UInt32(metric.rawValue)
    }

    public init(_ metrics: some Sequence<Metric>) {
        rawValue = metrics.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    public static let steps = MetricSet(Metric.steps)
    /// Every metric any reader gives.
    public static let all = MetricSet(Metric.allCases)
    public func contains(_ metric: Metric) -> Bool {
        rawValue & 1 << UInt32(metric.rawValue) != 0
    }

    /// Whether steps are all it holds (the output is then exactly the steps output).
    public var isStepsOnly: Bool { self == .steps }

    public var metrics: [Metric] { Metric.allCases.filter(contains) }

    public var columns: [MetricColumn] { metrics.flatMap(\.columns) }
}
