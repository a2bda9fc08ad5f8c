import DisplayText
import HealthDays
import Outputs
import Testing

/// The days of `--metric` in every format, plain and by source.
@Suite struct MetricDaysWriterTests {
    static let columns: [MetricColumn] = [.steps, .heartRateAverage]

    static var days: [MetricDay] {
        var first = MetricDay(date: LocalDate("2024-03-15")!)
        first[.steps] = 8123
        first[.heartRateAverage] = 72.4
        var second = MetricDay(date: LocalDate("2024-03-16")!)
        second[.heartRateAverage] = 60
        return [first, second]
    }

    static let sources = [
        MetricSourceValue(date: LocalDate("2024-03-15")!, column: .steps, source: "iPhone", value: 8123, standing: .winner),
        MetricSourceValue(date: LocalDate("2024-03-15")!, column: .steps, source: "Watch", value: 7000, standing: .other),
        MetricSourceValue(date: LocalDate("2024-03-15")!, column: .heartRateAverage, source: "Watch", value: 72.4, standing: .winner),
        MetricSourceValue(date: LocalDate("2024-03-17")!, column: .heartRateAverage, source: "Strap", value: 300, standing: .implausible),
    ]

    static func written(_ format: OutputFormat, bySource: Bool = false) throws -> String {
        let sink = MemorySink()
        try #require(format.textWriter).writeMetricDays(days, sources: bySource ? sources : [], columns: columns,
                                          DayLayout(bySource: bySource, zoneDescription: "UTC (--tz)"), to: sink)
        return sink.text
    }

    @Test func csv() throws {
        #expect(try Self.written(.csv) == "date,steps,hr_avg\n2024-03-15,8123,72.4\n2024-03-16,,60.0\n")
        #expect(try Self.written(.csv, bySource: true) == """
            date,metric,source,value,winner
            2024-03-15,steps,iPhone,8123,yes
            2024-03-15,steps,Watch,7000,no
            2024-03-15,hr_avg,Watch,72.4,yes
            2024-03-17,hr_avg,Strap,300.0,implausible

            """)
    }

    @Test func json() throws {
        #expect(try Self.written(.json)
                == #"{"days":[{"date":"2024-03-15","steps":8123,"hr_avg":72.4},{"date":"2024-03-16","steps":null,"hr_avg":60.0}]}"# + "\n")
    }

    /// A day whose every source was left out has no value but keeps its sources.
    @Test func jsonBySource() throws {
        #expect(try Self.written(.json, bySource: true) == #"{"days":[{"date":"2024-03-15","steps":8123,"hr_avg":72.4,"sources":["#
            + #"{"metric":"steps","source":"iPhone","value":8123,"winner":"yes"},"#
            + #"{"metric":"steps","source":"Watch","value":7000,"winner":"no"},"#
            + #"{"metric":"hr_avg","source":"Watch","value":72.4,"winner":"yes"}]},"#
            + #"{"date":"2024-03-16","steps":null,"hr_avg":60.0,"sources":[]},"#
            + #"{"date":"2024-03-17","steps":null,"hr_avg":null,"sources":[{"metric":"hr_avg","source":"Strap","value":300.0,"winner":"implausible"}]}]}"#
            + "\n")
    }

    @Test func table() throws {
        #expect(try Self.written(.table) == """
            Date        Steps  HR avg
            2024-03-15   8123    72.4
            2024-03-16           60.0

            2 days with values, 2024-03-15 to 2024-03-16. Zone: UTC (--tz).

            """)
        #expect(try Self.written(.table, bySource: true) == """
            Date        Metric  Source    Value
            2024-03-15  steps   * iPhone   8123
                                  Watch    7000
                        hr_avg  * Watch    72.4
            2024-03-17  hr_avg  x Strap   300.0

            2 days with values, 2024-03-15 to 2024-03-16. Zone: UTC (--tz).
            * the source the day took (one source per metric, never a sum). x left out: outside the plausible range.

            """)
    }

    /// Columns without a value are left out of the table, and named; CSV and JSON keep them.
    @Test func emptyColumnsAreLeftOutAndNamed() throws {
        let columns: [MetricColumn] = [.steps, .heartRateAverage, .heartRateMinimum, .heartRateMaximum, .vo2Max, .workouts, .workoutMinutes]
        var day = MetricDay(date: LocalDate("2024-03-15")!)
        day[.steps] = 8123
        day[.workouts] = 1
        let sink = MemorySink()
        try #require(OutputFormat.table.textWriter).writeMetricDays([day], sources: [], columns: columns,
                                                                    DayLayout(bySource: false, zoneDescription: "UTC (--tz)"), to: sink)
        #expect(sink.text == """
            Date        Steps  Workouts
            2024-03-15   8123         1

            1 day with values, 2024-03-15. Zone: UTC (--tz).
            No values: heart-rate, vo2max, workout_min.

            """)
        let csv = MemorySink()
        try #require(OutputFormat.csv.textWriter).writeMetricDays([day], sources: [], columns: columns,
                                                                  DayLayout(bySource: false, zoneDescription: "UTC (--tz)"), to: csv)
        #expect(csv.text.hasPrefix("date,steps,hr_avg,hr_min,hr_max,vo2max,workouts,workout_min\n"))
    }

    /// On a terminal narrower than the table: blocks of columns, each with the date, and the
    /// footer wrapped; the winner's rows coloured.
    @Test func onANarrowTerminalTheTableComesInBlocks() throws {
        let sink = MemorySink()
        try #require(OutputFormat.table.textWriter(display: TableDisplay(width: 24, styling: .off)))
            .writeMetricDays(Self.days, sources: [], columns: Self.columns,
                             DayLayout(bySource: false, zoneDescription: "UTC (--tz)"), to: sink)
        #expect(sink.text == """
            Date        Steps
            2024-03-15   8123
            2024-03-16

            Date        HR avg
            2024-03-15    72.4
            2024-03-16    60.0

            2 days with values,
            2024-03-15 to
            2024-03-16. Zone: UTC
            (--tz).

            """)
        let coloured = MemorySink()
        try #require(OutputFormat.table.textWriter(display: TableDisplay(width: nil, styling: TextStyling(isOn: true))))
            .writeMetricDays(Self.days, sources: Self.sources, columns: Self.columns,
                             DayLayout(bySource: true, zoneDescription: "UTC (--tz)"), to: coloured)
        #expect(coloured.text.contains(TextStyle.chosen.apply(to: "2024-03-15  steps   * iPhone   8123")))
        #expect(coloured.text.contains("                      Watch    7000\n"))
    }
}
