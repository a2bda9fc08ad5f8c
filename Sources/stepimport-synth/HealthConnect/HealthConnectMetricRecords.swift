/// The records of the metrics beyond steps (docs/metrics.md) that the synthetic Health Connect
/// user's apps write, as the generator wrote them: the model the metric tables and the expected
/// day values (`HealthConnectExpectedMetrics`) are both made from, like `HealthConnectRecord` for
/// steps. Times are milliseconds since 1970 UTC, offsets seconds east of UTC.

/// The columns every record table shares after `row_id`.
struct HealthConnectRecordMetadata {
    var app: HealthConnectApp
    /// `device_info_table.row_id`: the app's device, or another one of the same maker.
    var deviceID: Int
    var recordingMethod: HealthConnectRecord.RecordingMethod
    var lastModifiedMs: Int64
    /// Health Connect's record id, 16 random bytes.
    var uuidHigh: UInt64
    var uuidLow: UInt64
    /// The app's own id for the record (0 = none: the row gets a `dedupe_hash` instead).
    var clientID: UInt64
}

/// An interval record of a cumulative quantity: distance, active or total calories, floors.
struct HealthConnectQuantityRecord {
    enum Kind: CaseIterable {
        case distance
        case activeCalories
        case totalCalories
        case floors

        var table: String {
            switch self {
            case .distance: return "distance_record_table"
            case .activeCalories: return "active_calories_burned_record_table"
            case .totalCalories: return "total_calories_burned_record_table"
            case .floors: return "floors_climbed_record_table"
            }
        }

        var valueColumn: String {
            switch self {
            case .distance: return "distance"
            case .activeCalories, .totalCalories: return "energy"
            case .floors: return "floors"
            }
        }
    }

    var kind: Kind
    var metadata: HealthConnectRecordMetadata
    var startMs: Int64
    var endMs: Int64
    var startOffset: Int32
    var endOffset: Int32
    /// The value in thousandths of the metric column's unit: millimetres, small calories
    /// (thousandths of a kcal), thousandths of a floor. Whole, so the expected sums are exact.
    var thousandths: Int64

    /// The REAL the table holds: metres, small calories (Health Connect stores `Energy` in
    /// calories: kcal × 1000), floors.
    var storedValue: Double {
        switch kind {
        case .distance, .floors: return Double(thousandths) / 1000
        case .activeCalories, .totalCalories: return Double(thousandths)
        }
    }
}

/// A `heart_rate_record_table` row and its `heart_rate_record_series_table` samples.
struct HealthConnectHeartRateSeries {
    struct Sample: Hashable {
        var epochMs: Int64
        var beatsPerMinute: Int
    }

    var metadata: HealthConnectRecordMetadata
    var startMs: Int64
    var endMs: Int64
    var startOffset: Int32
    var endOffset: Int32
    var samples: [Sample]
}

/// A record of one instant: resting heart rate, HRV (RMSSD), VO2max.
struct HealthConnectInstantRecord {
    enum Kind: CaseIterable {
        case restingHeartRate
        case heartRateVariability
        case vo2Max

        var table: String {
            switch self {
            case .restingHeartRate: return "resting_heart_rate_record_table"
            case .heartRateVariability: return "heart_rate_variability_rmssd_record_table"
            case .vo2Max: return "vo2_max_record_table"
            }
        }
    }

    var kind: Kind
    var metadata: HealthConnectRecordMetadata
    var timeMs: Int64
    var offset: Int32
    /// The value in hundredths (bpm, ms, mL/(kg·min)); whole bpm for resting heart rate.
    var hundredths: Int64
    /// `vo2_max_record_table.measurement_method` (0 other, 2 heart rate ratio, ...).
    var measurementMethod: Int = 0
}

/// A `sleep_session_record_table` row and its `sleep_stages_table` rows.
struct HealthConnectSleepSession {
    /// `sleep_stages_table.stage_type`.
    enum StageType: Int {
        case unknown = 0
        case awake = 1
        case sleeping = 2
        case outOfBed = 3
        case light = 4
        case deep = 5
        case rem = 6
        case awakeInBed = 7

        /// Whether the stage counts as asleep (`sleep_min`): sleeping, light, deep, REM.
        var isAsleep: Bool {
            switch self {
            case .sleeping, .light, .deep, .rem: return true
            case .unknown, .awake, .outOfBed, .awakeInBed: return false
            }
        }
    }

    struct Stage {
        var startMs: Int64
        var endMs: Int64
        var type: StageType
    }

    var metadata: HealthConnectRecordMetadata
    var startMs: Int64
    var endMs: Int64
    var startOffset: Int32
    var endOffset: Int32
    var notes: String?
    var title: String?
    /// Empty for an app that writes only the session.
    var stages: [Stage]
}

/// An `exercise_session_record_table` row.
struct HealthConnectExerciseSession {
    /// `exercise_type`: Health Connect's `ExerciseSessionType` values.
    enum ExerciseType: Int {
        case biking = 8
        case strengthTraining = 70
        case swimmingPool = 74
        case walking = 79
    }

    var metadata: HealthConnectRecordMetadata
    var startMs: Int64
    var endMs: Int64
    var startOffset: Int32
    var endOffset: Int32
    var type: ExerciseType
    var title: String?
    var notes: String?
    var hasRoute: Bool
}

/// Everything one generated day adds to the metric tables, in the order it is written.
struct HealthConnectMetricDay {
    var quantities: [HealthConnectQuantityRecord] = []
    var heartRates: [HealthConnectHeartRateSeries] = []
    var instants: [HealthConnectInstantRecord] = []
    var sleepSessions: [HealthConnectSleepSession] = []
    var exercises: [HealthConnectExerciseSession] = []

    mutating func removeAll() {
        quantities.removeAll(keepingCapacity: true)
        heartRates.removeAll(keepingCapacity: true)
        instants.removeAll(keepingCapacity: true)
        sleepSessions.removeAll(keepingCapacity: true)
        exercises.removeAll(keepingCapacity: true)
    }
}
