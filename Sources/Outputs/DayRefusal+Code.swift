import BackendUpload

/// A day the server would refuse, for scripts (`stepimport inspect --format json`). Its sentence is
/// `DayRefusal.words(for:)`, the one the stderr list of `apple` and `hc` and the upload plan give.
extension DayRefusal {
    /// A stable name for scripts (`--format json`).
    public var code: String {
        switch self {
        case .negativeSteps: return "negative"
        case .overDailyMaximum: return "overDailyMaximum"
        case .beforeEarliestDay: return "beforeEarliestDay"
        case .inTheFuture: return "inTheFuture"
        }
    }
}
