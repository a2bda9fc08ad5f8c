/// The generator's own note of one top-level record of a metric beyond steps
/// (docs/metrics.md): distance, active energy, flights, exercise minutes, heart
/// rate, resting heart rate, HRV, VO2max, sleep analysis, and `Workout` elements.
///
/// Like `WrittenStepSample`, the expected metrics are computed from these notes,
/// never by reading the file back. The value is noted already converted to the
/// unit of its column, from the number the generator wrote (so a record written
/// in miles is noted in metres, one in kJ in kcal).
struct WrittenMetricSample {
    /// What a record measures.
    enum Metric: CaseIterable {
        /// `DistanceWalkingRunning`, in metres.
        case distance
        /// `ActiveEnergyBurned`, in kcal.
        case activeEnergy
        /// `FlightsClimbed`, a count.
        case flights
        /// `AppleExerciseTime`, in minutes.
        case exercise
        /// `HeartRate`, in beats per minute.
        case heartRate
        /// `RestingHeartRate`, in beats per minute.
        case restingHeartRate
        /// `HeartRateVariabilitySDNN`, in ms.
        case heartRateVariability
        /// `VO2Max`, in mL/(kg·min).
        case vo2Max
        /// `SleepAnalysis`: the stage is in `stage`, the value is 0.
        case sleep
        /// A `Workout` element: its duration in minutes.
        case workout
    }

    /// The value of a `SleepAnalysis` record.
    enum SleepStage {
        /// `HKCategoryValueSleepAnalysisInBed`.
        case inBed
        /// `HKCategoryValueSleepAnalysisAsleep`, the value before iOS 16.
        case asleep
        /// `HKCategoryValueSleepAnalysisAsleepUnspecified`.
        case asleepUnspecified
        case asleepCore
        case asleepDeep
        case asleepREM
        /// `HKCategoryValueSleepAnalysisAwake`: never counts.
        case awake

        /// Whether the stage is one of the asleep values (the `sleep` metric).
        var isAsleep: Bool {
            switch self {
            case .asleep, .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: return true
            case .inBed, .awake: return false
            }
        }
    }

    let metric: Metric
    let source: ExportSource
    /// `startDate` as an instant (seconds since 1970 UTC).
    let start: Int64
    /// `endDate` as an instant; equal to `start` for instantaneous samples.
    let end: Int64
    /// The value in the column's unit (a workout's duration in minutes); 0 for sleep.
    let value: Double
    /// The stage, for `.sleep` records only.
    let stage: SleepStage?
}
