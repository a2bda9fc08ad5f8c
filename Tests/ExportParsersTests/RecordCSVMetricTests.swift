import Testing
@testable import ExportParsers
import HealthDays
import StreamingText
import TestSupport

/// The metrics of CSV files (docs/metrics.md, *CSV*): the day-value header set, the record header
/// set with a metric column, Google Fit Takeout's metric columns in the daily summary and the
/// per-day buckets, through the parser and the day rules together.
@Suite struct RecordCSVMetricTests {
    struct Outcome {
        let days: [MetricDay]
        let values: [MetricSourceValue]
        let statistics: RecordCSVParser.Statistics
        let aggregator: MetricAggregator

        func day(_ text: String) -> MetricDay? { days.first { $0.date == date(text) } }
    }

    static func read(_ text: String, metrics: MetricSet = ExportFamily.android.metrics, policy: InvalidRecordPolicy = .fail,
                     fileName: String? = nil, chunk: Int = 7) throws -> Outcome {
        let aggregator = MetricAggregator(metrics: metrics, rule: .recordedOffset)
        let parser = RecordCSVParser(sink: aggregator, invalidRecords: policy, fileName: fileName, metrics: metrics)
        try parser.feedAll(Array(text.utf8), chunk: chunk)
        try aggregator.finish()
        return Outcome(days: aggregator.days(), values: aggregator.sourceValues(), statistics: parser.statistics,
                       aggregator: aggregator)
    }

