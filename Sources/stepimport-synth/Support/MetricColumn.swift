/// The columns of `--metric` output, in their order (docs/metrics.md, Output), with how each
/// is written: the generator's own list, for the expected values of both `apple` and `hc-db`.
/// (It names them itself, as every part of the generator does, rather than borrowing the tool's.)
enum MetricColumn: CaseIterable {
    case steps
    case distance
    case activeEnergy
    case totalEnergy
    case flights
    case exercise
    case moveMinutes
    case heartPoints
    case heartRateAverage
    case heartRateMinimum
    case heartRateMaximum
    case restingHeartRate
    case heartRateVariability
    case heartRateVariabilityRMSSD
    case vo2Max
    case sleep
    case inBed
    case workouts
    case workoutMinutes

    /// The column's name in the CSV header and the JSON keys.
    var name: String {
        switch self {
        case .steps: return "steps"
        case .distance: return "distance_m"
        case .activeEnergy: return "active_kcal"
        case .totalEnergy: return "total_kcal"
        case .flights: return "flights"
        case .exercise: return "exercise_min"
        case .moveMinutes: return "move_min"
        case .heartPoints: return "heart_points"
        case .heartRateAverage: return "hr_avg"
        case .heartRateMinimum: return "hr_min"
        case .heartRateMaximum: return "hr_max"
        case .restingHeartRate: return "resting_hr"
        case .heartRateVariability: return "hrv_sdnn_ms"
        case .heartRateVariabilityRMSSD: return "hrv_rmssd_ms"
        case .vo2Max: return "vo2max"
        case .sleep: return "sleep_min"
        case .inBed: return "in_bed_min"
        case .workouts: return "workouts"
        case .workoutMinutes: return "workout_min"
        }
    }

    /// Whether the column is written with one decimal (its value is kept in tenths);
    /// every other column is a whole number.
    var hasOneDecimal: Bool {
        switch self {
        case .heartRateAverage, .restingHeartRate, .heartRateVariability, .heartRateVariabilityRMSSD, .vo2Max: return true
        default: return false
        }
    }

    /// The columns of `stepimport apple --metric all`: HRV as SDNN, no total energy, no Google
    /// Fit minutes or points.
    static let apple = allCases.filter { ![.heartRateVariabilityRMSSD, .totalEnergy, .moveMinutes, .heartPoints].contains($0) }
    /// The columns of `stepimport hc --metric all`: HRV as RMSSD, no exercise minutes (a
    /// database has no move minutes or heart points: those columns stay empty).
    static let healthConnect = allCases.filter { $0 != .heartRateVariability && $0 != .exercise }

    /// A value of the column as JSON and the CSV write it: `8123`, or `72.4` from 724 tenths.
    func text(_ value: Int) -> String {
        guard hasOneDecimal else { return String(value) }
        let sign = value < 0 ? "-" : ""
        return "\(sign)\(value.magnitude / 10).\(value.magnitude % 10)"
    }
}
