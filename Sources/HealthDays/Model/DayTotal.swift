/// One source's rounded total for one day.
public struct SourceTotal: Equatable, Sendable {
    public let source: String
    public let steps: Int

    public init(source: String, steps: Int) {
        self.source = source
        self.steps = steps
    }
}

/// One source's rounded total on one local day: the input to `highestSourcePerDay`.
public struct SourceDayTotal: Equatable, Sendable {
    public let date: LocalDate
    public let source: String
    public let steps: Int

    public init(date: LocalDate, source: String, steps: Int) {
        self.date = date
        self.source = source
        self.steps = steps
    }
}

/// The total for one local day: the highest single source's steps, with every source's total beside it.
public struct DayTotal: Equatable, Sendable {
    public let date: LocalDate
    /// The winning source's steps; what the API is sent.
    public let steps: Int
    /// The winning source.
    public let source: String
    /// Every source with steps that day, the winner first, then by steps and name.
    public let sources: [SourceTotal]

    public init(date: LocalDate, steps: Int, source: String, sources: [SourceTotal]) {
        self.date = date
        self.steps = steps
        self.source = source
        self.sources = sources
    }
}

extension DayTotal {
    /// The rule for one day, the only place it is written: every source's total that day ranked
    /// (see `ranksBefore`), the first one the winner; sources with zero steps left out; nil (the
    /// day dropped) when no source has more than zero steps.
    ///
    /// `totals` holds each source's rounded total that day, in any order; `highestSourcePerDay`
    /// and `DayAggregator.dayTotals(in:)` group them, each in its own way, and come here.
    init?(highestSourceOn date: LocalDate, among totals: [SourceTotal]) {
        var ranked = totals
        ranked.removeAll { $0.steps == 0 }
        ranked.sort(by: ranksBefore)
        guard let winner = ranked.first, winner.steps > 0 else { return nil }
        self.init(date: date, steps: winner.steps, source: winner.source, sources: ranked)
    }
}

/// Keeps, for each day, the single source with the most steps, and drops days without steps.
///
/// Sources are never added together: a phone and a watch record the same walk. Ties go to
/// the source whose name sorts first by UTF-8 bytes, so that every run picks the same one.
/// The result is sorted by date.
public func highestSourcePerDay(_ entries: [SourceDayTotal]) -> [DayTotal] {
    var byDay: [LocalDate: [SourceTotal]] = [:]
    for entry in entries {
        byDay[entry.date, default: []].append(SourceTotal(source: entry.source, steps: entry.steps))
    }
    var days = byDay.compactMap { date, totals in DayTotal(highestSourceOn: date, among: totals) }
    days.sort { $0.date < $1.date }
    return days
}

/// Higher steps first; equal steps in UTF-8 byte order of the name (the same as code point order).
private func ranksBefore(_ lhs: SourceTotal, _ rhs: SourceTotal) -> Bool {
    if lhs.steps != rhs.steps { return lhs.steps > rhs.steps }
    return lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8)
}
