import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// A set of metrics from a list (`.steps` alone would be ambiguous with `MetricSet.steps`).
private func metricSet(_ metrics: Metric...) -> MetricSet {
    MetricSet(metrics)
}

/// Collects every sample a reader hands on with the metric it belongs to (steps included).
final class MetricCollector: RecordSink {
    struct Entry: Equatable, Sendable, CustomStringConvertible {
        let metric: Metric
        let source: String
        let sample: HealthSample

        var description: String {
            "\(metric.name) \(source) \(sample.startMs)-\(sample.endMs)@\(sample.offsetSeconds.map(String.init) ?? "-") \(sample.value)"
        }
    }

    private(set) var entries: [Entry] = []

    func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        entries.append(Entry(metric: .steps, source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample))
    }

    func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
        entries.append(Entry(metric: metric, source: String(decoding: sourceUTF8, as: UTF8.self), sample: sample))
    }

    func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        Issue.record("an Apple export has no day totals")
    }
}

/// The records of metrics beyond steps (docs/metrics.md, *Units*, *Sleep*, *Workouts*) through
/// `AppleHealthParser`: units converted with their factors or refused, sleep values, workouts,
/// top-level records only, only the metrics asked for, and the same samples on the pieces path.
@Suite struct AppleMetricRecordTests {
    static let start = "2024-01-01 10:00:00 +0100"
    static let end = "2024-01-01 10:05:00 +0100"
    /// 09:00Z and 09:05Z on 2024-01-01, at +0100.
    static let startMs = utcMs(2024, 1, 1, 9)
    static let endMs = utcMs(2024, 1, 1, 9, 5)

    /// A document whose body lines begin on line 3.
    static func document(_ body: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + body.joined(separator: "\n")
            + "\n</HealthData>\n"
    }

    static func record(_ type: String, value: String, unit: String? = nil, source: String = "Watch",
                       start: String = start, end: String = end) -> String {
        var attributes = ["type=\"\(type)\"", "sourceName=\"\(source)\""]
        if let unit { attributes.append("unit=\"\(unit)\"") }
        attributes += ["startDate=\"\(start)\"", "endDate=\"\(end)\"", "value=\"\(value)\""]
        return " <Record " + attributes.joined(separator: " ") + "/>"
    }

    static func workout(duration: String?, unit: String?, source: String = "Watch", start: String = start,
                        end: String = "2024-01-01 11:00:00 +0100", children: [String] = []) -> String {
        var attributes = ["workoutActivityType=\"HKWorkoutActivityTypeRunning\""]
        if let duration { attributes.append("duration=\"\(duration)\"") }
        if let unit { attributes.append("durationUnit=\"\(unit)\"") }
        attributes += ["sourceName=\"\(source)\"", "startDate=\"\(start)\"", "endDate=\"\(end)\""]
        let open = " <Workout " + attributes.joined(separator: " ")
        guard !children.isEmpty else { return open + "/>" }
        return open + ">\n" + children.map { "  " + $0 }.joined(separator: "\n") + "\n </Workout>"
    }

