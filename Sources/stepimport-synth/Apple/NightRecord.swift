/// What one night's sleep records said, kept while the day is composed so that
/// the sleep app writes the same night with a length that differs clearly from
/// the watch's and the phone's (never within a minute, where whether minutes are
/// compared before or after rounding would decide the winner).
struct NightRecord {
    /// The watch's asleep intervals (its stages, and the unspecified interval it
    /// sometimes adds over them).
    var watchAsleep: [Range<Int64>] = []
    /// The phone's in-bed interval.
    var phoneInBed: Range<Int64>?
    /// Seconds of the sleep app's whole-night asleep interval, if it wrote one.
    var sleepAppAsleep: Int64?

    /// Seconds covered by the watch's asleep intervals, overlaps counted once.
    var watchAsleepSeconds: Int64 {
        var total: Int64 = 0
        var coveredUntil = Int64.min
        for interval in watchAsleep.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let from = max(interval.lowerBound, coveredUntil)
            if interval.upperBound > from { total += interval.upperBound - from }
            coveredUntil = max(coveredUntil, interval.upperBound)
        }
        return total
    }
}
