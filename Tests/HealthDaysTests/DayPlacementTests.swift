import Foundation
import Testing
@testable import HealthDays
import TestSupport

/// The one zone rule: the day of a time and the split of a span at midnight, under the recorded
/// offset and under `--tz`.
@Suite struct DayPlacementTests {
    private let hour: Int64 = 3_600_000
    private let berlin = ZoneRule.zone(TimeZone(identifier: "Europe/Berlin")!)

    private func pieces(_ placement: DayPlacement, _ start: Int64, _ end: Int64) -> [(day: Int32, from: Int64, to: Int64)] {
        var found: [(day: Int32, from: Int64, to: Int64)] = []
        placement.forEachDay(from: start, to: end, startingIn: placement.day(containing: start)) { found.append(($0, $1, $2)) }
        return found
    }

    @Test func theRecordedOffsetPlacesOnTheSamplesOwnClock() {
        let placement = DayPlacement(rule: .recordedOffset)
        // 22:30 to 00:30 at +01:00: local 23:30 to 01:30, half on each day.
        let sample = HealthSample(startMs: utcMs(2024, 5, 1, 22, 30), endMs: utcMs(2024, 5, 2, 0, 30), offsetSeconds: 3600, value: 10)
        let span = placement.clockSpan(of: sample)
        #expect(span.start == utcMs(2024, 5, 1, 23, 30))
        let split = pieces(placement, span.start, span.end)
        #expect(split.map(\.day) == [date("2024-05-01").daysSinceEpoch, date("2024-05-02").daysSinceEpoch])
        #expect(split.map { $0.to - $0.from } == [30 * 60_000, 90 * 60_000])
        #expect(placement.day(of: sample.startMs, offsetSeconds: 3600) == date("2024-05-01").daysSinceEpoch)
        #expect(placement.day(of: sample.startMs, offsetSeconds: nil) == date("2024-05-01").daysSinceEpoch)
        #expect(placement.day(of: utcMs(2024, 5, 1, 23, 30), offsetSeconds: 3600) == date("2024-05-02").daysSinceEpoch)
        // A wall clock is taken as UTC: nothing moves it.
        #expect(!placement.readsWallClocksInZone)
        #expect(placement.instant(utcMs(2024, 5, 1, 12), wallClock: true) == utcMs(2024, 5, 1, 12))
    }

    @Test func aZoneSplitsAtItsRealMidnightsAcrossAChangeOfClocks() {
        let placement = DayPlacement(rule: berlin)
        // 2024-03-31 has 23 hours in Berlin: from 23:00 UTC on the 30th to 22:00 UTC on the 31st.
        let start = utcMs(2024, 3, 30, 22), end = utcMs(2024, 4, 1, 0)
        let split = pieces(placement, start, end)
        #expect(split.map(\.day) == ["2024-03-30", "2024-03-31", "2024-04-01"].map { date($0).daysSinceEpoch })
        #expect(split.map { $0.to - $0.from } == [1 * hour, 23 * hour, 2 * hour])
        // An offset carried by the record does not move a time under --tz.
        #expect(placement.day(of: utcMs(2024, 3, 31, 21, 59), offsetSeconds: -36_000) == date("2024-03-31").daysSinceEpoch)
        #expect(placement.day(of: utcMs(2024, 3, 31, 22), offsetSeconds: -36_000) == date("2024-04-01").daysSinceEpoch)
    }

    @Test func aWallClockUnderAZoneIsThatZonesLocalTime() {
        let placement = DayPlacement(rule: berlin)
        #expect(placement.readsWallClocksInZone)
        // 00:30 to 01:30 on the wall in July is 22:30 to 23:30 UTC the evening before.
        let sample = HealthSample(startMs: utcMs(2024, 7, 2, 0, 30), endMs: utcMs(2024, 7, 2, 1, 30), offsetSeconds: nil,
                                  value: 5, wallClock: true)
        let span = placement.clockSpan(of: sample)
        #expect(span == (utcMs(2024, 7, 1, 22, 30), utcMs(2024, 7, 1, 23, 30)))
        #expect(placement.day(containing: span.start).day == date("2024-07-02").daysSinceEpoch)
        // Not a wall clock: the instant stays.
        var instant = sample
        instant.wallClock = false
        #expect(placement.clockSpan(of: instant) == (sample.startMs, sample.endMs))
    }

    /// Any span, under either rule, is tiled by its pieces: each on the day that holds its start,
    /// ending at or before that day's end, the next starting where it ended.
    @Test(arguments: [ZoneRule.recordedOffset, .zone(TimeZone(identifier: "Europe/Berlin")!),
                      .zone(TimeZone(identifier: "America/Sao_Paulo")!), .zone(TimeZone(identifier: "Australia/Lord_Howe")!)])
    func piecesTileEverySpan(rule: ZoneRule) {
        let placement = DayPlacement(rule: rule)
        var random = SystemRandomNumberGenerator()
        let from = utcMs(2018, 1, 1, 0), to = utcMs(2025, 1, 1, 0)
        for _ in 0..<2_000 {
            let start = Int64.random(in: from..<to, using: &random)
            let end = start + Int64.random(in: 0...(4 * 24 * hour), using: &random)
            let split = pieces(placement, start, end)
            if end == start {
                #expect(split.isEmpty)
                continue
            }
            #expect(split.first?.from == start)
            #expect(split.last?.to == end)
            for (index, piece) in split.enumerated() {
                let day = placement.day(containing: piece.from)
                #expect(piece.day == day.day && piece.to <= day.end && piece.to > piece.from)
                if index > 0 {
                    #expect(piece.from == split[index - 1].to && piece.day > split[index - 1].day)
                }
            }
        }
    }
}