    /// Runs the prefilter and a parser asking for `metrics` over `text` in chunks of `chunk` bytes.
    static func parse(_ text: String, metrics: MetricSet, policy: InvalidRecordPolicy = .fail, chunk: Int = 97) throws
        -> (entries: [MetricCollector.Entry], statistics: AppleParseStatistics) {
        let collector = MetricCollector()
        let parser = AppleHealthParser(sink: collector, invalidRecords: policy, metrics: metrics)
        var filter = AppleXMLPrefilter()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            let cleaned = filter.filter(Array(bytes[start..<end]), final: end == bytes.count)
            try cleaned.withUnsafeBytes { try parser.feed($0) }
            start = end
        }
        try parser.finish()
        return (collector.entries, parser.statistics)
    }

    static func failure(_ text: String, metrics: MetricSet) -> ParseFailure? {
        do {
            _ = try parse(text, metrics: metrics)
            return nil
        } catch {
            return error as? ParseFailure
        }
    }

    // MARK: - Units

    static let distance = "HKQuantityTypeIdentifierDistanceWalkingRunning"
    static let activeEnergy = "HKQuantityTypeIdentifierActiveEnergyBurned"
    static let flights = "HKQuantityTypeIdentifierFlightsClimbed"
    static let exercise = "HKQuantityTypeIdentifierAppleExerciseTime"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let restingHeartRate = "HKQuantityTypeIdentifierRestingHeartRate"
    static let hrv = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
    static let vo2Max = "HKQuantityTypeIdentifierVO2Max"
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// Every unit of docs/metrics.md: record type, metric, unit, value written, value in the
    /// column's unit (worked out by hand from the factor).
    static let units: [(String, Metric, String, String, Double)] = [
        (distance, .distance, "m", "1234.5", 1234.5),
        (distance, .distance, "km", "1.5", 1500),
        (distance, .distance, "cm", "250", 2.5),
        (distance, .distance, "mi", "2", 3218.688),
        (distance, .distance, "ft", "1000", 304.8),
        (distance, .distance, "yd", "100", 91.44),
        (activeEnergy, .activeEnergy, "kcal", "250", 250),
        (activeEnergy, .activeEnergy, "Cal", "250", 250),
        (activeEnergy, .activeEnergy, "kJ", "418.4", 100),
        (activeEnergy, .activeEnergy, "cal", "250000", 250),
        (activeEnergy, .activeEnergy, "J", "418400", 100),
        (flights, .flights, "count", "3", 3),
        (exercise, .exercise, "min", "5", 5),
        (exercise, .exercise, "s", "90", 1.5),
        (exercise, .exercise, "hr", "0.5", 30),
        (heartRate, .heartRate, "count/min", "61", 61),
        (heartRate, .heartRate, "count/s", "1.2", 72),
        (restingHeartRate, .restingHeartRate, "count/min", "55", 55),
        (restingHeartRate, .restingHeartRate, "count/s", "1", 60),
        (hrv, .heartRateVariability, "ms", "45.5", 45.5),
        (hrv, .heartRateVariability, "s", "0.045", 45),
        (vo2Max, .vo2Max, "mL/min\u{00B7}kg", "42.1", 42.1),
        (vo2Max, .vo2Max, "mL/kg\u{00B7}min", "42.1", 42.1),
        (vo2Max, .vo2Max, "mL/(kg\u{00B7}min)", "42.1", 42.1),
        (vo2Max, .vo2Max, "ml/(kg*min)", "42.1", 42.1),
    ]

    static func close(_ got: Double, _ expected: Double) -> Bool {
        abs(got - expected) <= 1e-9 * max(1, abs(expected))
    }

    @Test(arguments: units)
    func everyUnitConvertsWithItsFactor(_ unit: (String, Metric, String, String, Double)) throws {
        let (type, metric, name, written, expected) = unit
        let text = Self.document([Self.record(type, value: written, unit: name)])
        let (entries, statistics) = try Self.parse(text, metrics: MetricSet(metric))
        try #require(entries.count == 1, "\(name): \(entries)")
        let entry = entries[0]
        #expect(entry.metric == metric)
        #expect(entry.source == "Watch")
        #expect(entry.sample.startMs == Self.startMs && entry.sample.endMs == Self.endMs && entry.sample.offsetSeconds == 3600)
        #expect(Self.close(entry.sample.value, expected), "\(written) \(name) gave \(entry.sample.value), not \(expected)")
        #expect(statistics.metricRecords == 1)
        #expect(statistics.skipped.count == 0)
    }

    /// A unit of another metric is unknown for this one (seconds are HRV's and exercise's, not distance's).
    @Test(arguments: [(distance, Metric.distance, "furlong", "m, km, cm, mi, ft, yd"),
                      (distance, .distance, "s", "m, km, cm, mi, ft, yd"),
                      (heartRate, .heartRate, "bpm", "count/min, count/s"),
                      (activeEnergy, .activeEnergy, "KCAL", "kcal, Cal, kJ, cal, J"),
                      (hrv, .heartRateVariability, "min", "ms, s"),
                      (flights, .flights, "floors", "count")])
    func anUnknownUnitIsAnInvalidRecordNamingTheUnitAndTheKnownOnes(_ unit: (String, Metric, String, String)) throws {
        let (type, metric, name, known) = unit
        let text = Self.document([Self.record(type, value: "12", unit: name),
                                  Self.record(type, value: "13", unit: AppleMetricType.units(of: metric)[0].unit)])
        let error = try #require(Self.failure(text, metrics: MetricSet(metric)))
        #expect(error.kind == .invalidRecord)
        #expect(error.line == 3)
        #expect(error.message.contains("unit \"\(name)\""), "\(error.message)")
        #expect(error.message.contains("(\(known))"), "\(error.message)")
        #expect(error.message.contains(metric.name), "\(error.message)")
        #expect(error.record == "\(metric.name) record")

        // Skipped instead: counted with its line, the next record still read.
        let (entries, statistics) = try Self.parse(text, metrics: MetricSet(metric), policy: .skip)
        #expect(entries.map(\.sample.value) == [13])
        #expect(statistics.skipped.count == 1)
        #expect(statistics.skipped.examples.first?.line == 3)
        #expect(statistics.skipped.examples.first?.problem.contains("unit \"\(name)\"") == true)
        #expect(statistics.metricRecords == 1)
    }

    @Test func aQuantityRecordWithoutAUnitOrWithANegativeValueIsInvalid() throws {
        let noUnit = Self.document([Self.record(Self.distance, value: "12")])
        let error = try #require(Self.failure(noUnit, metrics: metricSet(.distance)))
        #expect(error.kind == .invalidRecord)
        #expect(error.message.contains("missing unit"))
        let negative = Self.document([Self.record(Self.heartRate, value: "-60", unit: "count/min")])
        #expect(try #require(Self.failure(negative, metrics: metricSet(.heartRate))).message.contains("not a non-negative number"))
    }

    @Test func stepUnitsAreNotChecked() throws {
        let text = Self.document([Self.record(Self.steps, value: "12", unit: "steps")])
        let (entries, _) = try Self.parse(text, metrics: metricSet(.steps, .heartRate))
        #expect(entries.map(\.metric) == [.steps])
    }

    // MARK: - Workouts

    @Test(arguments: [("45.5", "min", 45.5), ("2730", "s", 45.5), ("0.75", "hr", 45)])
    func aWorkoutsMinutesAreItsDurationInItsUnit(_ duration: (String, String, Double)) throws {
        let (written, unit, minutes) = duration
        let text = Self.document([Self.workout(duration: written, unit: unit)])
        let (entries, statistics) = try Self.parse(text, metrics: metricSet(.workouts))
        try #require(entries.count == 1)
        #expect(entries[0].metric == .workouts && entries[0].source == "Watch")
        #expect(entries[0].sample.startMs == Self.startMs && entries[0].sample.endMs == utcMs(2024, 1, 1, 10))
        #expect(Self.close(entries[0].sample.value, minutes), "\(written) \(unit) gave \(entries[0].sample.value)")
        #expect(statistics.metricRecords == 1)
    }

    @Test func aWorkoutWithoutADurationLastsFromStartToEnd() throws {
        // 10:00 to 10:40: 40 minutes.
        let text = Self.document([Self.workout(duration: nil, unit: nil, end: "2024-01-01 10:40:00 +0100")])
        let (entries, _) = try Self.parse(text, metrics: metricSet(.workouts))
        #expect(entries.map(\.sample.value) == [40])
    }

    @Test func aWorkoutDurationInAnUnknownUnitOrWithoutOneIsInvalid() throws {
        let unknown = try #require(Self.failure(Self.document([Self.workout(duration: "1", unit: "d")]), metrics: metricSet(.workouts)))
        #expect(unknown.kind == .invalidRecord)
        #expect(unknown.message.contains("unit \"d\""))
        #expect(unknown.message.contains("(min, s, hr)"))
        #expect(unknown.record == "workout")
        let missing = try #require(Self.failure(Self.document([Self.workout(duration: "30", unit: nil)]), metrics: metricSet(.workouts)))
        #expect(missing.message.contains("missing durationUnit"))
    }

    @Test func aWorkoutsStatisticsAndEventsAreNotRecords() throws {
        let text = Self.document([Self.workout(duration: "30", unit: "min", children: [
            "<MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>",
            "<WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-01-01 10:10:00 +0100\" duration=\"5\" durationUnit=\"min\"/>",
            "<WorkoutStatistics type=\"\(Self.activeEnergy)\" startDate=\"\(Self.start)\" endDate=\"\(Self.end)\" sum=\"300\" unit=\"kcal\"/>",
            Self.record(Self.activeEnergy, value: "300", unit: "kcal").trimmingCharacters(in: .whitespaces),
        ])])
        let (entries, statistics) = try Self.parse(text, metrics: .all)
        #expect(entries.map(\.metric) == [.workouts])
        #expect(entries.first?.sample.value == 30)
        #expect(statistics.metricRecords == 1)
    }

    // MARK: - Sleep

    static let asleepValues = ["HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified",
                               "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
                               "HKCategoryValueSleepAnalysisAsleepREM"]

    @Test func sleepValuesGoToSleepOrInBedAndAwakeIsIgnored() throws {
        let body = Self.asleepValues.map { Self.record(Self.sleep, value: $0) }
            + [Self.record(Self.sleep, value: "HKCategoryValueSleepAnalysisInBed", source: "iPhone"),
               Self.record(Self.sleep, value: "HKCategoryValueSleepAnalysisAwake")]
        let text = Self.document(body)
        let interval = HealthSample(startMs: Self.startMs, endMs: Self.endMs, offsetSeconds: 3600, value: 0)
        let (entries, statistics) = try Self.parse(text, metrics: metricSet(.sleep, .inBed))
        #expect(entries == Array(repeating: MetricCollector.Entry(metric: .sleep, source: "Watch", sample: interval), count: 5)
                + [MetricCollector.Entry(metric: .inBed, source: "iPhone", sample: interval)])
        #expect(statistics.metricRecords == 6)
        #expect(statistics.skipped.count == 0)

        // Asked for one of the two, the other's records are not handed on.
        #expect(try Self.parse(text, metrics: metricSet(.inBed)).entries.map(\.metric) == [.inBed])
        #expect(try Self.parse(text, metrics: metricSet(.sleep)).entries.map(\.metric) == Array(repeating: .sleep, count: 5))
    }

    @Test func anUnknownSleepValueIsAnInvalidRecord() throws {
        let text = Self.document([Self.record(Self.sleep, value: "HKCategoryValueSleepAnalysisAsleepLight"),
                                  Self.record(Self.sleep, value: "HKCategoryValueSleepAnalysisAsleepCore")])
        let error = try #require(Self.failure(text, metrics: metricSet(.sleep)))
        #expect(error.kind == .invalidRecord)
        #expect(error.line == 3)
        #expect(error.message.contains("\"HKCategoryValueSleepAnalysisAsleepLight\""))
        #expect(error.record == "sleep analysis record")
        let (entries, statistics) = try Self.parse(text, metrics: metricSet(.sleep), policy: .skip)
        #expect(entries.count == 1)
        #expect(statistics.skipped.count == 1)
    }

    /// The message of an invalid record says what it was; a step record read after a metric
    /// record is a step record again.
    @Test func anInvalidRecordSaysWhatItWas() throws {
        let badDate = "2024-01-01 25:00:00 +0100"
        let cases: [(String, String)] = [
            (Self.record(Self.heartRate, value: "61", unit: "count/min", start: badDate), "heart-rate record"),
            (Self.record(Self.activeEnergy, value: "x", unit: "kcal"), "active-energy record"),
            (Self.record(Self.sleep, value: "HKCategoryValueSleepAnalysisInBed", start: badDate), "sleep analysis record"),
            (Self.workout(duration: "-1", unit: "min"), "workout"),
            (Self.record(Self.steps, value: "1O", unit: "count"), "step record"),
        ]
        for (line, record) in cases {
            let text = Self.document([Self.record(Self.heartRate, value: "61", unit: "count/min"), line])
            let error = try #require(Self.failure(text, metrics: ExportFamily.appleHealth.metrics), "\(record)")
            #expect(error.record == record)
            #expect(error.line == 4)
            // And in the words of the import, one parse or in pieces.
            let bytes = Array(text.utf8)
            for pieces in [false, true] {
                let read = Self.outcome { sink throws(ExportError) in
                    pieces ? try AppleHealthImport.readInPieces(MemoryStream(bytes), into: sink, invalidRecords: .fail, workers: 2,
                                                                pieceSize: 100, metrics: .all, progress: nil)
                        : try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: .fail,
                                                                 metrics: .all, progress: nil)
                }
                #expect(read.error?.description.hasPrefix("export.xml:4:") == true, "\(String(describing: read.error))")
                #expect(read.error?.description.contains(": invalid \(record): ") == true, "\(String(describing: read.error))")
            }
        }
        // Steps alone: the words they always had.
        let steps = Self.document([Self.record(Self.steps, value: "1O", unit: "count")])
        #expect(Self.failure(steps, metrics: .steps)?.record == "step record")
    }

    // MARK: - Which records are handed on

    /// Steps, a metric record of each kind, one nested in a Correlation and a workout.
    static let mixed = document([
        record(steps, value: "47", unit: "count", source: "iPhone"),
        record(heartRate, value: "61", unit: "count/min"),
        " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Cuff\" startDate=\"\(start)\" endDate=\"\(end)\">",
        "  " + record(heartRate, value: "99", unit: "count/min", source: "Cuff"),
        "  " + record(distance, value: "1", unit: "km", source: "Cuff"),
        " </Correlation>",
        record(distance, value: "0.5", unit: "km", source: "iPhone"),
        record(sleep, value: "HKCategoryValueSleepAnalysisAsleepCore"),
        workout(duration: "30", unit: "min"),
        // Of a metric not asked for, a unit no reader knows: not read, so no error.
        record(vo2Max, value: "40", unit: "furlong"),
    ])

    @Test func recordsNestedInACorrelationAreNotHandedOn() throws {
        let (entries, statistics) = try Self.parse(Self.mixed, metrics: metricSet(.steps, .heartRate, .distance, .sleep, .workouts))
        #expect(entries.map { "\($0.metric.name) \($0.source) \($0.sample.value)" }
                == ["steps iPhone 47.0", "heart-rate Watch 61.0", "distance iPhone 500.0", "sleep Watch 0.0", "workouts Watch 30.0"])
        #expect(statistics.metricRecords == 4)
        #expect(statistics.stepRecords == 1)
    }

    @Test func aStepsOnlyParserHandsOnNoOtherMetric() throws {
        for metrics in [MetricSet.steps, metricSet(.steps)] {
            let (entries, statistics) = try Self.parse(Self.mixed, metrics: metrics)
            #expect(entries.map(\.metric) == [.steps])
            #expect(statistics.metricRecords == 0)
        }
        // The parser's default is steps alone.
        let collector = MetricCollector()
        let parser = AppleHealthParser(sink: collector)
        try Array(Self.mixed.utf8).withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        #expect(collector.entries.map(\.metric) == [.steps])
    }

    @Test func askingForHeartRateAloneHandsOnNoSteps() throws {
        let (entries, statistics) = try Self.parse(Self.mixed, metrics: metricSet(.heartRate))
        #expect(entries.map { "\($0.metric.name) \($0.source)" } == ["heart-rate Watch"])
        #expect(statistics.stepRecords == 0)
        #expect(statistics.metricRecords == 1)
    }

    @Test func askingForVO2maxMakesItsUnknownUnitAnError() throws {
        let error = try #require(Self.failure(Self.mixed, metrics: metricSet(.vo2Max)))
        #expect(error.message.contains("unit \"furlong\""))
        #expect(error.line == 12)
    }

    // MARK: - Pieces

    /// `count` elements of every kind, some written twice, some nested, every 37th with a unit no
    /// reader knows, on lines of their own.
    static func mixedDocument(count: Int) -> String {
        let sources = ["Anna’s Apple Watch", "Anna’s iPhone", "R&amp;D", "Sleep &lt;App&gt;"]
        var body: [String] = []
        var previous = ""
        for index in 0..<count {
            let day = 1 + index % 27
            let hour = index % 24
            let start = String(format: "2024-02-%02d %02d:%02d:00 +0100", day, hour, index % 60)
            let end = String(format: "2024-02-%02d %02d:%02d:30 +0100", day, hour, index % 60)
            let source = sources[index % sources.count]
            var line: String
            switch index % 11 {
            case 0: line = record(steps, value: "\(index)", unit: "count", source: source, start: start, end: end)
            case 1: line = record(distance, value: "\(Double(index) / 100)", unit: ["km", "m", "mi"][index % 3], source: source, start: start, end: end)
            case 2: line = record(heartRate, value: "\(50 + index % 90)", unit: "count/min", source: source, start: start, end: end)
            case 3: line = record(activeEnergy, value: "\(index)", unit: ["kcal", "kJ"][index % 2], source: source, start: start, end: end)
            case 4: line = record(sleep, value: asleepValues[index % 5], source: source, start: start, end: end)
            case 5: line = record(sleep, value: ["HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAwake"][index % 2],
                                  source: source, start: start, end: end)
            case 6: line = workout(duration: "\(index % 90)", unit: "min", source: source, start: start, end: end,
                                   children: index % 2 == 0 ? ["<WorkoutStatistics type=\"\(activeEnergy)\" sum=\"3\" unit=\"kcal\"/>"] : [])
            case 7: line = " <Correlation type=\"X\">\n  " + record(heartRate, value: "70", unit: "count/min", start: start, end: end) + "\n </Correlation>"
            case 8: line = previous
            case 9: line = record(hrv, value: "\(index % 100 + 1)", unit: "ms", source: source, start: start, end: end)
            default: line = record(restingHeartRate, value: "\(40 + index % 30)", unit: "count/min", source: source, start: start, end: end)
            }
            if index % 11 != 8 { previous = line }
            if index % 37 == 36 { line = record(flights, value: "2", unit: "floors", source: source, start: start, end: end) }
            body.append(line)
        }
        return document(body)
    }

    struct Outcome: Equatable {
        var entries: [MetricCollector.Entry] = []
        var statistics: AppleParseStatistics?
        var error: ExportError?
    }

    static func outcome(_ read: (MetricCollector) throws(ExportError) -> AppleImportSummary) -> Outcome {
        let collector = MetricCollector()
        var outcome = Outcome()
        do {
            outcome.statistics = try read(collector).parse
        } catch {
            outcome.error = error
        }
        outcome.entries = collector.entries
        return outcome
    }

    @Test(arguments: [ExportFamily.appleHealth.metrics, metricSet(.steps, .sleep), metricSet(.heartRate, .workouts, .flights)])
    func thePiecesPathGivesTheSameMetricSamplesInTheSameOrder(_ metrics: MetricSet) {
        let bytes = Array(Self.mixedDocument(count: 400).utf8)
        let expected = Self.outcome { sink throws(ExportError) in
            try AppleHealthImport.readOnThisThread(MemoryStream(bytes), into: sink, invalidRecords: .skip, metrics: metrics,
                                                   progress: nil)
        }
        #expect(expected.error == nil)
        #expect(expected.entries.count > 60)
        // No exercise or VO2max records, and every flights record has an unknown unit.
        #expect(Set(expected.entries.map(\.metric)) == Set(metrics.metrics.filter { ![.vo2Max, .exercise, .flights].contains($0) }))
        if metrics.contains(.flights) {
            #expect((expected.statistics?.skipped.count ?? 0) == 10, "every 37th record, by its unknown unit")
        }
        for pieceSize in [1, 200, 3000, 1 << 20] {
            for workers in [1, 2] {
                let counts = PieceCounts()
                let got = Self.outcome { sink throws(ExportError) in
                    try AppleHealthImport.readInPieces(MemoryStream(bytes, readSize: 1000), into: sink, invalidRecords: .skip,
                                                       workers: workers, pieceSize: pieceSize, counts: counts, metrics: metrics,
                                                       progress: nil)
                }
                #expect(got == expected, "pieces of \(pieceSize), \(workers) workers")
                if pieceSize == 200 { #expect(counts.byWorkers > 20, "the workers did the parsing") }
            }
        }
    }
}
