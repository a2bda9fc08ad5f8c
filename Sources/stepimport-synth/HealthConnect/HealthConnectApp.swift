/// The apps (data origins) of the synthetic Health Connect user.
///
/// Chosen for what they make an importer face: the phone's own counter under two package
/// names (renamed in 2026, one source), Google Fit reading the same phone sensor with its own
/// record boundaries and the odd duplicate, and a Samsung watch counting the same walks in
/// 10-minute bins, usually a little lower, on some days higher. Withings has no step records.
///
/// For the metrics beyond steps (`HealthConnectMetricComposer`): Fit and the watch also write
/// distance, calories, floors, heart rate, VO2max and workouts; Withings' blood-pressure cuff
/// writes a heart rate with each measurement; an Oura ring writes the nights it is worn (sleep
/// with stages, heart rate, HRV, resting heart rate); Sleep as Android writes only the sessions
/// of the nights it is used (its alarm), most without stages. None of the last two writes steps.
enum HealthConnectApp: Int, CaseIterable {
    /// The phone's own step counter, under its first name.
    case phoneLegacy
    case fit
    case samsung
    case withings
    /// The phone's own step counter after the rename.
    case phone
    /// An Oura ring: nights only.
    case oura
    /// Sleep as Android, a sleep app on the phone: sleep sessions only.
    case sleepAsAndroid

    /// `application_info_table.row_id`: the order in which the apps first wrote to Health Connect.
    var rowID: Int { rawValue + 1 }

    /// The data origin, `application_info_table.package_name`.
    var packageName: String {
        switch self {
        case .phoneLegacy: return "android"
        case .fit: return "com.google.android.apps.fitness"
        case .samsung: return "com.sec.android.app.shealth"
        case .withings: return "com.withings.wiscale2"
        case .phone: return "com.android.healthconnect.phone.steps"
        case .oura: return "com.ouraring.oura"
        case .sleepAsAndroid: return "com.urbandroid.sleep"
        }
    }

    var appName: String {
        switch self {
        case .phoneLegacy, .phone: return "Android"
        case .fit: return "Fit"
        case .samsung: return "Samsung Health"
        case .withings: return "Health Mate"
        case .oura: return "Oura"
        case .sleepAsAndroid: return "Sleep as Android"
        }
    }

    /// The source an importer must total it under: the phone's two names are one source.
    var source: String {
        self == .phone ? HealthConnectApp.phoneLegacy.packageName : packageName
    }

    /// `device_info_table.row_id` of the device its records come from.
    var deviceID: Int {
        switch self {
        case .samsung: return 2
        case .withings: return 3
        case .oura: return 4
        default: return 1
        }
    }

    /// `application_info_table.record_types_used`: Health Connect's record type ids
    /// (`RecordTypeIdentifier`: 1 steps, 2 active calories, 5 floors, 7 distance, 9 total
    /// calories, 11 heart rate, 17 body fat, 18 VO2max, 23 blood pressure, 26 weight, 33 resting
    /// heart rate, 35 HRV RMSSD, 37 exercise, 38 sleep), comma-separated.
    var recordTypesUsed: String {
        switch self {
        case .phoneLegacy, .phone: return "1"
        case .fit: return "1,2,5,7,9,11,18,33,37"
        case .samsung: return "1,2,5,7,9,11,18,33,35,37,38"
        case .withings: return "11,17,23,26"
        case .oura: return "11,33,35,38"
        case .sleepAsAndroid: return "38"
        }
    }

    /// Whether the app writes a `client_record_id` (then Health Connect keeps no `dedupe_hash`).
    var writesClientIDs: Bool {
        self == .fit || self == .samsung || self == .withings || self == .oura
    }

    /// The prefix of the app's `client_record_id`s.
    var clientIDPrefix: String {
        switch self {
        case .samsung: return "shealth-"
        case .withings: return "withings-"
        case .oura: return "oura-"
        default: return "fit-"
        }
    }

    /// The devices of `device_info_table`: row_id, manufacturer, model, device type (0 unknown,
    /// 1 watch, 2 phone, 3 scale, 4 ring). Withings' blood-pressure cuff writes its heart rates.
    static let devices: [(Int, String, String, Int)] = [
        (1, "Google", "Pixel 8", 2),
        (2, "samsung", "SM-R960", 1),
        (3, "Withings", "Body+", 3),
        (4, "Oura", "Oura Ring Gen3", 4),
        (5, "Withings", "BPM Connect", 0),
    ]

    /// `device_info_table.row_id` of Withings' blood-pressure cuff.
    static let bloodPressureCuffDeviceID = 5

    /// `health_data_category_priority_table` rows: category and `app_id_priority_order`.
    /// Category 1 is ACTIVITY (steps, distance, calories, floors, VO2max, exercise), 2
    /// BODY_MEASUREMENTS, 5 SLEEP, 6 VITALS (heart rate, resting heart rate, HRV).
    static let priorities: [(Int, String)] = [
        (1, [HealthConnectApp.phoneLegacy, .phone, .samsung, .fit].map { String($0.rowID) }.joined(separator: ",")),
        (2, String(HealthConnectApp.withings.rowID)),
        (5, [HealthConnectApp.samsung, .oura, .sleepAsAndroid].map { String($0.rowID) }.joined(separator: ",")),
        (6, [HealthConnectApp.samsung, .oura, .withings, .fit].map { String($0.rowID) }.joined(separator: ",")),
    ]
}
