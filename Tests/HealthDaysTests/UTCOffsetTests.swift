import Testing
@testable import HealthDays
import TestSupport

/// `UTCOffset`, the one offset parser: every form each reader takes, every form refused, the bounds.
@Suite struct UTCOffsetTests {
    @Test(arguments: [
        ("Z", 0), ("+00:00", 0), ("-00:00", 0), ("+0000", 0), ("-00", 0),
        ("+05:30", 19_800), ("+0530", 19_800), ("+05", 18_000),
        ("-03:30", -12_600), ("-0330", -12_600), ("-03", -10_800),
        ("+14:00", 50_400), ("-09:45", -35_100),
        // The written bound is on each field: hours up to 18, minutes up to 59.
        ("+18", 64_800), ("-18:00", -64_800), ("+18:59", 68_340), ("-1859", -68_340), ("+00:59", 3_540),
    ] as [(String, Int32)])
    func readsWrittenOffsets(_ text: String, _ seconds: Int32) {
        #expect(UTCOffset.parse(text) == seconds)
        #expect(UTCOffset.parse(text, lowercaseZ: true) == seconds)
    }

    @Test func lowercaseZOnlyWhenAsked() {
        #expect(UTCOffset.parse("z") == nil)
        #expect(UTCOffset.parse("z", lowercaseZ: true) == 0)
        #expect(UTCOffset.parse("Z", lowercaseZ: true) == 0)
    }

    @Test(arguments: [
        "", "+", "-", "+1", "+5:30", "+05:", "+05:3", "+053", "+05:300", "+053000", "+05:30:00",
        "05:30", "0530", "05", "++0530", "+-0530", "+05-30", "+05.30", "+05 30", "+0a", "+a0", "+05:3a",
        "Z ", " Z", "ZZ", "zz", "UTC", "GMT", "GMT+1", "+05:30Z", "Z+05:30", " +05:30", "+05:30 ",
        "\u{2212}05:00",                    // a minus sign that is not ASCII
        "+19", "+19:00", "-1900", "+99", "+05:60", "-0560", "+00:99",
        "19800", "-14400", "0",             // counted seconds are not a written offset
    ])
    func refusesOtherWrittenForms(_ text: String) {
        #expect(UTCOffset.parse(text) == nil)
        #expect(UTCOffset.parse(text, lowercaseZ: true) == nil)
    }

    @Test func readsTheWholeBufferOnly() {
        let bytes = Array("+05:30 rest".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(UTCOffset.parse(buffer) == nil)
            #expect(UTCOffset.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<6])) == 19_800)
            #expect(UTCOffset.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<3])) == 18_000)
        }
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("+0", 0), ("000000", 0), ("3600", 3_600), ("+19800", 19_800), ("-14400", -14_400),
        ("64800", 64_800), ("-64800", -64_800), ("+064800", 64_800), ("-000001", -1),
    ] as [(String, Int32)])
    func readsCountedSeconds(_ text: String, _ seconds: Int32) {
        #expect(UTCOffset.parse(seconds: text) == seconds)
    }

    @Test(arguments: [
        "", "+", "-", "64801", "-64801", "99999", "999999", "0000000", "+0000000", "1000000",
        "3600.0", "36e2", " 3600", "3600 ", "+-3600", "--3600", "3_600", "0x10", "Z", "+05:30", "+0530x",
        "\u{2212}3600",
    ])
    func refusesOtherCountedForms(_ text: String) {
        #expect(UTCOffset.parse(seconds: text) == nil)
    }

    @Test func boundIsEighteenHours() {
        #expect(UTCOffset.maximumSeconds == 18 * 3600)
        for seconds in [-64_800, -64_799, -1, 0, 1, 64_799, 64_800] {
            #expect(UTCOffset.parse(seconds: String(seconds)) == Int32(seconds))
        }
    }
}
