/// The JSON dumps of Health Connect data that apps write (docs/formats.md), one per `--shape`.
enum HealthConnectJSONShape: String, CaseIterable {
    /// react-native-health-connect `readRecords('Steps')`: `{"records":[...],"pageToken":null}`
    /// with zone offset objects.
    case reactNative = "react-native"
    /// The same, as dumped before 2026: no zone offsets.
    case reactNativeNoOffsets = "react-native-no-offsets"
    /// HCGateway: an array of `{"_id","id","data":{"count"},"app","start","end"}`, UTC instants.
    case hcGateway = "hcgateway"
    /// Capacitor: `{"records":[{"type":"Steps","startTime","startZoneOffset":"+09:00",...}]}`.
    case capacitor
    /// Flutter `health`: an array of data points with local wall times and no offset.
    case flutter
    /// Flutter `health` before its keys became camelCase: `date_from`, `source_name`, ...
    case flutterSnake = "flutter-snake"
    /// A small exporter app's day totals: `[{"date":"YYYY-MM-DD","steps":N}]`, no origin.
    case dayTotals = "day-totals"

    /// How a reader places this shape's samples on the calendar (docs/rules.md, *The highest-source rule*, rule 5).
    enum Placement {
        /// In each record's own start offset.
        case ownOffset
        /// UTC instants without an offset: taken as UTC.
        case utc
        /// Local wall times without an offset: taken as UTC, so the date is the written one.
        case wallClock
        /// Already a calendar day.
        case dayTotal
    }

    /// Whether `--metrics` puts each record type under a member of its own: react-native and
    /// HCGateway records do not say their type (Capacitor's and Flutter's do, so theirs mix).
    var hasMetricSections: Bool {
        switch self {
        case .reactNative, .reactNativeNoOffsets, .hcGateway: return true
        case .capacitor, .flutter, .flutterSnake, .dayTotals: return false
        }
    }

    var placement: Placement {
        switch self {
        case .reactNative, .capacitor: return .ownOffset
        case .reactNativeNoOffsets, .hcGateway: return .utc
        case .flutter, .flutterSnake: return .wallClock
        case .dayTotals: return .dayTotal
        }
    }
}