    static func failure(_ text: String, metrics: MetricSet = ExportFamily.android.metrics) -> ParseFailure? {
        do {
            _ = try read(text, metrics: metrics)
            return nil
        } catch let failure as ParseFailure {
            return failure
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    // MARK: - Day values

    /// The columns `stepimport --format csv --metric` prints are a day-value CSV: read back, the
    /// same values come out, each in its own column (sampled ones as the day's value given whole).
    @Test func theToolsOwnMetricCSVReadsBackAsDayValues() throws {
        let text = """
            date,steps,distance_m,active_kcal,total_kcal,flights,hr_avg,hr_min,hr_max,resting_hr,hrv_rmssd_ms,vo2max,sleep_min,in_bed_min,workouts,workout_min
            2025-04-01,4201,3036,169,2100,7,78.7,52,98,,23.3,,406,465,1,20
            2025-04-02,,21830,765,,10,,,,55.0,,43.5,,,,

            """
        let outcome = try Self.read(text)
        let first = try #require(outcome.day("2025-04-01"))
        let expected: [(MetricColumn, Double)] = [
            (.steps, 4201), (.distanceMetres, 3036), (.activeKilocalories, 169), (.totalKilocalories, 2100), (.flights, 7),
            (.heartRateAverage, 78.7), (.heartRateMinimum, 52), (.heartRateMaximum, 98), (.heartRateVariabilityRMSSD, 23.3),
            (.sleepMinutes, 406), (.inBedMinutes, 465), (.workouts, 1), (.workoutMinutes, 20),
        ]
        for (column, value) in expected { #expect(first[column] == value, "\(column.name)") }
        #expect(first[.restingHeartRate] == nil)
        let second = try #require(outcome.day("2025-04-02"))
        #expect(second[.steps] == nil)
        #expect(second[.distanceMetres] == 21830 && second[.restingHeartRate] == 55 && second[.vo2Max] == 43.5)
        #expect(outcome.statistics.layout == .dailyTotals)
        #expect(outcome.statistics.emptyCounts == 1)
    }

    /// A day-value CSV needs no steps column, and its source column names the source.
    @Test func aDayValueCSVWithoutStepsAndWithASource() throws {
        let text = "day,source,distance_m,hr_avg\n2024-02-01,com.watch,5000,61.24\n2024-02-01,com.phone,4000,\n"
        let outcome = try Self.read(text)
        #expect(outcome.day("2024-02-01")?[.distanceMetres] == 5000)
        #expect(outcome.day("2024-02-01")?[.heartRateAverage] == 61.2)
        let distance = outcome.values.filter { $0.column == .distanceMetres }
        #expect(distance.map(\.source) == ["com.watch", "com.phone"])
        #expect(distance.map(\.standing) == [.winner, .other])
    }

    /// Only the metrics asked for are read; with steps alone no metric cell is looked at, not even a bad one.
    @Test func onlyTheMetricsAskedForAreRead() throws {
        let text = "date,steps,distance_m,hr_avg\n2024-02-01,100,oops,61\n"
        #expect(Self.failure(text) != nil)
        let steps = try Self.read(text, metrics: .steps)
        #expect(steps.days.map { $0[.steps] } == [100])
        #expect(steps.statistics.metricValues == 0)
        let heart = try Self.read(text, metrics: MetricSet([.heartRate]))
        #expect(heart.day("2024-02-01")?[.heartRateAverage] == 61)
        #expect(heart.day("2024-02-01")?[.distanceMetres] == nil)
    }

    @Test func aBadValueCellNamesItsFieldAndIsSkippedUnderSkip() throws {
        let text = "date,steps,distance_m\n2024-02-01,100,-5\n2024-02-02,200,12\n"
        let failure = try #require(Self.failure(text))
        #expect(failure.line == 2 && failure.column == 3)
        #expect(failure.message.contains("field 3 (\"distance_m\"): \"-5\" is not a non-negative number"), "\(failure.message)")
        let skipped = try Self.read(text, policy: .skip)
        #expect(skipped.statistics.skipped.count == 1)
        #expect(skipped.day("2024-02-01")?[.steps] == 100)
        #expect(skipped.day("2024-02-02")?[.distanceMetres] == 12)
    }

    /// A sampled value outside its plausible range is left out and counted; the next source may give the day.
    @Test func anImplausibleDayValueIsLeftOut() throws {
        let text = "date,source,hr_avg,hr_max\n2024-02-01,a,300,310\n2024-02-01,b,70,120\n"
        let outcome = try Self.read(text)
        #expect(outcome.day("2024-02-01")?[.heartRateAverage] == 70)
        #expect(outcome.day("2024-02-01")?[.heartRateMaximum] == 120)
        #expect(outcome.aggregator.statistics(of: .heartRate).leftOut == 2)
    }

    // MARK: - Records with a metric column

    static let records = """
        start,end,metric,value,origin,zone_offset
        2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,Distance,1200.4,com.watch,3600
        2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,distance,900,com.phone,3600
        2024-03-01T08:00:00Z,2024-03-01T08:30:00Z,Steps,500,com.phone,3600
        2024-03-01T08:00:00Z,,HeartRate,60,com.watch,3600
        2024-03-01T08:05:00Z,2024-03-01T08:05:00Z,heart-rate,80,com.watch,3600
        2024-03-01T22:00:00Z,2024-03-02T05:30:00Z,sleep,,com.watch,3600
        2024-03-01T21:45:00Z,2024-03-02T05:45:00Z,in-bed,,com.watch,3600
        2024-03-01T17:00:00Z,2024-03-01T17:45:00Z,ExerciseSessionRecord,,com.watch,3600
        2024-03-01T06:00:00Z,,RestingHeartRate,51.5,com.watch,3600
        2024-03-01T06:00:00Z,2024-03-01T07:00:00Z,TotalCaloriesBurned,90.5,com.watch,3600

        """

    @Test func recordsOfEachMetricByName() throws {
        let outcome = try Self.read(Self.records)
        let day = try #require(outcome.day("2024-03-01"))
        #expect(day[.distanceMetres] == 1200)
        #expect(day[.steps] == 500)
        #expect(day[.heartRateAverage] == 70 && day[.heartRateMinimum] == 60 && day[.heartRateMaximum] == 80)
        #expect(day[.workouts] == 1 && day[.workoutMinutes] == 45)
        #expect(day[.restingHeartRate] == 51.5)
        #expect(day[.totalKilocalories] == 91)
        #expect(day[.activeKilocalories] == nil)
        // The night ends on the 2nd (in +01:00): sleep and in bed count there.
        let morning = try #require(outcome.day("2024-03-02"))
        #expect(morning[.sleepMinutes] == 450 && morning[.inBedMinutes] == 480)
        #expect(outcome.statistics.samples == 1)
        #expect(outcome.statistics.metricValues == 9)
    }

    @Test func recordsOfMetricsNotAskedForAreCountedNotRead() throws {
        let outcome = try Self.read(Self.records, metrics: .steps)
        #expect(outcome.days.map { $0[.steps] } == [500])
        #expect(outcome.statistics.otherMetricRows == 9)
        #expect(outcome.statistics.metricValues == 0)
    }

    /// A dump of every record type has types no metric reads: left out, counted and named, not an error.
    @Test func aTypeNoMetricReadsIsLeftOutAndNamed() throws {
        var text = "start,end,type,value\n2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,Distance,1200\n"
        for type in ["Weight", "Height", "Weight", "BloodPressure", "Hydration", "BodyFat", "Nutrition"] {
            text += "2024-03-01T06:00:00Z,2024-03-01T06:00:00Z,\(type),80\n"
        }
        let outcome = try Self.read(text)
        #expect(outcome.day("2024-03-01")?[.distanceMetres] == 1200)
        #expect(outcome.statistics.otherTypeRows == 7)
        #expect(outcome.statistics.otherTypes == ["Weight", "Height", "BloodPressure", "Hydration", "BodyFat"])
        var summary = ImportSummary()
        let parser = RecordCSVParser(sink: MetricAggregator(metrics: .steps, rule: .recordedOffset), metrics: .steps)
        try parser.feedAll(Array(text.utf8), chunk: 1 << 16)
        parser.summarize(into: &summary, at: InputLocation(path: "dump.csv"))
        #expect(summary.notes.contains { if case .fact(let text) = $0 { text.contains("7 records of types no metric reads left out (\"Weight\", \"Height\"") } else { false } },
                "\(summary.notes)")
    }

    /// 1e19 in a metric row is refused as that metric's record, not worded as steps.
    @Test func aValueBeyondTheBoundIsAnInvalidRecordOfItsMetric() throws {
        let failure = try #require(Self.failure("start,end,metric,value\n2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,distance,1e19\n"))
        #expect(failure.line == 2 && failure.column == 4)
        #expect(failure.record == "distance record")
        #expect(failure.message.contains("\"1e19\" is more than one record can hold"), "\(failure.message)")
        #expect(!failure.message.contains("steps"))
    }

    @Test func aSummedRecordNeedsItsValueAndItsEnd() throws {
        let text = "start,end,metric,value\n2024-03-01T08:00:00Z,,distance,80\n"
        let failure = try #require(Self.failure(text))
        #expect(failure.column == 2, "\(failure.message)")
        let empty = try Self.read("start,end,metric,value\n2024-03-01T08:00:00Z,2024-03-01T09:00:00Z,distance,\n")
        #expect(empty.days.isEmpty && empty.statistics.emptyCounts == 1)
    }

    // MARK: - Google Fit Takeout

    static let fitSummary = """
        Date,Calories (kcal),Distance (m),Average heart rate (bpm),Max heart rate (bpm),Min heart rate (bpm),Step count,Move Minutes count,Heart Points,Sleep duration (ms),Light sleeping duration (ms),Deep sleeping duration (ms),Awake mid-sleeping duration (ms),Average weight (kg)
        2019-01-01,1800.5,4000.5,72.25,150.0,48.0,6000,40,12.0,,3600000,1800000,600000,80.1
        2019-01-02,1700,,,,,,,,3420000,,,,

        """

    @Test func theDailySummaryGivesEachColumnAsFitsDay() throws {
        let outcome = try Self.read(Self.fitSummary)
        let first = try #require(outcome.day("2019-01-01"))
        #expect(first[.steps] == 6000 && first[.totalKilocalories] == 1801 && first[.distanceMetres] == 4001)
        #expect(first[.heartRateAverage] == 72.3 && first[.heartRateMinimum] == 48 && first[.heartRateMaximum] == 150)
        #expect(first[.moveMinutes] == 40 && first[.heartPoints] == 12)
        // Light and deep sleep, not the awake time: 90 minutes.
        #expect(first[.sleepMinutes] == 90)
        #expect(first[.activeKilocalories] == nil)
        #expect(outcome.day("2019-01-02")?[.sleepMinutes] == 57)
        #expect(outcome.day("2019-01-02")?[.totalKilocalories] == 1700)
        #expect(outcome.values.allSatisfy { $0.source == "Google Fit" })
        #expect(outcome.statistics.unreadColumns == ["Awake mid-sleeping duration (ms)", "Average weight (kg)"])
    }

    static let fitBuckets = """
        Start time,End time,Calories (kcal),Distance (m),Average heart rate (bpm),Max heart rate (bpm),Min heart rate (bpm),Step count
        00:00:00.000+01:00,00:15:00.000+01:00,14.5,,,,,
        08:00:00.000+01:00,08:15:00.000+01:00,20.25,800.5,90,120,70,1000
        08:15:00.000+01:00,08:30:00.000+01:00,20.25,,100,140,80,
        23:45:00.000+01:00,00:00:00.000+01:00,14.5,,,,,

        """

    @Test func thePerDayBucketsSumAndTheirHeartRateIsTheFilesDay() throws {
        let outcome = try Self.read(Self.fitBuckets, fileName: "Takeout/Fit/Daily activity metrics/2019-03-09.csv")
        #expect(outcome.days.count == 1)
        let day = try #require(outcome.day("2019-03-09"))
        #expect(day[.steps] == 1000 && day[.distanceMetres] == 801 && day[.totalKilocalories] == 70)
        #expect(day[.heartRateAverage] == 95 && day[.heartRateMinimum] == 70 && day[.heartRateMaximum] == 140)
        #expect(outcome.statistics.emptyCounts == 3)
    }

    /// A row with metric cells needs its date even when its step cell is empty.
    @Test func aBadDateOfARowWithOnlyMetricCellsIsAnError() throws {
        let text = "Date,Calories (kcal),Step count\n2019-13-01,1800,\n"
        let failure = try #require(Self.failure(text))
        #expect(failure.column == 1, "\(failure.message)")
        // Steps alone never look at that row.
        #expect(Self.failure(text, metrics: .steps) == nil)
    }
}
