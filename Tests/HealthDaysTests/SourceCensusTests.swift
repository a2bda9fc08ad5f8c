import Testing
import HealthDays
import TestSupport

/// `SourceCensus`: exact counts per source and per offset, first and last local days, and every
/// sample and day total passed on unchanged.
@Suite struct SourceCensusTests {
    @Test func countsSourcesOffsetsAndDaysAndPassesEverythingOn() {
        let next = SampleCollector()
        let census = SourceCensus(passingOn: next)
        let samples: [(String, HealthSample)] = [
            // 23:30 UTC on 1 January is 00:30 on 2 January at +0100: its local day is the 2nd.
            ("Phone", HealthSample(startMs: utcMs(2024, 1, 1, 23, 30), endMs: utcMs(2024, 1, 1, 23, 40), offsetSeconds: 3600, value: 10)),
            ("Watch", HealthSample(startMs: utcMs(2024, 3, 5, 8), endMs: utcMs(2024, 3, 5, 9), offsetSeconds: 7200, value: 20)),
            ("Phone", HealthSample(startMs: utcMs(2024, 2, 10, 12), endMs: utcMs(2024, 2, 10, 12), offsetSeconds: 3600, value: 1)),
            ("Phone", HealthSample(startMs: utcMs(2023, 12, 31, 12), endMs: utcMs(2023, 12, 31, 13), offsetSeconds: nil, value: 5)),
            // -0500: 03:00 UTC on 7 March is 22:00 on the 6th.
            ("Phone", HealthSample(startMs: utcMs(2024, 3, 7, 3), endMs: utcMs(2024, 3, 7, 3, 5), offsetSeconds: -18000, value: 2)),
            // Out of every bound: counted, but no day.
            ("Odd", HealthSample(startMs: Int64.max - 1, endMs: Int64.max, offsetSeconds: 0, value: 1)),
        ]
        for (source, sample) in samples { census.add(sample, source: source) }
        census.addDayTotal(date("2024-04-01"), steps: 900, source: "Fit")
        census.addDayTotal(date("2024-03-30"), steps: 800, source: "Fit")
        census.addDayTotal(date("2024-01-01"), steps: 700, source: "Phone")

        #expect(census.sources == [
            SourceCensus.Source(name: "Phone", samples: 4, dayTotals: 1, firstDay: date("2023-12-31"), lastDay: date("2024-03-06")),
            SourceCensus.Source(name: "Watch", samples: 1, dayTotals: 0, firstDay: date("2024-03-05"), lastDay: date("2024-03-05")),
            SourceCensus.Source(name: "Odd", samples: 1, dayTotals: 0, firstDay: nil, lastDay: nil),
            SourceCensus.Source(name: "Fit", samples: 0, dayTotals: 2, firstDay: date("2024-03-30"), lastDay: date("2024-04-01")),
        ])
        #expect(census.offsets == [
            SourceCensus.OffsetCount(seconds: -18000, samples: 1),
            SourceCensus.OffsetCount(seconds: 0, samples: 1),
            SourceCensus.OffsetCount(seconds: 3600, samples: 2),
            SourceCensus.OffsetCount(seconds: 7200, samples: 1),
        ])
        #expect(census.withoutOffset == 1)
        #expect(next.entries == samples.map { SampleCollector.Entry(source: $0.0, sample: $0.1) })
        #expect(next.dayTotals == [SampleCollector.DayEntry(date: date("2024-04-01"), steps: 900, source: "Fit"),
                                   SampleCollector.DayEntry(date: date("2024-03-30"), steps: 800, source: "Fit"),
                                   SampleCollector.DayEntry(date: date("2024-01-01"), steps: 700, source: "Phone")])
    }

    @Test func theDayRulesBehindItGiveTheSameTotals() throws {
        let direct = DayAggregator(rule: .recordedOffset)
        let behind = DayAggregator(rule: .recordedOffset)
        let census = SourceCensus(passingOn: behind)
        for minute in 0..<300 {
            let sample = HealthSample(startMs: utcMs(2024, 5, 1) + Int64(minute) * 3_600_000, endMs: utcMs(2024, 5, 1) + Int64(minute) * 3_600_000 + 600_000,
                                    offsetSeconds: 7200, value: Double(minute % 17))
            for sink in [direct as RecordSink, census] {
                sink.add(sample, source: minute % 3 == 0 ? "A" : "B")
                sink.add(sample, source: "A")
            }
        }
        try direct.finish()
        try behind.finish()
        #expect(behind.dayTotals() == direct.dayTotals())
        #expect(behind.statistics == direct.statistics)
        #expect(census.sources.map(\.samples) == [400, 200])
    }
}
