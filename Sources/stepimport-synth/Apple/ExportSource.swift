/// An app or device that wrote records into the synthetic export (`sourceName`).
///
/// The set is chosen for what each source makes a step importer face: two
/// Apple devices counting the same walks, a band app that writes every sample
/// many times, hand-typed entries, fractional counts, and a scale app whose step
/// record also sits inside a `Correlation`; and for the other metrics, a sleep
/// app that writes the same nights as the watch, and a running app that writes
/// its own copy of some workouts in other units. New sources go at the end: each
/// source draws its day's device addresses in this order.
enum ExportSource: Int, CaseIterable, Comparable {
    /// The owner's iPhone. The name has a curly apostrophe (U+2019), as iOS writes it.
    case phone
    /// The owner's Apple Watch, recording the same walks with its own sample boundaries.
    case watch
    /// Xiaomi's band app: writes each 10-minute sample 2 to 17 times.
    case miFit
    /// The Health app itself: manual entries, tagged `HKWasUserEntered`.
    case healthApp
    /// A third-party app that writes fractional step counts.
    case stepBridge
    /// Withings' app: blood pressure correlations (with a step record inside).
    case healthMate
    /// An iPhone sleep app: one whole-night asleep interval (and its in-bed
    /// session) on some nights, over the watch's stages, and some weekend naps.
    case sleepCycle
    /// A running app on the phone: its own `Workout` for some of the watch's
    /// runs and for some walks home, with distance in miles and energy in kJ.
    case strava

    /// The `sourceName` attribute value.
    var name: String {
        switch self {
        case .phone: return "Anna\u{2019}s iPhone"
        case .watch: return "Anna\u{2019}s Apple Watch"
        case .miFit: return "Mi Fit"
        case .healthApp: return "Health"
        case .stepBridge: return "StepBridge"
        case .healthMate: return "Health Mate"
        case .sleepCycle: return "Sleep Cycle"
        case .strava: return "Strava"
        }
    }

    static func < (lhs: ExportSource, rhs: ExportSource) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
