import ExportParsers
import HealthDays
import Testing
import TestSupport

@Suite struct FitbitMinuteParserTests {
    static let document = Array("""
        [{
          "dateTime" : "07/17/22 12:23:00",
          "value" : "0"
        },{
          "dateTime" : "07/17/22 23:59:00",
          "value" : "15"
        },{
          "dateTime" : "12/31/99 00:00:00",
          "value" : "7"
        }]
        """.utf8)

    static func parse(_ text: [UInt8], chunk: Int = 1 << 20,
                      policy: InvalidRecordPolicy = .fail) throws(ParseFailure) -> (SampleCollector, FitbitMinuteParser) {
        let sink = SampleCollector()
        let parser = FitbitMinuteParser(sink: sink, invalidRecords: policy)
        try parser.feedAll(text, chunk: chunk)
        return (sink, parser)
    }

    @Test(arguments: [1, 2, 3, 7, 16, 1 << 20])
    func readsMinutesAsWallClockSamplesWhateverTheChunks(chunk: Int) throws {
        let (sink, parser) = try Self.parse(Self.document, chunk: chunk)
        #expect(sink.entries == [
            .init(source: "Fitbit", sample: HealthSample(startMs: utcMs(2022, 7, 17, 12, 23), endMs: utcMs(2022, 7, 17, 12, 24),
                                                       offsetSeconds: nil, value: 0, wallClock: true)),
            .init(source: "Fitbit", sample: HealthSample(startMs: utcMs(2022, 7, 17, 23, 59), endMs: utcMs(2022, 7, 18),
                                                       offsetSeconds: nil, value: 15, wallClock: true)),
            .init(source: "Fitbit", sample: HealthSample(startMs: utcMs(2099, 12, 31), endMs: utcMs(2099, 12, 31, 0, 1),
                                                       offsetSeconds: nil, value: 7, wallClock: true)),
        ])
        #expect(parser.statistics.rows == 3 && parser.statistics.minutes == 3)
    }

    static func monthDayYear(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { Timestamp.parseMonthDayYear(UnsafeRawBufferPointer($0)) }
    }

    @Test func theDateIsMonthDayYear() {
        #expect(Self.monthDayYear("02/03/23 04:05:06") == utcMs(2023, 2, 3, 4, 5, 6))
        for bad in ["13/01/22 00:00:00", "02/30/22 00:00:00", "2022-07-17 12:00", "07/17/2022 12:23:00",
                    "07/17/22 24:00:00", "07/17/22 12:60:00", "07-17-22 12:23:00", "07/17/22T12:23:00"] {
            #expect(Self.monthDayYear(bad) == nil, "\(bad)")
        }
    }

    @Test func numbersAreTakenAsWellAsStrings() throws {
        let (sink, _) = try Self.parse(Array(#"[{"dateTime":"01/01/23 00:00:00","value":12}]"#.utf8))
        #expect(sink.entries.map(\.sample.value) == [12])
    }

    static let invalid: [(row: String, problem: String)] = [
        (#"{"dateTime":"01/01/23 00:00:00","value":"many"}"#, #"value "many" is not a number"#),
        (#"{"dateTime":"2023-01-01T00:00:00","value":"1"}"#, #"dateTime "2023-01-01T00:00:00" is not a date and time as MM/DD/YY HH:MM:SS"#),
        (#"{"value":"1"}"#, "it has no dateTime"),
        (#"{"dateTime":"01/01/23 00:00:00"}"#, "it has no value"),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"bpm":60,"confidence":2}}"#, "value is an object, not a count"),
        (#"{"dateTime":"01/01/23 00:00:00","value":"-3"}"#, #"value "-3" is negative"#),
        (#"{"dateTime":"01/01/23 00:00:00","value":"1e19"}"#, #"value "1e19" is more steps than one record can hold (at most 1,000,000)"#),
    ]

    @Test(arguments: invalid.indices)
    func anInvalidRowFailsWithItsPlaceAndProblem(_ index: Int) {
        let (row, problem) = Self.invalid[index]
        let text = Array((#"[{"dateTime":"01/01/23 00:00:00","value":"5"},"# + "\n" + row + "]").utf8)
        #expect(throws: ParseFailure(kind: .invalidRecord, line: 2, column: 1, byteOffset: 47, message: problem)) {
            _ = try Self.parse(text)
        }
    }

    @Test func underSkipTheInvalidRowsAreCountedAndTheOthersRead() throws {
        let rows = [#"{"dateTime":"01/01/23 00:00:00","value":"5"}"#] + Self.invalid.map(\.row)
            + [#"{"dateTime":"01/01/23 00:01:00","value":"6"}"#]
        let (sink, parser) = try Self.parse(Array(("[" + rows.joined(separator: ",\n") + "]").utf8), chunk: 5, policy: .skip)
        #expect(sink.entries.map(\.sample.value) == [5, 6])
        #expect(parser.statistics.skipped.count == Self.invalid.count)
        #expect(parser.statistics.skipped.examples.first == SkippedRecord(line: 2, column: 1, problem: Self.invalid[0].problem))
    }

    @Test func anotherShapeIsTheWrongKind() {
        for text in [#"{"dateTime":"01/01/23 00:00:00","value":"5"}"#, #"[[1]]"#, #"["x"]"#] {
            #expect(throws: ParseFailure.self) { _ = try Self.parse(Array(text.utf8)) }
            do {
                _ = try Self.parse(Array(text.utf8))
            } catch {
                #expect(error.kind == .wrongKind, "\(text)")
            }
        }
    }

    @Test func recognisesFitbitsLayoutAndNames() {
        #expect(FitbitMinuteParser.looksLikeMinuteArray(Array("\u{FEFF}[{\n  \"dateTime\" : \"07/17/22".utf8)))
        #expect(!FitbitMinuteParser.looksLikeMinuteArray(Array(#"[{"value":{"__type":"NumericHealthValue""#.utf8)))
        #expect(!FitbitMinuteParser.looksLikeMinuteArray(Array(#"[{"dateTime":"2022-07-17T12:00:00""#.utf8)))
        #expect(!FitbitMinuteParser.looksLikeMinuteArray(Array(#"[{"startTime":"2023"#.utf8)))
        #expect(!FitbitMinuteParser.looksLikeMinuteArray(Array(#"{"dateTime":"#.utf8)))
        #expect(FitbitMinuteParser.kind(ofFileNamed: "Takeout/Fitbit/Global Export Data/steps-2022-07-16.json") == .steps)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "Steps-2022-07-16.JSON") == .steps)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "distance-2022-07-16.json") == .distance)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "Global Export Data/heart_rate-2022-07-16.json") == .heartRate)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "calories-2022-07-16.json") == .calories)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "sleep-2022-07-16.json") == .sleep)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "sleep_score.json") == nil)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "resting_heart_rate-2022-07-16.json") == nil)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "steps-2022-13-16.json") == nil)
        #expect(FitbitMinuteParser.kind(ofFileNamed: "steps.json") == nil)
    }
}
