import HealthDays

/// The records of the metrics beyond steps in apps' JSON dumps (docs/metrics.md, *App JSON
/// dumps*), as a record's own type word or its fields say, with the units each writes.
///
/// Sources: react-native-health-connect's `records.types.ts` and its Android `parseRecord`s
/// (`lengthToJsMap`, `energyToJsMap`: `inMeters`..., `inKilocalories`...); Capacitor's
/// `Serializer.kt` (`{"unit","value"}` with `meter`, `calories`...; the type is Health Connect's
/// record name, `HeartRateSeries` for heart rate); Flutter `health`'s `HealthDataType` and
/// `HealthDataUnit` names; HCGateway keeps react-native's fields under `data`.
enum AppDumpRecordType: Equatable {
    case distance, activeEnergy, totalEnergy, floors
    /// Energy with no word for which: active and total calories are written alike.
    case untypedEnergy
    /// A record with `samples` (react-native, Capacitor, HCGateway).
    case heartRateSeries
    /// One reading (Flutter's `HEART_RATE`, one point per sample).
    case heartRate
    case restingHeartRate, heartRateVariability, vo2Max
    /// A session with its `stages` (or none: then all of it is sleep); its span is time in bed.
    case sleepSession
    /// One stage on its own (Flutter's `SLEEP_*` points): asleep or not.
    case sleepStage(asleep: Bool)
    /// Time in bed alone (Flutter's `SLEEP_SESSION`, `SLEEP_IN_BED`).
    case inBed
    case exerciseSession

    /// The type for a record type word in lower case without `_`, `-`, `.` and spaces, or nil.
    /// `flutter` says the record is a Flutter data point, whose `SLEEP_SESSION` is only the span.
    init?(word: UnsafeBufferPointer<UInt8>, flutter: Bool) {
        guard let found = Self.words.first(where: { $0.word.elementsEqual(word) }) else { return nil }
        self = flutter && found.type == .sleepSession ? .inBed : found.type
    }

    private static let words: [(word: [UInt8], type: AppDumpRecordType)] = ([
        ("distance", .distance), ("distancedelta", .distance),
        ("activecaloriesburned", .activeEnergy), ("activeenergyburned", .activeEnergy),
        ("totalcaloriesburned", .totalEnergy),
        ("floorsclimbed", .floors), ("flightsclimbed", .floors),
        ("heartrate", .heartRate), ("heartrateseries", .heartRateSeries),
        ("restingheartrate", .restingHeartRate),
        ("heartratevariabilityrmssd", .heartRateVariability),
        ("vo2max", .vo2Max),
        ("sleepsession", .sleepSession), ("sleepinbed", .inBed),
        ("sleepasleep", .sleepStage(asleep: true)), ("sleeplight", .sleepStage(asleep: true)),
        ("sleepdeep", .sleepStage(asleep: true)), ("sleeprem", .sleepStage(asleep: true)),
        ("sleepawake", .sleepStage(asleep: false)), ("sleepawakeinbed", .sleepStage(asleep: false)),
        ("sleepoutofbed", .sleepStage(asleep: false)), ("sleepunknown", .sleepStage(asleep: false)),
        ("exercisesession", .exerciseSession), ("workout", .exerciseSession),
    ] as [(String, AppDumpRecordType)]).map { (Array($0.0.utf8), $0.1) }

    /// The metric its values go to (a sleep session's in bed as well as sleep).
    var metric: Metric {
        switch self {
        case .distance: .distance
        case .activeEnergy, .untypedEnergy: .activeEnergy
        case .totalEnergy: .totalEnergy
        case .floors: .flights
        case .heartRateSeries, .heartRate: .heartRate
        case .restingHeartRate: .restingHeartRate
        case .heartRateVariability: .heartRateVariabilityRMSSD
        case .vo2Max: .vo2Max
        case .sleepSession, .sleepStage: .sleep
        case .inBed: .inBed
        case .exerciseSession: .workouts
        }
    }

    /// Whether `metrics` asks for anything this record gives.
    func isWanted(in metrics: MetricSet) -> Bool {
        switch self {
        case .sleepSession: metrics.contains(.sleep) || metrics.contains(.inBed)
        case .untypedEnergy: metrics.contains(.activeEnergy) || metrics.contains(.totalEnergy)
        case .sleepStage: metrics.contains(.sleep)
        default: metrics.contains(metric)
        }
    }

    /// What an invalid record of this type is called in its message.
    var recordWords: String {
        switch self {
        case .heartRateSeries, .heartRate: "heart-rate record"
        case .sleepSession, .inBed: "sleep session"
        case .sleepStage: "sleep stage"
        case .exerciseSession: "exercise session"
        case .untypedEnergy: "energy record"
        default: "\(metric.name) record"
        }
    }

    // MARK: - Units

    /// The factor from a unit word (Capacitor's `unit`, Flutter's `unit`) to the column's unit
    /// of `metric`, or nil for a word not known for it.
    static func factor(unit: UnsafeRawBufferPointer, for metric: Metric) -> Double? {
        for entry in unitTable[metric.rawValue] where entry.unit.elementsEqual(unit) { return entry.factor }
        return nil
    }

    /// The unit words taken for `metric`, with their factors: Capacitor's (lower case) and
    /// Flutter's (upper case) `HealthDataUnit` names.
    static func units(of metric: Metric) -> [(unit: String, factor: Double)] {
        switch metric {
        case .distance:
            [("meter", 1), ("kilometer", 1000), ("mile", 1609.344), ("inch", 0.0254), ("feet", 0.3048),
             ("METER", 1), ("INCH", 0.0254), ("FOOT", 0.3048), ("YARD", 0.9144), ("MILE", 1609.344)]
        case .activeEnergy, .totalEnergy:
            [("kilocalories", 1), ("calories", 0.001), ("kilojoules", 1 / 4.184), ("joules", 1 / 4184),
             ("KILOCALORIE", 1), ("LARGE_CALORIE", 1), ("SMALL_CALORIE", 0.001), ("JOULE", 1 / 4184)]
        case .flights: [("COUNT", 1)]
        case .heartRate, .restingHeartRate: [("BEATS_PER_MINUTE", 1)]
        case .heartRateVariabilityRMSSD: [("MILLISECOND", 1), ("SECOND", 1000)]
        default: []
        }
    }

    private static let unitTable: [[(unit: [UInt8], factor: Double)]] = Metric.allCases.map { metric in
        units(of: metric).map { (Array($0.unit.utf8), $0.factor) }
    }

    /// The factor of a react-native member that names its unit (`distance.inMeters`,
    /// `energy.inKilocalories`), or nil for any other member.
    static func factor(member key: AppDumpJSONParser.Key) -> Double? {
        switch key {
        case .inMeters, .inKilocalories: 1
        case .inKilometers: 1000
        case .inMiles: 1609.344
        case .inFeet: 0.3048
        case .inInches: 0.0254
        case .inCalories: 0.001
        case .inJoules: 1 / 4184
        case .inKilojoules: 1 / 4.184
        default: nil
        }
    }

    /// Sleep stage words (Capacitor writes the name of `SleepSessionRecord.StageType`, react-native
    /// the number): their numbers, 0 UNKNOWN to 7 AWAKE_IN_BED.
    static func stageNumber(_ word: UnsafeRawBufferPointer) -> Int64? {
        stageWords.firstIndex { $0.elementsEqual(word) }.map(Int64.init)
    }

    private static let stageWords: [[UInt8]] = ["unknown", "awake", "sleeping", "out_of_bed", "light", "deep", "rem",
                                                "awake_in_bed"].map { Array($0.utf8) }
}
