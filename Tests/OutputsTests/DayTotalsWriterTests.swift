import HealthDays
import Outputs
import Testing

/// Day totals in every format, plain, by source and under hc-priority, as the bytes a sink receives.
@Suite struct DayTotalsWriterTests {
    static let days = [
        DayTotal(date: LocalDate("2024-03-15")!, steps: 8123, source: "iPhone",
                 sources: [SourceTotal(source: "iPhone", steps: 8123), SourceTotal(source: "Watch", steps: 7000)]),
        DayTotal(date: LocalDate("2024-03-16")!, steps: 500, source: "Mi, Fit", sources: [SourceTotal(source: "Mi, Fit", steps: 500)]),
    ]

    static func written(_ format: OutputFormat, bySource: Bool = false, priority: [String]? = nil,
                        _ days: [DayTotal] = days) throws -> String {
        let sink = MemorySink()
        try #require(format.textWriter).writeDayTotals(days, DayLayout(bySource: bySource, zoneDescription: "UTC (--tz)", priority: priority),
                                         to: sink)
        return sink.text
    }

    @Test func table() throws {
        #expect(try Self.written(.table) == """
            Date        Steps  Source
            2024-03-15   8123  iPhone
            2024-03-16    500  Mi, Fit

            2 days with steps, 2024-03-15 to 2024-03-16: 8,623 steps in all, 4,312 a day on average. Zone: UTC (--tz).

            """)
    }

    @Test func tableBySource() throws {
        #expect(try Self.written(.table, bySource: true) == """
            Date        Source     Steps
            2024-03-15  * iPhone    8123
                          Watch     7000
            2024-03-16  * Mi, Fit    500

            2 days with steps, 2024-03-15 to 2024-03-16: 8,623 steps in all, 4,312 a day on average. Zone: UTC (--tz).
            * the highest source: the day's total. Sources are never added together.

            """)
    }

    @Test func tableOfNoDaysIsItsFooter() throws {
        #expect(try Self.written(.table, []) == "No days with steps. Zone: UTC (--tz).\n")
        #expect(try Self.written(.table, bySource: true, priority: ["Watch"], []) == "No days with steps. Zone: UTC (--tz).\n")
    }

    @Test func jsonIsTheRequestBody() throws {
        #expect(try Self.written(.json) == #"{"days":[{"date":"2024-03-15","steps":8123},{"date":"2024-03-16","steps":500}]}"# + "\n")
    }

    @Test func jsonBySource() throws {
        #expect(try Self.written(.json, bySource: true) == #"{"days":[{"date":"2024-03-15","steps":8123,"source":"iPhone","sources":["#
            + #"{"source":"iPhone","steps":8123,"winner":true},{"source":"Watch","steps":7000,"winner":false}]},"#
            + #"{"date":"2024-03-16","steps":500,"source":"Mi, Fit","sources":[{"source":"Mi, Fit","steps":500,"winner":true}]}]}"#
            + "\n")
        #expect(try Self.written(.json, bySource: true, []) == "{\"days\":[]}\n")
    }

    @Test func csv() throws {
        #expect(try Self.written(.csv) == "date,steps,source\n2024-03-15,8123,iPhone\n2024-03-16,500,\"Mi, Fit\"\n")
        #expect(try Self.written(.csv, bySource: true)
                == "date,steps,source,winner\n2024-03-15,8123,iPhone,yes\n2024-03-15,7000,Watch,no\n2024-03-16,500,\"Mi, Fit\",yes\n")
    }

    /// Under hc-priority each source carries its place in the list (0: absent, so it counted nothing).
    @Test func byPriority() throws {
        let priority = ["Watch", "iPhone"]
        #expect(try Self.written(.csv, bySource: true, priority: priority)
                == "date,steps,source,priority\n2024-03-15,8123,iPhone,2\n2024-03-15,7000,Watch,1\n2024-03-16,500,\"Mi, Fit\",0\n")
        #expect(try Self.written(.json, bySource: true, priority: priority).hasPrefix(
            #"{"rule":"hc-priority","days":[{"date":"2024-03-15","steps":8123,"source":"iPhone","sources":[{"source":"iPhone","steps":8123,"priority":2},"#))
        let table = try Self.written(.table, bySource: true, priority: priority)
        #expect(table.hasPrefix("""
            Date        Source             Steps  Priority
            2024-03-15  = the day's total   8123
                          iPhone            8123         2
                          Watch             7000         1

            """))
        #expect(table.hasSuffix("to whole steps. Priority 1 is the highest.\n"))
    }

    /// Control characters in a source name are escaped in the table and CSV, kept exact (as JSON escapes) in JSON.
    @Test func sourceNamesFromTheFileAreEscaped() throws {
        let days = [DayTotal(date: LocalDate("2024-03-15")!, steps: 1, source: "Mi\u{1B}Fit",
                             sources: [SourceTotal(source: "Mi\u{1B}Fit", steps: 1)])]
        #expect(try Self.written(.csv, days) == "date,steps,source\n2024-03-15,1,Mi\\u{1b}Fit\n")
        #expect(try Self.written(.table, days).contains("Mi\\u{1b}Fit\n"))
        #expect(try Self.written(.json, bySource: true, days).contains(#""source":"Mi\u001bFit""#))
    }
}
