import HealthDays

extension SampleProblem {
    /// The problem in words, naming what the reader read: each argument is a field and its text
    /// as the reader would quote it (`value "1e19"`, `start_time 9223372036854775807`), built only
    /// for the problem at hand. For a day total, `start` is its date. `metric` is what the record
    /// counts: the value's bound is worded as steps only for steps.
    func message(steps: @autoclosure () -> String, start: @autoclosure () -> String,
                 end: @autoclosure () -> String, offset: @autoclosure () -> String = "the UTC offset",
                 metric: Metric = .steps) -> String {
        switch self {
        case .stepsNotANumber:
            return "\(steps()) is not a number"
        case .tooManySteps:
            return metric == .steps ? "\(steps()) is more steps than one record can hold (at most 1,000,000)"
                : "\(steps()) is more than one record can hold (at most 1,000,000)"
        case .negativeSteps:
            return "\(steps()) is negative"
        case .startOutOfRange:
            return "\(start()) is outside the years 1970 to 2200"
        case .endOutOfRange:
            return "\(end()) is outside the years 1970 to 2200"
        case .spanTooLong:
            return "\(start()) to \(end()) is longer than 31 days, the longest one record may span"
        case .offsetOutOfRange:
            return "\(offset()) is beyond ±18 hours"
        case .dateOutOfRange:
            return "\(start()) is outside the years 1970 to 2200"
        }
    }
}
