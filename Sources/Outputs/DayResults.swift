import HealthDays

/// The days of one read as every output takes them: day totals (steps, each with its sources),
/// or the days of `--metric`, a value per column, with each source's values.
public enum DayResults {
    case dayTotals([DayTotal])
    /// `sources` may hold every source's values even when the layout does not show them: the
    /// database takes each day's winning source from them.
    case metricDays([MetricDay], sources: [MetricSourceValue], columns: [MetricColumn])

    /// How many days there are (rows of the plain outputs).
    public var dayCount: Int {
        switch self {
        case .dayTotals(let days): days.count
        case .metricDays(let days, _, _): days.count
        }
    }
}

extension ResultsWriter {
    /// Writes the days as this format does, whichever kind they are.
    public func writeDays(_ results: DayResults, _ layout: DayLayout, to sink: any OutputSink) throws(OutputError) {
        switch results {
        case .dayTotals(let days):
            try writeDayTotals(days, layout, to: sink)
        case .metricDays(let days, let sources, let columns):
            try writeMetricDays(days, sources: layout.bySource ? sources : [], columns: columns, layout, to: sink)
        }
    }
}
