/// A stretch of time in which the owner is on their feet at a steady cadence.
///
/// Bouts are the ground truth of the synthetic day: every step-counting source
/// (phone, watch, band) measures the same bouts with its own sample boundaries,
/// coverage and bias, which is exactly the situation that makes summing
/// sources wrong.
struct WalkingBout {
    /// What kind of activity, which drives cadence, heart rate and energy.
    enum Kind {
        /// Pottering about: a minute or three, slow.
        case pottering
        /// A walk (commute, lunch, evening, weekend).
        case walk
        /// A run, always recorded as a workout by the watch.
        case run
    }

    /// First instant on the feet (seconds since 1970 UTC).
    var start: Int64
    /// First instant off the feet.
    var end: Int64
    var kind: Kind
    /// Steps per minute while the bout lasts.
    var cadence: Double
    /// Whether the phone was in a pocket (it is often left on a desk).
    var phoneCarried: Bool
    /// Whether the watch records the bout (false while it is on the charger).
    var watchWorn: Bool = true
    /// Whether the watch ran a workout session for this bout.
    var isWorkout: Bool = false

    var duration: Int64 { end - start }

    /// The true number of steps taken in `[from, to)`, clipped to the bout.
    func steps(from: Int64, to: Int64) -> Double {
        let overlap = min(to, end) - max(from, start)
        return overlap > 0 ? cadence * Double(overlap) / 60 : 0
    }
}
