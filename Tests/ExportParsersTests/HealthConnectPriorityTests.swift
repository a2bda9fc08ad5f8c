import Foundation
import Testing
@testable import ExportParsers
import HealthDays
import TestSupport

/// `--rule hc-priority` on hand-built databases: the stored list, last_modified_time and the
/// start order come from the reader; each total is worked out by hand.
@Suite struct HealthConnectPriorityTests {
    private let hour: Int64 = 3_600_000
    private let minute: Int64 = 60_000

    /// Reads `rows` written with `priority` into a `PriorityDayAggregator`.
    private func read(_ rows: [DatabaseBuilder.Row], priority: String?, given: [String]? = nil,
                      rule: ZoneRule = .recordedOffset) throws -> PriorityDayAggregator {
        let folder = ScratchFolder()
        let path = folder.file("health_connect_export.db")
        var builder = DatabaseBuilder()
        builder.priority = priority
        try builder.write(rows, to: path)
        let aggregator = PriorityDayAggregator(rule: rule, priority: given)
        _ = try HealthConnectDatabase(path: path, location: InputLocation(path: path)).read(into: aggregator)
        try aggregator.finish()
        return aggregator
    }

    // Apps: 1 android, 2 com.android.healthconnect.phone.steps (android too), 3 fitness, 4 shealth.

    @Test func theStoredListDecidesEachSlice() throws {
        let eight = utcMs(2026, 3, 1, 8)
        let rows: [DatabaseBuilder.Row] = [
            .init(eight + hour, eight + 2 * hour, offset: 0, count: "1000", app: 4),
            .init(eight + 90 * minute, eight + 150 * minute, offset: 0, count: "1200", app: 1),
            .init(eight, eight + hour, offset: 0, count: "700", app: 3),
        ]
        // shealth > android > fitness: 08-09 fitness 700; 09-10 shealth 1000; 10:00-10:30 android 600.
        let aggregator = try read(rows, priority: "4,1,3")
        #expect(aggregator.dayTotals().pairs == ["2026-03-01=2300"])
        #expect(aggregator.storedPriority == ["com.sec.android.app.shealth", "android", "com.google.android.apps.fitness"])
        // fitness absent: it counts nothing and is named.
        let withoutFitness = try read(rows, priority: "4,1")
        #expect(withoutFitness.dayTotals().pairs == ["2026-03-01=1600"])
        #expect(withoutFitness.unlistedSources == [SourceRecordCount(source: "com.google.android.apps.fitness", records: 1)])
        // android first: 08-09 fitness 700; 09:00-09:30 shealth 500; 09:30-10:30 android 1200.
        #expect(try read(rows, priority: "4,1,3", given: ["android", "com.sec.android.app.shealth", "com.google.android.apps.fitness"])
            .dayTotals().pairs == ["2026-03-01=2400"])
    }

    @Test func thePhonesTwoNamesTakeThePlaceOfTheFirst() throws {
        let nine = utcMs(2026, 3, 1, 9)
        let rows: [DatabaseBuilder.Row] = [
            .init(nine, nine + hour, offset: 0, count: "800", app: 2),
            .init(nine, nine + hour, offset: 0, count: "500", app: 4),
        ]
        // "2,4,1": the phone (by its new name) first, so android's 800.
        let aggregator = try read(rows, priority: "2,4,1")
        #expect(aggregator.storedPriority == ["android", "com.sec.android.app.shealth"])
        #expect(aggregator.dayTotals().pairs == ["2026-03-01=800"])
    }

    @Test func lastModifiedTimeBreaksTiesWithinAnApp() throws {
        let nine = utcMs(2026, 3, 1, 9)
        // A 09:00-10:00 600, B 09:30-10:30 900, both android. A modified later: 600 + B's last half 450.
        let rows: [DatabaseBuilder.Row] = [
            .init(nine, nine + hour, offset: 0, count: "600", app: 1, modified: nine + 5 * hour),
            .init(nine + 30 * minute, nine + 90 * minute, offset: 0, count: "900", app: 2, modified: nine + 4 * hour),
        ]
        #expect(try read(rows, priority: "1").dayTotals().pairs == ["2026-03-01=1050"])
        var swapped = rows
        swapped[0].modified = nine + 3 * hour
        // B later: A's first half 300, then B 900.
        #expect(try read(swapped, priority: "1").dayTotals().pairs == ["2026-03-01=1200"])
    }

    @Test func zeroLengthRowsAndMidnightAndSeveralDays() throws {
        let day1 = utcMs(2026, 3, 1, 22)
        let rows: [DatabaseBuilder.Row] = [
            // 23:00-02:00 local (+01:00), 900 from shealth: 300 on the 1st, 600 on the 2nd.
            .init(day1, day1 + 3 * hour, offset: 3600, count: "900", app: 4),
            // Zero length under the higher shealth record: nothing. Alone on the 3rd: whole.
            .init(day1 + hour, day1 + hour, offset: 3600, count: "50", app: 1),
            .init(day1 + 30 * hour, day1 + 30 * hour, offset: 3600, count: "77", app: 1),
        ]
        let aggregator = try read(rows, priority: "4,1")
        #expect(aggregator.dayTotals().pairs == ["2026-03-01=300", "2026-03-02=600", "2026-03-03=77"])
        #expect(aggregator.statistics.zeroLength == 2)
    }

    @Test func noStoredListIsAnErrorUnlessOneIsGiven() throws {
        let nine = utcMs(2026, 3, 1, 9)
        let rows: [DatabaseBuilder.Row] = [.init(nine, nine + hour, offset: 0, count: "800", app: 1)]
        #expect(throws: ExportError.noPriorityList(inputHasPlace: true)) { try read(rows, priority: nil) }
        #expect(try read(rows, priority: nil, given: ["android"]).dayTotals().pairs == ["2026-03-01=800"])
    }

    @Test func aPlainSinkReadsAsBefore() throws {
        let folder = ScratchFolder()
        let path = folder.file("health_connect_export.db")
        let nine = utcMs(2026, 3, 1, 9)
        // Written out of time order: a plain read keeps row order; the priority read gets start order.
        try DatabaseBuilder().write([.init(nine + hour, nine + 2 * hour, offset: 0, count: "2", app: 1),
                                     .init(nine, nine + hour, offset: 0, count: "1", app: 1)], to: path)
        let collector = SampleCollector()
        _ = try HealthConnectDatabase(path: path, location: InputLocation(path: path)).read(into: collector)
        #expect(collector.entries.map(\.sample.value) == [2, 1])
    }
}

