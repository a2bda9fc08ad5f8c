import HealthDays
@testable import stepimport
import Testing

/// The sources line of the summary: every source with its records and days won, compact when many.
@Suite struct SourceSummaryTests {
    static func day(_ date: String, _ source: String) -> DayTotal {
        DayTotal(date: LocalDate(date)!, steps: 100, source: source, sources: [SourceTotal(source: source, steps: 100)])
    }

    @Test func eachSourceWithItsRecordsAndTheDaysItWon() {
        let sources = [SourceRecordCount(source: "iPhone", records: 1479), SourceRecordCount(source: "Watch", records: 2048),
                       SourceRecordCount(source: "Mi\u{1B}Fit", records: 1)]
        let days = [Self.day("2024-03-15", "iPhone"), Self.day("2024-03-16", "Watch"), Self.day("2024-03-17", "iPhone")]
        #expect(SourceSummary.line(sources, days: days)
                == "3 sources: Watch (2048 records, won 1 day), iPhone (1479 records, won 2 days), Mi\\u{1b}Fit (1 record, won no day)")
        #expect(SourceSummary.line([], days: []) == nil)
    }

    @Test func manySourcesKeepToOneLine() {
        let sources = (1...40).map { SourceRecordCount(source: "app \($0)", records: $0) }
        let days = [Self.day("2024-03-15", "app 40"), Self.day("2024-03-16", "app 1"), Self.day("2024-03-17", "app 2")]
        let line = SourceSummary.line(sources, days: days)
        #expect(line == "40 sources: app 40 (40 records, won 1 day), app 39 (39 records, won no day), "
                + "app 38 (38 records, won no day), app 37 (37 records, won no day), app 36 (36 records, won no day), "
                + "and 35 more (630 records, won 2 days; --by-source shows them)")
        // Six are named rather than five and "1 more".
        let six = SourceSummary.line(Array(sources.prefix(6)), days: [])
        #expect(six?.contains("more") == false)
        #expect(six?.hasSuffix("app 1 (1 record, won no day)") == true)
    }
}
