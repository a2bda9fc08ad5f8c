import Testing
@testable import HealthDays
import TestSupport

@Suite struct TimestampTests {
    private func parse(_ text: String) -> (ms: Int64, offset: Int32?)? {
        Timestamp.parse(text)
    }

    @Test func readsApplesFormatWithItsOffset() throws {
        let result = try #require(parse("2019-05-14 18:52:09 -0400"))
        #expect(result.ms == utcMs(2019, 5, 14, 22, 52, 9))
        #expect(result.offset == Int32(-4 * 3600))
    }

    @Test func readsHalfHourAndPositiveOffsets() throws {
        let india = try #require(parse("2025-02-02 00:10:00 +0530"))
        #expect(india.ms == utcMs(2025, 2, 1, 18, 40))
        #expect(india.offset == 19_800)
        let berlin = try #require(parse("2016-07-01 00:30:00 +0100"))
        #expect(berlin.ms == utcMs(2016, 6, 30, 23, 30))
    }

    @Test func acceptsISOVariants() {
        #expect(parse("2024-03-01T10:00:00+01:00")?.ms == utcMs(2024, 3, 1, 9))
        #expect(parse("2024-03-01T10:00:00+01")?.ms == utcMs(2024, 3, 1, 9))
        #expect(parse("2024-03-01T10:00:00Z")?.ms == utcMs(2024, 3, 1, 10))
        #expect(parse("2024-03-01T10:00:00Z")?.offset == 0)
        #expect(parse("2024-03-01 10:00:00.250 +0000")?.ms == utcMs(2024, 3, 1, 10) + 250)
        #expect(parse("2023-09-07T09:44:16.818Z")?.ms == utcMs(2023, 9, 7, 9, 44, 16) + 818)
        #expect(parse("2023-09-07T09:44:16.8187654Z")?.ms == utcMs(2023, 9, 7, 9, 44, 16) + 818)
    }

    @Test func aTimeWithoutOffsetIsAWallClock() throws {
        let wall = try #require(parse("2024-05-01T08:00:00.000"))
        #expect(wall.ms == utcMs(2024, 5, 1, 8))
        #expect(wall.offset == nil)
    }

    @Test(arguments: [
        "2019-05-14 18:52:09 +4",       // one-digit offset
        "2019-05-14 18:52:09 +04:0",
        "2019-05-14 18:52:09.",         // fraction without digits
        "2019-02-30 10:00:00 +0000",    // no such day
        "2019-05-14 24:00:00 +0000",
        "2019-05-14 18:52 +0000",
        "2019-05-14 18:52:09 +0000x",
        "19-05-14 18:52:09 +0000",
        "",
    ])
    func rejectsMalformedTimestamps(_ text: String) {
        #expect(parse(text) == nil)
    }
}

/// `Timestamp` reads its date with `LocalDate` and its offset with `UTCOffset`: the same forms, nothing more.
@Suite struct TimestampPartsTests {
    @Test(arguments: ["Z", "+05:30", "+0530", "+05", "-18:59", "-00:00", "+18"])
    func takesEveryWrittenOffsetWithOrWithoutASpace(_ offset: String) throws {
        let seconds = try #require(UTCOffset.parse(offset))
        for text in ["2024-03-01T10:00:00" + offset, "2024-03-01 10:00:00 " + offset, "2024-03-01T10:00:00.5" + offset] {
            let parsed = try #require(Timestamp.parse(text), "\(text)")
            #expect(parsed.offset == seconds)
            #expect(parsed.ms == utcMs(2024, 3, 1, 10) + (text.contains(".5") ? 500 : 0) - Int64(seconds) * 1000)
        }
    }

    @Test(arguments: ["z", "+19:00", "+05:60", "+5", "+05:", "+053", "19800", " ", "  +05:30", "Z ", "UTC"])
    func refusesWhatUTCOffsetRefuses(_ offset: String) {
        #expect(Timestamp.parse("2024-03-01T10:00:00" + offset) == nil)
        #expect(Timestamp.parse("2024-03-01 10:00:00 " + offset) == nil)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "0000-01-01", "9999-12-31", "2023-02-29", "2100-02-29", "2024-04-31",
                      "2024-13-01", "2024-00-01", "2024/03/01"])
    func takesTheDaysLocalDateTakes(_ day: String) {
        let parsed = Timestamp.parse(day + "T00:00:00Z")
        #expect(parsed?.ms == LocalDate(day).map { Int64($0.daysSinceEpoch) * 86_400_000 })
    }

    @Test func secondsUpToALeapSecond() {
        #expect(Timestamp.parse("2016-12-31T23:59:60Z")?.ms == utcMs(2017, 1, 1))
        #expect(Timestamp.parse("2016-12-31T23:59:61Z") == nil)
    }
}

@Suite struct DecimalNumberTests {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBytes { DecimalNumber.parse($0) }
    }

    @Test func readsWholeAndFractionalNumbers() {
        #expect(parse("47") == 47)
        #expect(parse("0") == 0)
        #expect(parse("12.5") == 12.5)
        #expect(parse("1e3") == 1000)
        #expect(parse("123456789012345678901") == Double("123456789012345678901"))
    }

    @Test(arguments: ["", "abc", "12a", " 12", "nan", "inf", "0x10", "1,5", "١٢", "-", "."])
    func rejectsNonNumbers(_ text: String) {
        #expect(parse(text) == nil)
    }
}