/// react-native's `metadata.lastModifiedTime` breaks ties under `--rule hc-priority`; other reads never look at it.
@Suite struct HealthConnectJSONPriorityTests {
    /// A 09:00-10:00 600 and B 09:30-10:30 900, one app; A modified at `modifiedA`, B at 11:00.
    private func dump(modifiedA: String) -> [UInt8] {
        Array("""
            {"records":[
            {"startTime":"2024-03-01T09:00:00Z","endTime":"2024-03-01T10:00:00Z","count":600,
             "metadata":{"dataOrigin":"com.phone","lastModifiedTime":"\(modifiedA)"}},
            {"startTime":"2024-03-01T09:30:00Z","endTime":"2024-03-01T10:30:00Z","count":900,
             "metadata":{"lastModifiedTime":"2024-03-01T11:00:00Z","dataOrigin":"com.phone"}}
            ]}
            """.utf8)
    }

    private func total(_ bytes: [UInt8], chunk: Int) throws -> [String] {
        let aggregator = PriorityDayAggregator(rule: .recordedOffset, priority: ["com.phone"])
        try AppDumpJSONParser(sink: aggregator, invalidRecords: .fail).feedAll(bytes, chunk: chunk)
        try aggregator.finish()
        return aggregator.dayTotals().pairs
    }

    @Test(arguments: [1, 7, 4096]) func theRecordModifiedLastWins(chunk: Int) throws {
        // A later: A's 600, then B's last half 450. B later: A's first half 300, then B's 900.
        #expect(try total(dump(modifiedA: "2024-03-01T12:00:00Z"), chunk: chunk) == ["2024-03-01=1050"])
        #expect(try total(dump(modifiedA: "2024-03-01T10:45:00Z"), chunk: chunk) == ["2024-03-01=1200"])
        // Unreadable: no say in ties, so the later start (B) wins.
        #expect(try total(dump(modifiedA: "soon"), chunk: chunk) == ["2024-03-01=1200"])
    }

    @Test func aPlainReadIsUnchanged() throws {
        let collector = SampleCollector()
        try AppDumpJSONParser(sink: collector, invalidRecords: .fail).feedAll(dump(modifiedA: "soon"), chunk: 4096)
        #expect(collector.entries.map(\.sample.value) == [600, 900])
    }

