@testable import ExportParsers
import HealthDays
import Testing
import TestSupport

/// Fitbit's sleep logs (`sleep-YYYY-MM-DD.json`): in bed is a log's span, sleep its asleep stages
/// less `shortData`'s short wakes, all wall clocks.
@Suite struct FitbitSleepParserTests {
    static func parse(_ text: String, chunk: Int = 1 << 20,
                      policy: InvalidRecordPolicy = .fail) throws(ParseFailure) -> (MetricCollector, FitbitSleepParser) {
        let sink = MetricCollector()
        let parser = FitbitSleepParser(sink: sink, invalidRecords: policy)
        try parser.feedAll(Array(text.utf8), chunk: chunk)
        return (sink, parser)
    }

    static func at(_ day: Int, _ hour: Int, _ minute: Int) -> Int64 { utcMs(2024, 3, day, hour, minute) }

    static func entry(_ metric: Metric, _ start: Int64, _ end: Int64) -> MetricCollector.Entry {
        MetricCollector.Entry(metric: metric, source: "Fitbit",
                              sample: HealthSample(startMs: start, endMs: end, offsetSeconds: nil, value: 0, wallClock: true))
    }

    /// A night of stages from 23:00 to 06:00 the next day: 410 minutes of light, deep and REM, two
    /// short wakes (1 and 2 minutes) inside them.
    static let night = """
        [{
          "dateOfSleep" : "2024-03-02",
          "duration" : 25200000,
          "endTime" : "2024-03-02T06:00:00.000",
          "levels" : {
            "summary" : { "deep" : { "count" : 1, "minutes" : 60 } },
            "data" : [
              { "dateTime" : "2024-03-01T23:00:00.000", "level" : "wake", "seconds" : 600 },
              { "dateTime" : "2024-03-01T23:10:00.000", "level" : "light", "seconds" : 3000 },
              { "dateTime" : "2024-03-02T00:00:00.000", "level" : "deep", "seconds" : 3600 },
              { "dateTime" : "2024-03-02T01:00:00.000", "level" : "rem", "seconds" : 1800 },
              { "dateTime" : "2024-03-02T01:30:00.000", "level" : "light", "seconds" : 16200 }
            ],
            "shortData" : [
              { "dateTime" : "2024-03-01T23:30:00.000", "level" : "wake", "seconds" : 60 },
              { "dateTime" : "2024-03-02T03:00:00.000", "level" : "wake", "seconds" : 120 }
            ]
          },
          "logId" : 1,
          "mainSleep" : true,
          "startTime" : "2024-03-01T23:00:00.000",
          "type" : "stages"
        }]
        """

