/// The apps (data origins) of the synthetic Health Connect user.
///
/// Chosen for what they make an importer face: the phone's own counter under two package
/// names (renamed in 2026, one source), Google Fit reading the same phone sensor with its own
/// record boundaries and the odd duplicate, and a Samsung watch counting the same walks in
/// 10-minute bins, usually a little lower, on some days higher. Withings has no step records.
enum HealthConnectApp: Int, CaseIterable {
    /// The phone's own step counter, under its first name.
    case phoneLegacy
    case fit
    case samsung
    case withings
    /// The phone's own step counter after the rename.
    case phone

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
        }
    }

    var appName: String {
        switch self {
        case .phoneLegacy, .phone: return "Android"
        case .fit: return "Fit"
        case .samsung: return "Samsung Health"
        case .withings: return "Health Mate"
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
        default: return 1
        }
    }

    /// `application_info_table.record_types_used`: Health Connect's record type ids, comma-separated.
    var recordTypesUsed: String {
        switch self {
        case .phoneLegacy, .phone: return "1"
        case .fit: return "1,2,8,9"
        case .samsung: return "1,2,8,9,11,28"
        case .withings: return "21,23"
        }
    }

    /// Whether the app writes a `client_record_id` (then Health Connect keeps no `dedupe_hash`).
    var writesClientIDs: Bool {
        self == .fit || self == .samsung
    }

    /// The devices of `device_info_table`: row_id, manufacturer, model, device type (1 watch, 2 phone, 3 scale).
    static let devices: [(Int, String, String, Int)] = [
        (1, "Google", "Pixel 8", 2),
        (2, "samsung", "SM-R960", 1),
        (3, "Withings", "Body+", 3),
    ]

    /// `health_data_category_priority_table` rows: category and `app_id_priority_order`.
    /// Category 1 is ACTIVITY, 2 BODY_MEASUREMENTS.
    static let priorities: [(Int, String)] = [
        (1, [HealthConnectApp.phoneLegacy, .phone, .samsung, .fit].map { String($0.rowID) }.joined(separator: ",")),
        (2, String(HealthConnectApp.withings.rowID)),
    ]
}
