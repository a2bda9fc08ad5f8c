import Foundation
import ExportParsers
import HealthDays
import Testing
import TestSupport

/// Fitbit's Takeout files other than steps: distance (cm), calories (kcal, total) and heart rate
/// (`{"bpm", "confidence"}` objects), each told by the file's name.
@Suite struct FitbitMetricParserTests {
    static func parse(_ text: String, kind: FitbitMinuteParser.Kind, chunk: Int = 1 << 20,
                      policy: InvalidRecordPolicy = .fail) throws(ParseFailure) -> (MetricCollector, FitbitMinuteParser) {
        let sink = MetricCollector()
        let parser = FitbitMinuteParser(sink: sink, kind: kind, invalidRecords: policy)
        try parser.feedAll(Array(text.utf8), chunk: chunk)
        return (sink, parser)
    }

    static func minute(_ metric: Metric, _ hour: Int, _ minute: Int, _ value: Double) -> MetricCollector.Entry {
        MetricCollector.Entry(metric: metric, source: "Fitbit",
                              sample: HealthSample(startMs: utcMs(2022, 7, 17, hour, minute), endMs: utcMs(2022, 7, 17, hour, minute + 1),
                                                 offsetSeconds: nil, value: value, wallClock: true))
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func distanceIsCentimetresHandedOnInMetres(chunk: Int) throws {
        let (sink, parser) = try Self.parse("""
            [{"dateTime":"07/17/22 12:23:00","value":"150.5"},{"dateTime":"07/17/22 12:24:00","value":"0"},
             {"dateTime" : "07/17/22 12:25:00", "value" : 8000}]
            """, kind: .distance, chunk: chunk)
        #expect(sink.entries == [Self.minute(.distance, 12, 23, 1.505), Self.minute(.distance, 12, 24, 0),
                                 Self.minute(.distance, 12, 25, 80)])
        #expect(parser.statistics.minutes == 3)
    }

    @Test(arguments: [1, 5, 1 << 20])
    func caloriesAreTotalEnergyInKilocalories(chunk: Int) throws {
        let (sink, _) = try Self.parse(#"[{"dateTime":"07/17/22 00:00:00","value":"1.23"},{"dateTime":"07/17/22 00:01:00","value":"4"}]"#,
                                       kind: .calories, chunk: chunk)
        #expect(sink.entries == [Self.minute(.totalEnergy, 0, 0, 1.23), Self.minute(.totalEnergy, 0, 1, 4)])
    }

    @Test(arguments: [1, 2, 3, 7, 16, 1 << 20])
    func heartRateIsEachReadingAtItsInstantWhateverItsConfidence(chunk: Int) throws {
        let (sink, parser) = try Self.parse("""
            [{
              "dateTime" : "07/17/22 12:23:05",
              "value" : {
                "bpm" : 61,
                "confidence" : 0
              }
            },{"dateTime":"07/17/22 12:23:15","value":{"confidence":3,"bpm":"72.5","extra":{"bpm":1}}}]
            """, kind: .heartRate, chunk: chunk)
        func reading(_ second: Int, _ bpm: Double) -> MetricCollector.Entry {
            let at = utcMs(2022, 7, 17, 12, 23, second)
            return MetricCollector.Entry(metric: .heartRate, source: "Fitbit",
                                         sample: HealthSample(startMs: at, endMs: at, offsetSeconds: nil, value: bpm, wallClock: true))
        }
        #expect(sink.entries == [reading(5, 61), reading(15, 72.5)])
        #expect(parser.statistics.minutes == 2 && parser.statistics.rows == 2)
    }

    static let invalidHeartRate: [(row: String, problem: String)] = [
        (#"{"dateTime":"01/01/23 00:00:00","value":"72"}"#, #"value is a string, not an object {"bpm", "confidence"}"#),
        (#"{"dateTime":"01/01/23 00:00:00","value":72}"#, #"value is a number, not an object {"bpm", "confidence"}"#),
        (#"{"dateTime":"01/01/23 00:00:00","value":[72]}"#, #"value is an array, not an object {"bpm", "confidence"}"#),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"confidence":2}}"#, "value has no bpm"),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"bpm":null}}"#, "bpm is null, not a number"),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"bpm":{"x":1}}}"#, "bpm is an object, not a number"),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"bpm":"fast"}}"#, #"bpm "fast" is not a number"#),
        (#"{"dateTime":"01/01/23 00:00:00","value":{"bpm":-60}}"#, #"bpm "-60" is negative"#),
        (#"{"dateTime":"1/1/23 00:00:00","value":{"bpm":60}}"#, #"dateTime "1/1/23 00:00:00" is not a date and time as MM/DD/YY HH:MM:SS"#),
    ]

    static let good = #"{"dateTime":"01/01/23 00:00:00","value":{"bpm":60,"confidence":1}}"#

    @Test(arguments: invalidHeartRate.indices)
    func anInvalidHeartRateRowFailsWithItsPlaceAndProblem(_ index: Int) {
        let (row, problem) = Self.invalidHeartRate[index]
        var failure = ParseFailure(kind: .invalidRecord, line: 2, column: 1, byteOffset: 69, message: problem)
        failure.record = "heart-rate record"
        #expect(throws: failure) {
            _ = try Self.parse("[" + Self.good + ",\n" + row + "]", kind: .heartRate)
        }
    }

    @Test func underSkipTheInvalidHeartRateRowsAreCountedAndTheOthersRead() throws {
        let rows = [Self.good] + Self.invalidHeartRate.map(\.row) + [Self.good.replacingOccurrences(of: ":60,", with: ":70,")]
        let (sink, parser) = try Self.parse("[" + rows.joined(separator: ",\n") + "]", kind: .heartRate, chunk: 5, policy: .skip)
        #expect(sink.entries.map(\.sample.value) == [60, 70])
        #expect(parser.statistics.skipped.count == Self.invalidHeartRate.count)
        #expect(parser.statistics.skipped.examples.first == SkippedRecord(line: 2, column: 1, problem: Self.invalidHeartRate[0].problem))
    }

    @Test func anInvalidDistanceOrCaloriesRowNamesItsKind() {
        var distance = ParseFailure(kind: .invalidRecord, line: 1, column: 2, byteOffset: 1, message: #"value is an object, not a distance"#)
        distance.record = "distance record"
        #expect(throws: distance) {
            _ = try Self.parse(#"[{"dateTime":"01/01/23 00:00:00","value":{"bpm":60}}]"#, kind: .distance)
        }
        var calories = ParseFailure(kind: .invalidRecord, line: 1, column: 2, byteOffset: 1, message: #"value "lots" is not a number"#)
        calories.record = "total-energy record"
        #expect(throws: calories) {
            _ = try Self.parse(#"[{"dateTime":"01/01/23 00:00:00","value":"lots"}]"#, kind: .calories)
        }
    }

    @Test func eachKindGivesItsMetric() {
        #expect(FitbitMinuteParser.Kind.allCases.map(\.metrics) == [[.steps], [.distance], [.totalEnergy], [.heartRate], [.sleep, .inBed]])
        #expect(FitbitMinuteParser.Kind(giving: .inBed) == .sleep)
        #expect(FitbitMinuteParser.Kind(giving: .activeEnergy) == nil)
        #expect(FitbitMinuteParser.Kind(giving: .totalEnergy) == .calories)
    }
}
