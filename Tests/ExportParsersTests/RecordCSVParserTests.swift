import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

@Suite struct RecordCSVParserTests {
    struct Outcome {
        let collector: SampleCollector
        let statistics: RecordCSVParser.Statistics
        var entries: [SampleCollector.Entry] { collector.entries }
        var dayTotals: [SampleCollector.DayEntry] { collector.dayTotals }
    }

    /// Runs the parser over `bytes` cut into pieces of `chunk` bytes.
    static func parse(_ bytes: [UInt8], chunk: Int = 1 << 16, policy: InvalidRecordPolicy = .fail,
                      fileName: String? = nil, into sink: RecordSink? = nil) throws(ParseFailure) -> Outcome {
        let collector = SampleCollector()
        let parser = RecordCSVParser(sink: sink ?? collector, invalidRecords: policy, fileName: fileName)
        try parser.feedAll(bytes, chunk: chunk)
        return Outcome(collector: collector, statistics: parser.statistics)
    }

    static func parse(_ text: String, chunk: Int = 1 << 16, policy: InvalidRecordPolicy = .fail,
                      fileName: String? = nil) throws(ParseFailure) -> Outcome {
        try parse(Array(text.utf8), chunk: chunk, policy: policy, fileName: fileName)
    }

    static func failure(_ text: String, policy: InvalidRecordPolicy = .fail, fileName: String? = nil) -> ParseFailure? {
        do {
            _ = try parse(text, chunk: 5, policy: policy, fileName: fileName)
            return nil
        } catch {
            return error
        }
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: TestPaths.sharedFixtures.appendingPathComponent("hc/\(name)")))
    }

    // MARK: - Step records

    static let records = "\u{FEFF}startTime,endTime,count,dataOrigin,startZoneOffset\r\n"
        + "2024-05-01T08:00:00Z,2024-05-01T08:15:00Z,120,com.google.android.apps.fitness,7200\r\n"
        + "2024-05-01T10:00:00.250+02:00,2024-05-01T10:05:00+02:00,30,android,\r\n"
        + "1714557600000,1714558500000,50,com.android.healthconnect.phone.steps,-14400\r\n"
        + "2024-05-01T09:00:00,2024-05-01T09:10:00,10,,\r\n"
        + "2024-05-01T09:00:00,2024-05-01T09:10:00,11,\"Acme, Inc. \"\"Pedometer\"\"\",+05:30\r\n"
        + "2024-05-01 23:50:00+0100,2024-05-02 00:10:00+0100,12.5,Анна’s app 🏃,3600\r\n"
        + "2024-05-02T07:00:00Z,2024-05-02T07:00:00Z,0,com.sec.android.app.shealth\r\n"

    static let expectedRecords: [SampleCollector.Entry] = [
        .init(source: "com.google.android.apps.fitness",
              sample: HealthSample(startMs: utcMs(2024, 5, 1, 8), endMs: utcMs(2024, 5, 1, 8, 15), offsetSeconds: 7200, value: 120)),
        .init(source: "android",
              sample: HealthSample(startMs: utcMs(2024, 5, 1, 8) + 250, endMs: utcMs(2024, 5, 1, 8, 5), offsetSeconds: 7200, value: 30)),
        .init(source: "android",
              sample: HealthSample(startMs: 1_714_557_600_000, endMs: 1_714_558_500_000, offsetSeconds: -14400, value: 50)),
        .init(source: "(unknown)",
              sample: HealthSample(startMs: utcMs(2024, 5, 1, 9), endMs: utcMs(2024, 5, 1, 9, 10), offsetSeconds: nil, value: 10, wallClock: true)),
        .init(source: "Acme, Inc. \"Pedometer\"",
              sample: HealthSample(startMs: utcMs(2024, 5, 1, 3, 30), endMs: utcMs(2024, 5, 1, 3, 40), offsetSeconds: 19800, value: 11)),
        .init(source: "Анна’s app 🏃",
              sample: HealthSample(startMs: utcMs(2024, 5, 1, 22, 50), endMs: utcMs(2024, 5, 1, 23, 10), offsetSeconds: 3600, value: 12.5)),
        .init(source: "com.sec.android.app.shealth",
              sample: HealthSample(startMs: utcMs(2024, 5, 2, 7), endMs: utcMs(2024, 5, 2, 7), offsetSeconds: 0, value: 0)),
    ]

    @Test func readsStepRecords() throws {
        let outcome = try Self.parse(Self.records)
        #expect(outcome.entries == Self.expectedRecords)
        #expect(outcome.dayTotals.isEmpty)
        #expect(outcome.statistics.layout == .stepRecords)
        #expect(outcome.statistics.columns == 5)
        #expect(outcome.statistics.rows == 7)
        #expect(outcome.statistics.samples == 7)
        #expect(outcome.statistics.withoutOffset == 1)
    }

    @Test func everyChunkSizeGivesTheSameRecords() throws {
        let bytes = Array(Self.records.utf8)
        for chunk in 1...bytes.count {
            let outcome = try Self.parse(bytes, chunk: chunk)
            if outcome.entries != Self.expectedRecords {
                Issue.record("chunk size \(chunk) gave \(outcome.entries)")
                return
            }
        }
    }

    @Test func thePhonesTwoNamesAreOneSource() throws {
        let text = """
        start,end,count,origin
        2026-03-01T08:00:00Z,2026-03-01T09:00:00Z,1000,android
        2026-03-01T10:00:00Z,2026-03-01T11:00:00Z,1500,com.android.healthconnect.phone.steps
        2026-03-01T10:00:00Z,2026-03-01T11:00:00Z,2000,com.google.android.apps.fitness

        """
        let aggregator = DayAggregator(rule: .recordedOffset)
        _ = try Self.parse(Array(text.utf8), into: aggregator)
        // 2500 from the phone under its two names beats 2000 from Fit; apart, each would lose.
        #expect(aggregator.dayTotals().map { "\($0.date)=\($0.steps) \($0.source)" } == ["2026-03-01=2500 android"])
    }

    static let headerAliases = [
        "start,end,count,origin",
        "start_time,end_time,step_count,package_name",
        "Start Time,End Time,Step Count,Source Name",
        "startDate,endDate,steps,source",
        "from,to,value,app",
        "begin,end,count,data_origin",
        "\"START\", End\t,  Steps ,Package",
        "start,end,count,sourceName",
    ]

    @Test(arguments: headerAliases)
    func headerAliasesNameTheSameColumns(_ header: String) throws {
        let outcome = try Self.parse(header + "\n2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,42,com.example\n")
        #expect(outcome.statistics.layout == .stepRecords)
        #expect(outcome.entries == [.init(source: "com.example", sample: HealthSample(
            startMs: utcMs(2024, 5, 1, 8), endMs: utcMs(2024, 5, 1, 8, 10), offsetSeconds: 0, value: 42))])
    }

    @Test func columnsCanComeInAnyOrderAndOriginIsOptional() throws {
        let outcome = try Self.parse("""
        id,steps,zone_offset,end,start,notes
        1,7,-18000,1714558500000,1714557600000,x
        2,8,,1714558500000,1714557600000

        """)
        #expect(outcome.entries == [
            .init(source: "(unknown)", sample: HealthSample(startMs: 1_714_557_600_000, endMs: 1_714_558_500_000, offsetSeconds: -18000, value: 7)),
            .init(source: "(unknown)", sample: HealthSample(startMs: 1_714_557_600_000, endMs: 1_714_558_500_000, offsetSeconds: nil, value: 8)),
        ])
        #expect(outcome.statistics.withoutOffset == 1)
    }

    @Test(arguments: [("3600", 3600), ("-14400", -14400), ("+05:30", 19800), ("-03:30", -12600), ("Z", 0),
                      ("+0530", 19800), ("-0900", -32400), ("-3600", -3600), ("0", 0), (" 7200 ", 7200)])
    func zoneOffsetsAreSecondsOrHoursAndMinutes(_ written: String, _ seconds: Int32) throws {
        let outcome = try Self.parse("start,end,count,offset\n1714557600000,1714557600000,1,\"\(written)\"\n")
        #expect(outcome.entries.first?.sample.offsetSeconds == seconds)
    }

    @Test func anEmptyCountIsNoData() throws {
        let outcome = try Self.parse("start,end,count\n2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,\n2024-05-01T08:00:00Z,2024-05-01T08:10:00Z, 3 \n")
        #expect(outcome.entries.map(\.sample.value) == [3])
        #expect(outcome.statistics.emptyCounts == 1)
        #expect(outcome.statistics.rows == 2)
    }

    // MARK: - Day totals

    @Test func readsDayTotals() throws {
        let outcome = try Self.parse("""
        date,steps,source
        2024-05-01,8421,com.sec.android.app.shealth
        2024-05-02,3110.5,
        2024-05-03,,x
        2024-05-04,12,com.android.healthconnect.phone
        """)
        #expect(outcome.statistics.layout == .dailyTotals)
        #expect(outcome.dayTotals == [
            .init(date: date("2024-05-01"), steps: 8421, source: "com.sec.android.app.shealth"),
            .init(date: date("2024-05-02"), steps: 3110.5, source: "(unknown)"),
            .init(date: date("2024-05-04"), steps: 12, source: "android"),
        ])
        #expect(outcome.statistics.dayTotals == 3)
        #expect(outcome.statistics.emptyCounts == 1)
        #expect(outcome.entries.isEmpty)
    }

    @Test(arguments: ["date,steps", "day,total_steps", "Local Date,Total Steps", "DATE,count", "date,step_count", "Date,Step count"])
    func dayTotalHeaderAliases(_ header: String) throws {
        let outcome = try Self.parse(header + "\n2024-02-29,100\n")
        #expect(outcome.statistics.layout == .dailyTotals)
        #expect(outcome.dayTotals == [.init(date: date("2024-02-29"), steps: 100, source: "(unknown)")])
    }

    // MARK: - Google Fit Takeout

    @Test(.needsSharedFixtures) func theDailyActivityMetricsGiveTheStepCountColumn() throws {
        let outcome = try Self.parse(try Self.fixture("takeout-2025-daily-activity-metrics.csv"))
        #expect(outcome.statistics.layout == .takeoutDailySummary)
        #expect(outcome.statistics.columns == 19)
        #expect(outcome.statistics.rows == 25)
        #expect(outcome.dayTotals.count == 25)
        #expect(Set(outcome.dayTotals.map(\.source)) == ["Google Fit"])
        #expect(outcome.dayTotals.first == .init(date: date("2025-01-29"), steps: 3952, source: "Google Fit"))
        #expect(outcome.dayTotals.last == .init(date: date("2025-02-22"), steps: 693, source: "Google Fit"))
        let byDay = Dictionary(uniqueKeysWithValues: outcome.dayTotals.map { ($0.date.description, $0.steps) })
        #expect(byDay["2025-01-30"] == 5885)
        #expect(byDay["2025-02-02"] == 8122)
        #expect(byDay["2025-02-18"] == 10711)
        #expect(outcome.dayTotals.reduce(0) { $0 + $1.steps } == 152_635)
        // 25 consecutive days.
        #expect(outcome.dayTotals.map(\.date.daysSinceEpoch) == Array(date("2025-01-29").daysSinceEpoch...date("2025-02-22").daysSinceEpoch))
    }

    @Test(.needsSharedFixtures) func theDailyActivityMetricsReadAlikeAtEveryChunkSize() throws {
        let bytes = try Self.fixture("takeout-2025-daily-activity-metrics.csv")
        let whole = try Self.parse(bytes).dayTotals
        for chunk in 1...bytes.count {
            let outcome = try Self.parse(bytes, chunk: chunk)
            if outcome.dayTotals != whole {
                Issue.record("chunk size \(chunk) gave \(outcome.dayTotals.count) days")
                return
            }
        }
    }

    @Test(.needsSharedFixtures) func theOlderDailySummariesHave1990DaysWithSteps() throws {
        let aggregator = DayAggregator(rule: .recordedOffset)
        let outcome = try Self.parse(try Self.fixture("takeout-2012-2020-daily-summaries.csv"), chunk: 4096)
        #expect(outcome.statistics.layout == .takeoutDailySummary)
        #expect(outcome.statistics.columns == 55)
        #expect(outcome.statistics.rows == 2607)
        #expect(outcome.dayTotals.count == 1990)
        #expect(outcome.statistics.emptyCounts == 617)
        #expect(outcome.dayTotals.reduce(0) { $0 + $1.steps } == 13_376_208)
        #expect(outcome.dayTotals.prefix(3).map { "\($0.date)=\(Int($0.steps))" } == ["2014-11-07=6762", "2014-11-09=8107", "2014-11-11=14680"])

        _ = try Self.parse(try Self.fixture("takeout-2012-2020-daily-summaries.csv"), into: aggregator)
        let days = aggregator.dayTotals()
        #expect(days.count == 1990)
        #expect(days.first(where: { $0.date == date("2015-05-03") })?.steps == 32614)
    }

    static let perDayName = "Takeout/Fit/Daily activity metrics/2025-02-02.csv"

    @Test(.needsSharedFixtures) func thePerDayBucketsSumTo8122() throws {
        let bytes = try Self.fixture("takeout-2025-02-02.csv")
        let aggregator = DayAggregator(rule: .recordedOffset)
        _ = try Self.parse(bytes, fileName: Self.perDayName, into: aggregator)
        #expect(aggregator.dayTotals().pairs == ["2025-02-02=8122"])
        #expect(aggregator.statistics.offsets == [19800])

        let outcome = try Self.parse(bytes, fileName: Self.perDayName)
        #expect(outcome.statistics.layout == .takeoutPerDay)
        #expect(outcome.statistics.rows == 96)
        #expect(outcome.statistics.samples == 21)
        #expect(outcome.statistics.emptyCounts == 75)
        #expect(outcome.statistics.withoutOffset == 0)
        #expect(Set(outcome.entries.map(\.source)) == ["Google Fit"])
        // 00:00 to 00:15 at +05:30 is 2025-02-01 18:30 to 18:45 UTC.
        #expect(outcome.entries.first?.sample == HealthSample(startMs: utcMs(2025, 2, 1, 18, 30), endMs: utcMs(2025, 2, 1, 18, 45),
                                                            offsetSeconds: 19800, value: 8))
    }

    @Test(.needsSharedFixtures) func thePerDayFileReadsAlikeAtEveryChunkSize() throws {
        let bytes = try Self.fixture("takeout-2025-02-02.csv")
        let whole = try Self.parse(bytes, fileName: "2025-02-02.csv").entries
        #expect(whole.count == 21)
        for chunk in Array(1...700) + Array(stride(from: 701, through: bytes.count, by: 37)) + [bytes.count] {
            let outcome = try Self.parse(bytes, chunk: chunk, fileName: "2025-02-02.csv")
            if outcome.entries != whole {
                Issue.record("chunk size \(chunk) gave \(outcome.entries.count) samples")
                return
            }
        }
    }

    static let perDayHeader = "Start time,End time,Move Minutes count,Calories (kcal),Step count\n"

    @Test func theLastBucketEndsOnTheNextDayAndNegativeBucketsCount() throws {
        let text = Self.perDayHeader + """
        11:00:00.000-04:00,11:15:00.000-04:00,,10.5,-3
        23:45:00.000-04:00,00:00:00.000-04:00,1,10.5,100
        """
        let outcome = try Self.parse(text, fileName: "C:\\Users\\me\\Takeout\\Fit\\Daily activity metrics\\2024-03-09.csv")
        #expect(outcome.entries.map(\.sample) == [
            HealthSample(startMs: utcMs(2024, 3, 9, 15), endMs: utcMs(2024, 3, 9, 15, 15), offsetSeconds: -14400, value: -3),
            HealthSample(startMs: utcMs(2024, 3, 10, 3, 45), endMs: utcMs(2024, 3, 10, 4), offsetSeconds: -14400, value: 100),
        ])
        let aggregator = DayAggregator(rule: .recordedOffset)
        _ = try Self.parse(Array(text.utf8), fileName: "2024-03-09.csv", into: aggregator)
        // The 23:45 bucket stays whole on its own day; the negative one is subtracted.
        #expect(aggregator.dayTotals().pairs == ["2024-03-09=97"])
    }

    @Test func perDayTimesWithoutOffsetAreWallClocks() throws {
        let outcome = try Self.parse(Self.perDayHeader + "08:00:00.000,08:15:00.000,,,5\n", fileName: "2024-01-01 (1).csv")
        #expect(outcome.entries.map(\.sample) == [
            HealthSample(startMs: utcMs(2024, 1, 1, 8), endMs: utcMs(2024, 1, 1, 8, 15), offsetSeconds: nil, value: 5, wallClock: true),
        ])
        #expect(outcome.statistics.withoutOffset == 1)
    }

    @Test(arguments: [("Takeout/Fit/Daily activity metrics/2025-02-02.csv", "2025-02-02"),
                      ("C:\\Takeout\\Fit\\Daily Aggregations\\2015-03-01.CSV", "2015-03-01"),
                      ("2025-02-02 (1).csv", "2025-02-02"), ("takeout-2025-02-02.csv", "2025-02-02"),
                      ("2025-02-02", "2025-02-02"), ("fit 2024-02-29 copy.csv", nil), ("12025-02-02.csv", nil),
                      ("2025-02-023.csv", nil), ("2025-02-30.csv", nil), ("steps.csv", nil)] as [(String, String?)])
    func theDateComesFromTheFileName(_ name: String, _ expected: String?) {
        #expect(RecordCSVParser.date(inFileName: name)?.description == expected)
    }

    @Test(arguments: [nil, "steps.csv", "Takeout/Fit/Daily activity metrics/2025-02-023.csv", "2025-02-30.csv"])
    func aPerDayFileNeedsItsDatedName(_ name: String?) throws {
        let error = try #require(Self.failure(Self.perDayHeader + "00:00:00.000+05:30,00:15:00.000+05:30,,,\n", fileName: name))
        #expect(error.kind == .wrongKind)
        #expect(error.line == 2)
        #expect(error.message.contains("YYYY-MM-DD.csv"))
        // With no rows at all, finish() says so.
        let empty = try #require(Self.failure(Self.perDayHeader, fileName: name))
        #expect(empty.kind == .wrongKind)
        #expect(empty.message.contains("YYYY-MM-DD.csv"))
    }

    @Test func aFewColumnsNamedLikeFitsAreAnAppsRecords() throws {
        // Fit always writes other metrics beside the steps; three bare columns are an app's step records.
        let outcome = try Self.parse("Start time,End time,Step count\n2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,9\n")
        #expect(outcome.statistics.layout == .stepRecords)
        #expect(outcome.entries.map(\.source) == ["(unknown)"])
        // And a date with a step count and a source column is a day total CSV.
        let days = try Self.parse("Date,Step count,Calories (kcal),Source\n2024-05-01,9,1,app\n")
        #expect(days.statistics.layout == .dailyTotals)
        #expect(days.dayTotals.map(\.source) == ["app"])
    }

    @Test func aFitFileWithoutAStepCountColumnHasNoSteps() throws {
        let daily = try Self.parse("Date,Calories (kcal),Distance (m)\n2019-01-01,1500.5,\n2019-01-02,1490,\n")
        #expect(daily.statistics.layout == .takeoutDailySummary)
        #expect(daily.dayTotals.isEmpty)
        #expect(daily.statistics.emptyCounts == 2)
        let buckets = try Self.parse("Start time,End time,Calories (kcal),Distance (m)\n00:00:00.000+01:00,00:15:00.000+01:00,14.2,\n",
                                     fileName: "2019-01-01.csv")
        #expect(buckets.statistics.layout == .takeoutPerDay)
        #expect(buckets.entries.isEmpty)
        #expect(buckets.statistics.emptyCounts == 1)
    }

    // MARK: - Headers that fit nothing

    @Test func anUnknownHeaderNamesItsColumnsAndTheLayouts() throws {
        let error = try #require(Self.failure("time,heart_rate,device\n2024-05-01T08:00:00Z,61,watch\n"))
        #expect(error.kind == .wrongKind)
        #expect(error.line == 1)
        for expected in ["\n  columns found: \"time\", \"heart_rate\", \"device\"\n", "\n    step record CSV: start",
                         "\n    day total CSV: date", "\n    Google Fit Takeout daily summary CSV: Date, Step count",
                         "YYYY-MM-DD.csv"] {
            #expect(error.message.contains(expected), "\(expected) in \(error.message)")
        }
        #expect(error.message.split(separator: "\n").allSatisfy { $0.count < 300 }, "one line per part, none of 800 characters")
        let partial = try #require(Self.failure("startTime,steps,app\n"))
        #expect(partial.message.hasPrefix("a CSV file whose header fits none of the step CSV layouts: for step records, no end column was found\n"))
    }

    @Test func otherSeparatorsAndUTF16AreNamed() throws {
        let semicolons = try #require(Self.failure("date;steps\n2024-01-01;5\n"))
        #expect(semicolons.kind == .wrongKind)
        #expect(semicolons.message.contains("separated by semicolons, not commas (save the file as CSV with commas)\n"))
        let tabs = try #require(Self.failure("start\tend\tcount\n"))
        #expect(tabs.message.contains("separated by tabs"))

        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "date,steps\n2024-01-01,5\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        do {
            _ = try Self.parse(utf16, chunk: 1)
            Issue.record("UTF-16 was read")
        } catch {
            #expect(error.kind == .wrongKind)
            #expect(error.message.contains("UTF-16"))
        }
    }

    @Test func anEmptyFileIsNotAStepCSV() throws {
        for text in ["", "\u{FEFF}", "\n\n"] {
            let error = try #require(Self.failure(text))
            #expect(error.kind == .wrongKind)
            #expect(error.message.contains("empty"))
        }
    }

    @Test func aHeaderAloneIsFine() throws {
        let outcome = try Self.parse("start,end,count\n")
        #expect(outcome.statistics.rows == 0)
        #expect(outcome.entries.isEmpty)
    }

    @Test func malformedCSVIsReportedWithItsPosition() throws {
        let error = try #require(Self.failure("start,end,count\n2024-05-01T08:00:00Z,\"2024-05-01T08:10:00Z\"x,1\n"))
        #expect(error.kind == .malformed)
        #expect(error.line == 2 && error.column == 44)
    }

    // MARK: - Invalid rows

    struct BadRow: Sendable, CustomTestStringConvertible {
        let header: String
        let row: String
        let field: Int
        let message: String
        var testDescription: String { row }
    }

    static let badRows: [BadRow] = [
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,4x7,a", field: 3,
               message: "field 3 (\"count\"): \"4x7\" is not a non-negative number"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,-5,a", field: 3,
               message: "\"-5\" is not a non-negative number"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T25:00:00Z,2024-05-01T08:10:00Z,5,a", field: 1,
               message: "field 1 (\"start\"): \"2024-05-01T25:00:00Z\" is not a time (ISO 8601"),
        BadRow(header: "start,end,count,origin", row: ",2024-05-01T08:10:00Z,5,a", field: 1,
               message: "field 1 (\"start\") is empty"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T07:10:00Z,5,a", field: 2,
               message: "field 2 (\"end\") \"2024-05-01T07:10:00Z\" is before field 1 (\"start\")"),
        BadRow(header: "start,end,count,origin", row: "1714557600,1714558500,5,a", field: 1,
               message: "are these seconds?"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00,5,a", field: 2,
               message: "one has a UTC offset and the other none"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z", field: 3,
               message: "the row has 2 fields but the header has 4, and field 3 (\"count\") is needed"),
        BadRow(header: "start,end,count,origin,zone_offset", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,5,a,Europe/Berlin", field: 5,
               message: "field 5 (\"zone_offset\"): \"Europe/Berlin\" is not a UTC offset"),
        BadRow(header: "date,steps", row: "2023-02-30,100", field: 1,
               message: "field 1 (\"date\"): \"2023-02-30\" is not a date (YYYY-MM-DD)"),
        BadRow(header: "date,steps", row: "2023-02-28,-1", field: 2,
               message: "\"-1\" is not a non-negative number"),
        BadRow(header: "date,steps", row: "2023-02-28", field: 2,
               message: "the row has 1 field but the header has 2"),
        BadRow(header: "Date,Calories (kcal),Step count", row: "2023-02-28,100,-7", field: 3,
               message: "field 3 (\"Step count\"): \"-7\" is not a non-negative number"),
        BadRow(header: perDayHeader.trimmingCharacters(in: .newlines), row: "11:00:00.000-04:00,11:15,,,5", field: 2,
               message: "field 2 (\"End time\"): \"11:15\" is not a time of day"),
        BadRow(header: perDayHeader.trimmingCharacters(in: .newlines), row: "11:00:00.000-04:00,11:15:00.000-04:00,,,x", field: 5,
               message: "field 5 (\"Step count\"): \"x\" is not a number"),
        // Beyond SampleLimits (issue 11): these trapped in the aggregator, or ran away.
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,1e19,a", field: 3,
               message: "field 3 (\"count\"): \"1e19\" is more steps than one record can hold (at most 1,000,000)"),
        BadRow(header: "start,end,count,origin", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,999999999999999999,a", field: 3,
               message: "\"999999999999999999\" is more steps than one record can hold"),
        BadRow(header: "start,end,count,origin", row: "1714550400000,20245908909315801,5,a", field: 2,
               message: "field 2 (\"end\"): \"20245908909315801\" is outside the years 1970 to 2200"),
        BadRow(header: "start,end,count,origin", row: "2024-01-01T00:00:00Z,2024-03-01T00:00:00Z,5,a", field: 2,
               message: "field 1 (\"start\"): \"2024-01-01T00:00:00Z\" to field 2 (\"end\"): \"2024-03-01T00:00:00Z\" "
                   + "is longer than 31 days, the longest one record may span"),
        BadRow(header: "start,end,count,origin,zone_offset", row: "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,5,a,+18:30", field: 5,
               message: "field 5 (\"zone_offset\"): \"+18:30\" is beyond ±18 hours"),
        BadRow(header: "date,steps", row: "2024-03-01,1e19", field: 2,
               message: "field 2 (\"steps\"): \"1e19\" is more steps than one record can hold (at most 1,000,000)"),
        BadRow(header: "date,steps", row: "1969-12-31,5", field: 1,
               message: "field 1 (\"date\"): \"1969-12-31\" is outside the years 1970 to 2200"),
        BadRow(header: "Date,Calories (kcal),Step count", row: "2023-02-28,100,1e308", field: 3,
               message: "field 3 (\"Step count\"): \"1e308\" is more steps than one record can hold"),
        BadRow(header: perDayHeader.trimmingCharacters(in: .newlines), row: "11:00:00.000-04:00,11:15:00.000-04:00,,,-1e19", field: 5,
               message: "field 5 (\"Step count\"): \"-1e19\" is more steps than one record can hold"),
    ]

    @Test(arguments: badRows)
    func anUnusableRowStopsTheRunByDefault(_ bad: BadRow) throws {
        // The bad row is line 4, after a row that spans two lines (or a row and a blank line).
        let good = bad.header.hasPrefix("start") ? "2024-05-01T08:00:00Z,2024-05-01T08:10:00Z,2,\"multi\nline\"\n"
            : bad.header.hasPrefix("Start") ? "10:00:00.000-04:00,10:15:00.000-04:00,,\"multi\nline\",2\n"
            : bad.header.hasPrefix("Date,") ? "2024-01-01,\"multi\nline\",2\n"
            : "2024-01-01,2\n\n"
        let text = bad.header + "\n" + good + bad.row + "\n" + good
        let error = try #require(Self.failure(text, fileName: "2024-01-01.csv"))
        #expect(error.kind == .invalidRecord)
        #expect(error.line == 4)
        #expect(error.column == bad.field)
        #expect(error.position.byteOffset == Int64((bad.header + "\n" + good).utf8.count), "the offset of the row's first byte")
        #expect(error.message.contains(bad.message), "\(error.message)")
        #expect(ExportError(error, at: InputLocation(path: "2024-01-01.csv"), expected: .android, grammar: "CSV").remedy == .skipInvalid)

        let skipped = try Self.parse(text, chunk: 3, policy: .skip, fileName: "2024-01-01.csv")
        #expect(skipped.entries.count + skipped.dayTotals.count == 2)
        #expect(skipped.statistics.rows == 3)
        #expect(skipped.statistics.skipped.count == 1)
        let problem = error.message
        #expect(skipped.statistics.skipped.examples == [SkippedRecord(line: 4, column: bad.field, problem: problem)])
    }

    @Test func onlyTheFirstFewSkippedRowsAreKept() throws {
        var text = "date,steps\n"
        for day in 1...9 { text += "2024-01-0\(day),x\n" }
        let outcome = try Self.parse(text, policy: .skip)
        #expect(outcome.statistics.skipped.count == 9)
        #expect(outcome.statistics.skipped.examples.map(\.line) == [2, 3, 4, 5, 6])
    }
}