    /// The metric tables under the rule: read in start order with their last_modified_time, each
    /// its own sweep over the stored ACTIVITY list; distance and energy are not cut.
    @Test func distanceEnergyAndFloorsFollowTheSameList() throws {
        let (hour, minute): (Int64, Int64) = (3_600_000, 60_000)
        let nine = utcMs(2026, 3, 1, 9)
        let noon = nine + 3 * hour
        let half = 30 * minute
        let sql = """
            INSERT INTO distance_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, distance, last_modified_time) VALUES
              (x'01', 2, \(noon + half), 0, \(noon + 3 * half), 0, 300, 10),
              (x'02', 1, \(noon), 0, \(noon + hour), 0, 100, 50),
              (x'03', 1, \(nine + half), 0, \(nine + 3 * half), 0, 600, 1),
              (x'04', 4, \(nine), 0, \(nine + hour), 0, 1000, 1);
            INSERT INTO active_calories_burned_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, energy, last_modified_time) VALUES
              (x'05', 4, \(nine), 0, \(nine + hour), 0, 250400, 1);
            INSERT INTO floors_climbed_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, floors, last_modified_time) VALUES
              (x'06', 3, \(nine), 0, \(nine + hour), 0, 7, 1);
            """
        let folder = ScratchFolder()
        let database = try HealthConnectDatabaseMetricTests.database(sql, in: folder)
        // The stored list of DatabaseBuilder is "4,1,3"; android first instead, fitness absent:
        let aggregator = PriorityMetricAggregator(metrics: MetricSet([.distance, .activeEnergy, .flights]), rule: .recordedOffset,
                                                  priority: ["android", "com.sec.android.app.shealth"])
        _ = try database.read(into: aggregator, metrics: MetricSet([.distance, .activeEnergy, .flights]))
        try aggregator.finish()
        // Distance: 09:00-09:30 shealth 1000 x 1/2 = 500; 09:30-10:30 android 600. At noon two
        // android rows (the phone's two names), the earlier modified later: 12:00-13:00 100, then
        // 13:00-13:30 300 x 1/2 = 150. 500 + 600 + 100 + 150 = 1350 m. (Were last_modified_time
        // not read, the later start would win from 12:30: 50 + 300 = 350, so 1450.)
        // Energy: 250,400 calories, 250.4 kcal, 250. Floors: fitness is absent, so nothing.
        let day = try #require(aggregator.days().first)
        #expect(aggregator.days().count == 1)
        #expect(day[.distanceMetres] == 1350)
        #expect(day[.activeKilocalories] == 250)
        #expect(day[.flights] == nil)
        #expect(aggregator.aggregator(of: .flights)?.unlistedSources
            == [SourceRecordCount(source: "com.google.android.apps.fitness", records: 1)])
        #expect(aggregator.storedPriority == ["com.sec.android.app.shealth", "android", "com.google.android.apps.fitness"])
    }

    /// A metric record of a dump under the rule carries its lastModifiedTime too: A 09:00-10:00
    /// 600 m and B 09:30-10:30 900 m of one app; A modified later gives 600 + 450, B later 300 + 900.
    @Test(arguments: [1, 4096]) func aDistanceRecordModifiedLastWins(chunk: Int) throws {
        func dump(_ modifiedA: String) -> [UInt8] {
            Array("""
                {"Distance":[
                {"startTime":"2024-03-01T09:00:00Z","endTime":"2024-03-01T10:00:00Z","distance":{"inMeters":600},
                 "metadata":{"dataOrigin":"com.phone","lastModifiedTime":"\(modifiedA)"}},
                {"startTime":"2024-03-01T09:30:00Z","endTime":"2024-03-01T10:30:00Z","distance":{"inMeters":900},
                 "metadata":{"lastModifiedTime":"2024-03-01T11:00:00Z","dataOrigin":"com.phone"}}
                ]}
                """.utf8)
        }
        for (modified, metres) in [("2024-03-01T12:00:00Z", 1050.0), ("2024-03-01T10:45:00Z", 1200.0)] {
            let aggregator = PriorityMetricAggregator(metrics: MetricSet([.steps, .distance]), rule: .recordedOffset,
                                                      priority: ["com.phone"])
            try AppDumpJSONParser(sink: aggregator, invalidRecords: .fail, metrics: MetricSet([.steps, .distance]))
                .feedAll(dump(modified), chunk: chunk)
            try aggregator.finish()
            #expect(aggregator.days().map { $0[.distanceMetres] } == [metres])
        }
    }
}
