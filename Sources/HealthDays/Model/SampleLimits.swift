/// The bounds a step sample read from a file must keep: one copy, used by every reader and,
/// more loosely, by `DayAggregator` itself.
///
/// A value outside them is not a measurement but a damaged or hostile file, and left unchecked it
/// would overflow the arithmetic that follows (sums, spans, offsets, day numbers) or make one
/// record fill memory with day buckets. Readers turn a `SampleProblem` into an invalid record.
/// docs/reliability.md ("Limits") says why each bound is where it is.
public enum SampleLimits {
    /// The most steps one record (or one day total) may hold: 1,000,000, about 700 km on foot.
    ///
    /// No person can reach it in a day (24 hours of running at 200 steps a minute is 288,000),
    /// so it refuses no real record, however long, yet keeps every sum far inside `Int`.
    public static let maximumSteps: Double = 1_000_000

    /// The longest span of one sample: 31 days (one bucket per day, so at most 32 buckets).
    ///
    /// Phones write minutes to hours; apps that write one record a day or a month still fit.
    public static let maximumSpanMs: Int64 = 31 * 86_400_000

    /// The first instant a reader takes: 1970-01-01T00:00:00Z.
    public static let earliestMs: Int64 = 0
    /// The first instant a reader refuses: 2201-01-01T00:00:00Z (so the last year is 2200).
    public static let endMs: Int64 = 7_289_654_400_000

    /// The first and last day total a reader takes: 1970-01-01 and 2200-12-31.
    public static let earliestDay = LocalDate(daysSinceEpoch: 0)
    public static let latestDay = LocalDate(daysSinceEpoch: 84_370)

    /// The most records `--rule hc-priority` holds at once while it totals records in time order:
    /// 2,000,000 (about 80 MB), reached only by that many records overlapping one another. A
    /// database comes in time order; a JSON or CSV dump, in no known order, is first sorted by time
    /// in runs of `priorityRecordsInMemory` written to a temporary file.
    public static let maximumHeldPriorityRecords = 2_000_000

    /// The records of a dump in no known order that `--rule hc-priority` holds in memory before it
    /// writes them, sorted, as one run to a temporary file: 1,000,000 (40 MB).
    public static let priorityRecordsInMemory = 1_000_000

    /// The widest offset, ±18 hours (`UTCOffset.maximumSeconds`, java.time's range).
    public static let maximumOffsetSeconds: Int32 = UTCOffset.maximumSeconds

    /// The widest window of instants `DayAggregator` buckets (years 0000 to 9999, all that a
    /// timestamp can write): wider than a reader's, so a library caller keeps older data, yet
    /// narrow enough that no day number or shift by an offset can overflow.
    static let safeEarliestMs: Int64 = -62_167_219_200_000
    static let safeEndMs: Int64 = 253_402_300_800_000

    /// What is wrong with a sample read from a file, or nil when it keeps every bound.
    ///
    /// `negativeAllowed` is for Google Fit, whose negative corrections count as Fit counts them.
    /// The times are checked before the span, so the span is computed only when it cannot overflow.
    @inline(__always)
    public static func problem(in sample: HealthSample, negativeAllowed: Bool = false) -> SampleProblem? {
        if let problem = stepsProblem(sample.value, negativeAllowed: negativeAllowed) { return problem }
        return timeProblem(in: sample)
    }

    /// What is wrong with a sample's times and offset alone (the value is the reader's to check:
    /// metrics other than steps have their own units and ranges), or nil.
    @inline(__always)
    public static func timeProblem(in sample: HealthSample) -> SampleProblem? {
        guard sample.startMs >= earliestMs && sample.startMs < endMs else { return .startOutOfRange }
        guard sample.endMs >= earliestMs && sample.endMs < endMs else { return .endOutOfRange }
        guard sample.endMs - sample.startMs <= maximumSpanMs else { return .spanTooLong }
        if let offset = sample.offsetSeconds, offset < -maximumOffsetSeconds || offset > maximumOffsetSeconds {
            return .offsetOutOfRange
        }
        return nil
    }

    /// What is wrong with a day total read from a file, or nil when it keeps every bound.
    @inline(__always)
    public static func problem(inDayTotal date: LocalDate, steps: Double) -> SampleProblem? {
        if let problem = stepsProblem(steps, negativeAllowed: false) { return problem }
        guard date >= earliestDay && date <= latestDay else { return .dateOutOfRange }
        return nil
    }

    /// What is wrong with a step count alone, or nil.
    @inline(__always)
    public static func stepsProblem(_ steps: Double, negativeAllowed: Bool) -> SampleProblem? {
        // Written so that NaN fails the first test.
        guard steps.magnitude <= maximumSteps else { return steps.isNaN ? .stepsNotANumber : .tooManySteps }
        guard negativeAllowed || steps >= 0 else { return .negativeSteps }
        return nil
    }

    /// Whether `DayAggregator` can bucket a sample without overflow or unbounded work: a finite
    /// count within ±`maximumSteps`, an offset within ±18 hours, a span of 0 to `maximumSpanMs`
    /// and both times within years 0000-9999. Looser than `problem(in:)`, which readers use.
    @inline(__always)
    static func isSafe(_ sample: HealthSample) -> Bool {
        guard sample.value.magnitude <= maximumSteps,
              sample.startMs >= safeEarliestMs && sample.startMs < safeEndMs,
              sample.endMs >= sample.startMs && sample.endMs < safeEndMs,
              sample.endMs - sample.startMs <= maximumSpanMs
        else { return false }
        if let offset = sample.offsetSeconds, offset < -maximumOffsetSeconds || offset > maximumOffsetSeconds {
            return false
        }
        return true
    }
}

/// Which bound a sample broke; the reader words it with the field and text it read.
public enum SampleProblem: Equatable, Sendable {
    /// The count is not a number at all (NaN): only a library caller can produce it.
    case stepsNotANumber
    /// More than `SampleLimits.maximumSteps` either way (infinity included).
    case tooManySteps
    /// Below zero where the format has no corrections.
    case negativeSteps
    /// The start lies outside 1970-01-01T00:00:00Z ..< 2201-01-01T00:00:00Z.
    case startOutOfRange
    /// The end lies outside 1970-01-01T00:00:00Z ..< 2201-01-01T00:00:00Z.
    case endOutOfRange
    /// The sample lasts longer than `SampleLimits.maximumSpanMs`.
    case spanTooLong
    /// The offset lies beyond ±18 hours.
    case offsetOutOfRange
    /// A day total's date lies outside 1970-01-01 ... 2200-12-31.
    case dateOutOfRange
}
