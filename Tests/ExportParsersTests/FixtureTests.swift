import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// The real exports in ../shared/fixtures/apple, checked against totals computed independently
/// by scripts/reference_totals.py (a separate Python implementation of the same rules).
@Suite struct FixtureTests {
    struct Expected: Decodable {
        struct Day: Decodable {
            let date: String
            let steps: Int
            let source: String
        }
        let days: [Day]
        let sources: [String: [String: Int]]
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let fixture: String
        let expected: String
        let zone: String?
        var testDescription: String { fixture + (zone.map { " in \($0)" } ?? "") }
    }

    static let cases = [
        Case(fixture: "de_DE-2015-2018-Export.zip", expected: "de_DE-2015-2018-Export.json", zone: nil),
        Case(fixture: "de_DE-2015-2018-Export.zip", expected: "de_DE-2015-2018-Export.tz-Europe-Berlin.json", zone: "Europe/Berlin"),
        Case(fixture: "ios16-broken-dtd-export.zip", expected: "ios16-broken-dtd-export.json", zone: nil),
        Case(fixture: "macosx-decoys-export.zip", expected: "macosx-decoys-export.json", zone: nil),
        Case(fixture: "ru_RU-testdata.xml", expected: "ru_RU-testdata.json", zone: nil),
        Case(fixture: "trimmed-no-dtd-export.xml", expected: "trimmed-no-dtd-export.json", zone: nil),
    ]

    @Test(.needsSharedFixtures, arguments: cases)
    func totalsMatchTheIndependentComputation(_ test: Case) throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("apple/\(test.fixture)").path
        let expected = try JSONDecoder().decode(
            Expected.self, from: Data(contentsOf: TestPaths.expected.appendingPathComponent(test.expected)))
        let rule = test.zone.flatMap(ZoneRule.named) ?? .recordedOffset
        let aggregator = DayAggregator(rule: rule)
        _ = try AppleHealthImport.read(path: path, into: aggregator)

        let days = aggregator.dayTotals()
        #expect(days.map { "\($0.date) \($0.steps) \($0.source)" }
                == expected.days.map { "\($0.date) \($0.steps) \($0.source)" })
        var sources: [String: [String: Int]] = [:]
        for entry in aggregator.sourceDayTotals() where entry.steps != 0 {
            sources[entry.source, default: [:]][entry.date.description] = entry.steps
        }
        #expect(sources == expected.sources.filter { !$0.value.isEmpty })
    }

    @Test(.needsSharedFixtures) func theGermanExportHasTheKnownQuirks() throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("apple/de_DE-2015-2018-Export.zip").path
        let aggregator = DayAggregator(rule: .recordedOffset)
        let summary = try AppleHealthImport.read(path: path, into: aggregator)
        // Numbers from the fixture's README.
        #expect(summary.location.entries == ["apple_health_export/Export.xml"])
        #expect(summary.parse.stepRecords == 37_128)
        #expect(aggregator.statistics.duplicates == 5_158)
        #expect(aggregator.statistics.crossingMidnight == 27)
        #expect(aggregator.statistics.zeroLength == 170)
        #expect(aggregator.statistics.offsets == [3600])
        #expect(summary.skippedDoctype)
    }

    @Test(.needsSharedFixtures) func theBrokenIOS16DTDIsSkippedNotRecovered() throws {
        let path = TestPaths.sharedFixtures.appendingPathComponent("apple/ios16-broken-dtd-export.zip").path
        let summary = try AppleHealthImport.read(path: path, into: DayAggregator(rule: .recordedOffset))
        #expect(summary.location.entries == ["apple_health_export/export.xml"])
        #expect(summary.skippedDoctype)
        // The file's one Record is read: parsing went past the broken DTD.
        #expect(summary.parse.records == 1)
    }
}