    @Test(arguments: [1, 2, 3, 7, 16, 1 << 20])
    func aNightIsInBedItsSpanAndAsleepItsStagesLessTheShortWakes(chunk: Int) throws {
        let (sink, parser) = try Self.parse(Self.night, chunk: chunk)
        #expect(sink.entries == [
            Self.entry(.inBed, Self.at(1, 23, 0), Self.at(2, 6, 0)),
            Self.entry(.sleep, Self.at(1, 23, 10), Self.at(1, 23, 30)),
            Self.entry(.sleep, Self.at(1, 23, 31), Self.at(2, 0, 0)),
            Self.entry(.sleep, Self.at(2, 0, 0), Self.at(2, 1, 0)),
            Self.entry(.sleep, Self.at(2, 1, 0), Self.at(2, 1, 30)),
            Self.entry(.sleep, Self.at(2, 1, 30), Self.at(2, 3, 0)),
            Self.entry(.sleep, Self.at(2, 3, 2), Self.at(2, 6, 0)),
        ])
        let asleep = sink.entries.filter { $0.metric == .sleep }.map { $0.sample.endMs - $0.sample.startMs }.reduce(0, +)
        #expect(asleep == 407 * 60_000)
        #expect(parser.statistics.logs == 1 && parser.statistics.logsRead == 1)
    }

    @Test func aClassicLogCountsAsleepOnlyAndALogWithoutStagesCountsWhole() throws {
        let (sink, _) = try Self.parse("""
            [{"startTime":"2024-03-02T14:00:00.000","endTime":"2024-03-02T15:00:00.000","type":"classic",
              "levels":{"data":[{"dateTime":"2024-03-02T14:00:00.000","level":"asleep","seconds":2400},
                                {"dateTime":"2024-03-02T14:40:00.000","level":"restless","seconds":300},
                                {"dateTime":"2024-03-02T14:45:00.000","level":"awake","seconds":300},
                                {"dateTime":"2024-03-02T14:50:00.000","level":"asleep","seconds":600}]}},
             {"startTime":"2024-03-03T13:00:00.000","endTime":"2024-03-03T13:30:00.000","levels":{}}]
            """)
        #expect(sink.entries == [
            Self.entry(.inBed, Self.at(2, 14, 0), Self.at(2, 15, 0)),
            Self.entry(.sleep, Self.at(2, 14, 0), Self.at(2, 14, 40)),
            Self.entry(.sleep, Self.at(2, 14, 50), Self.at(2, 15, 0)),
            Self.entry(.inBed, Self.at(3, 13, 0), Self.at(3, 13, 30)),
            Self.entry(.sleep, Self.at(3, 13, 0), Self.at(3, 13, 30)),
        ])
    }

    @Test func aStageBeyondTheLogIsCutToIt() throws {
        let (sink, _) = try Self.parse("""
            [{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000",
              "levels":{"data":[{"dateTime":"2024-03-02T01:30:00.000","level":"deep","seconds":3600}]}}]
            """)
        #expect(sink.entries.last == Self.entry(.sleep, Self.at(2, 1, 30), Self.at(2, 2, 0)))
    }

    static let log = #"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"data":[]}}"#

    static let invalid: [(log: String, problem: String, column: Int)] = [
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"data":[{"dateTime":"2024-03-02T01:00:00.000","level":"snooze","seconds":60}]}}"#,
         #"a level "snooze" is not one of light, deep, rem, asleep, wake, awake, restless"#, 94),
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"shortData":[{"dateTime":"01/02/24 01:00:00","level":"wake","seconds":60}]}}"#,
         #"a level's dateTime "01/02/24 01:00:00" is not a date and time as YYYY-MM-DDTHH:MM:SS"#, 99),
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"data":[{"dateTime":"2024-03-02T01:00:00.000","level":"light","seconds":"long"}]}}"#,
         #"a level's seconds "long" is not a number"#, 94),
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"data":[{"dateTime":"2024-03-02T01:00:00.000","level":"light","seconds":-30}]}}"#,
         #"a level's seconds "-30" is not within 0-86,400"#, 94),
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":{"data":[{"dateTime":null,"level":"light","seconds":30}]}}"#,
         "a level's dateTime is null, not a string or number", 94),
        (#"{"startTime":"2024-03-02T01:00:00.000","endTime":"2024-03-02T02:00:00.000","levels":"stages"}"#,
         "levels is a string, not an object", 85),
        (#"{"endTime":"2024-03-02T02:00:00.000"}"#, "it has no startTime", 1),
        (#"{"startTime":"2024-03-02 01:00","endTime":"2024-03-02T02:00:00.000"}"#,
         #"startTime "2024-03-02 01:00" is not a date and time as YYYY-MM-DDTHH:MM:SS"#, 1),
        (#"{"startTime":"2024-03-02T02:00:00.000","endTime":"2024-03-02T01:00:00.000"}"#,
         #"endTime "2024-03-02T01:00:00.000" is not after startTime "2024-03-02T02:00:00.000""#, 1),
    ]

    @Test(arguments: invalid.indices)
    func anInvalidLogFailsWithItsPlaceAndProblem(_ index: Int) {
        let (log, problem, column) = Self.invalid[index]
        do {
            _ = try Self.parse("[" + Self.log + ",\n" + log + "]")
            Issue.record("no failure for \(log)")
        } catch {
            #expect(error.kind == .invalidRecord && error.record == "sleep log")
            #expect(error.message == problem)
            #expect(error.position.line == 2 && error.position.column == column)
        }
    }

    @Test func underSkipTheInvalidLogsAreCountedAndTheOthersRead() throws {
        let logs = [Self.log] + Self.invalid.map(\.log) + [Self.log]
        let (sink, parser) = try Self.parse("[" + logs.joined(separator: ",\n") + "]", chunk: 5, policy: .skip)
        #expect(sink.entries.filter { $0.metric == .inBed }.count == 2)
        #expect(parser.statistics.logs == logs.count && parser.statistics.logsRead == 2)
        #expect(parser.statistics.skipped.count == Self.invalid.count)
    }

    @Test func recognisesSleepLogs() {
        #expect(FitbitSleepParser.looksLikeSleepLogs(Array("\u{FEFF}[ {\n  \"dateOfSleep\" : \"2024-03-02\"".utf8)))
        #expect(FitbitSleepParser.looksLikeSleepLogs(Array("[]".utf8)))
        #expect(!FitbitSleepParser.looksLikeSleepLogs(Array(#"[{"dateTime":"03/01/24 00:00:00","value":"1"}]"#.utf8)))
        #expect(!FitbitSleepParser.looksLikeSleepLogs(Array(#"{"logId":1}"#.utf8)))
    }
}
