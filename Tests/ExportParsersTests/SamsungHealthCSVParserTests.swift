import ExportParsers
import HealthDays
import StreamingText
import Testing
import TestSupport

@Suite struct SamsungHealthCSVParserTests {
    /// Records day totals, day values, samples and metric samples, each as one line of text.
    final class Recorder: RecordSink {
        var lines: [String] = []

        func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
            lines.append("sample \(sample.startMs)-\(sample.endMs) \(sample.offsetSeconds.map(String.init) ?? "nil") "
                + "\(sample.value) \(String(decoding: sourceUTF8, as: UTF8.self))")
        }

        func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
            lines.append("day \(date) \(steps) \(String(decoding: sourceUTF8, as: UTF8.self))")
        }

        func add(_ sample: HealthSample, of metric: Metric, sourceUTF8: UnsafeRawBufferPointer) {
            lines.append("\(metric.name) \(sample.startMs) \(sample.value) \(String(decoding: sourceUTF8, as: UTF8.self))")
        }

        func addDayValue(_ date: LocalDate, of column: MetricColumn, value: Double, sourceUTF8: UnsafeRawBufferPointer) {
            lines.append("\(column.name) \(date) \(value) \(String(decoding: sourceUTF8, as: UTF8.self))")
        }
    }

    static let trendHeader = "binning_data,update_time,create_time,source_pkg_name,source_type,count,speed,distance,"
        + "calorie,deviceuuid,pkg_name,datauuid,day_time"

    /// A `step_daily_trend` file: its metadata line, a header and `rows`, as the app writes them.
    static func trend(_ rows: [String], header: String = trendHeader, bom: Bool = true) -> String {
        (bom ? "\u{FEFF}" : "") + "com.samsung.shealth.step_daily_trend,6307003,6\n" + header + "\n"
            + rows.map { $0 + "\n" }.joined()
    }

    /// A row of `step_daily_trend` with these values.
    static func trendRow(type: String, count: String, device: String, day: String, distance: String = "100.5") -> String {
        "b.binning_data.json,2025-12-10 14:24:01.065,2025-12-10 14:24:01.065,com.sec.android.app.shealth,\(type),\(count),"
            + "1.38,\(distance),62.1,\(device),com.sec.android.app.shealth,uuid,\(day),"
    }

    static let binsHeader = "duration,version_code,run_step,walk_step,com.samsung.health.step_count.start_time,"
        + "com.samsung.health.step_count.count,com.samsung.health.step_count.distance,"
        + "com.samsung.health.step_count.time_offset,com.samsung.health.step_count.deviceuuid,"
        + "com.samsung.health.step_count.end_time"

    static func bins(_ rows: [String], header: String = binsHeader) -> String {
        "\u{FEFF}com.samsung.shealth.tracker.pedometer_step_count,6307003,2\n" + header + "\n" + rows.map { $0 + "\n" }.joined()
    }

    static func parse(_ text: String, layout: SamsungHealthCSVParser.Layout = .dayTrend,
                      encoding: SamsungHealthFile.Encoding = .utf8, bytes: [UInt8]? = nil, chunk: Int = 1 << 20,
                      policy: InvalidRecordPolicy = .fail,
                      metrics: MetricSet = .steps) throws(ParseFailure) -> (Recorder, SamsungHealthCSVParser) {
        let sink = Recorder()
        let parser = SamsungHealthCSVParser(sink: sink, layout: layout, encoding: encoding, invalidRecords: policy,
                                            metrics: metrics)
        try parser.feedAll(bytes ?? Array(text.utf8), chunk: chunk)
        return (sink, parser)
    }

    static let trendRows = [
        trendRow(type: "-2", count: "1930", device: "VfS0qUERdZ", day: "1764806400000"),
        trendRow(type: "0", count: "1500", device: "XLy3VBYEN4", day: "1764806400000"),
        trendRow(type: "102", count: "900", device: "60rRju/E5J", day: "1764806400000"),
        trendRow(type: "108", count: "12", device: "band", day: "2018-11-28 00:00:00.000"),
        trendRow(type: "0", count: "7", device: "", day: "2018-11-29"),
    ]

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func dayTotalsAreSourcesOfTheirOwnWhateverTheChunks(chunk: Int) throws {
        let (sink, parser) = try Self.parse(Self.trend(Self.trendRows + [",,,,,,,,,,,,,", ""]), chunk: chunk)
        #expect(sink.lines == [
            "day 2025-12-04 1930.0 Samsung Health",
            "day 2025-12-04 1500.0 Samsung Health (phone, XLy3VBYEN4)",
            "day 2025-12-04 900.0 Samsung Health (watch, 60rRju/E5J)",
            "day 2018-11-28 12.0 Samsung Health (device type 108, band)",
            "day 2018-11-29 7.0 Samsung Health (phone)",
        ])
        #expect(parser.statistics.dayTotals == 5 && parser.statistics.combinedDayTotals == 1)
        #expect(parser.statistics.blankRows == 1 && parser.statistics.rows == 5)
        #expect(parser.devicesRead == 4)
    }

    @Test func distanceIsReadWhenAskedFor() throws {
        let (sink, parser) = try Self.parse(Self.trend(Array(Self.trendRows.prefix(2))), metrics: MetricSet([.steps, .distance]))
        #expect(sink.lines == [
            "day 2025-12-04 1930.0 Samsung Health", "distance_m 2025-12-04 100.5 Samsung Health",
            "day 2025-12-04 1500.0 Samsung Health (phone, XLy3VBYEN4)", "distance_m 2025-12-04 100.5 Samsung Health (phone, XLy3VBYEN4)",
        ])
        #expect(parser.statistics.distanceValues == 2)
        let (stepsOnly, _) = try Self.parse(Self.trend(Array(Self.trendRows.prefix(2))))
        #expect(stepsOnly.lines.count == 2)
    }

    @Test func prefixedAndBareHeadersAreOne() throws {
        let prefixed = Self.trendHeader.split(separator: ",").map { "com.samsung.shealth.step_daily_trend." + $0 }
            .joined(separator: ",")
        let (bare, _) = try Self.parse(Self.trend(Self.trendRows))
        let (withPrefix, _) = try Self.parse(Self.trend(Self.trendRows, header: prefixed))
        #expect(withPrefix.lines == bare.lines)
    }

    @Test(arguments: [1, 3, 7, 1 << 20])
    func utf16IsReadLikeUTF8(chunk: Int) throws {
        let text = Self.trend(Self.trendRows)
        let (utf8, _) = try Self.parse(text)
        for order in [UTF16Transcoder.ByteOrder.littleEndian, .bigEndian] {
            let bytes = text.utf16.flatMap { unit -> [UInt8] in
                order == .littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            }
            let file = try #require(SamsungHealthFile(head: Array(bytes.prefix(4096))))
            #expect(file.encoding == .utf16(order) && file.kind == .dayTrend)
            let (utf16, _) = try Self.parse(text, encoding: file.encoding, bytes: bytes, chunk: chunk)
            #expect(utf16.lines == utf8.lines, "\(order)")
        }
    }

    @Test func minuteBinsArePlacedByTheirOwnOffset() throws {
        let rows = [
            "3571,4,0,8,2025-12-04 19:54:00.000,8,6.35,UTC-0300,9cX1oNetDs,2025-12-04 19:55:00.000,",
            "60,4,2,3,2025-12-04 20:00:00.000,5,2.5,UTC+0530,bvFPH0+ZC9,2025-12-04 20:01:00.000,",
            "60,4,2,3,1764878460000,5,,,bvFPH0+ZC9,1764878520000,",
        ]
        let (sink, parser) = try Self.parse(Self.bins(rows), layout: .minuteBins, metrics: MetricSet([.steps, .distance]))
        let start = utcMs(2025, 12, 4, 19, 54), second = utcMs(2025, 12, 4, 20), third = utcMs(2025, 12, 4, 20, 1)
        #expect(sink.lines == [
            "sample \(start)-\(start + 60_000) -10800 8.0 Samsung Health (device 9cX1oNetDs)",
            "distance \(start) 6.35 Samsung Health (device 9cX1oNetDs)",
            "sample \(second)-\(second + 60_000) 19800 5.0 Samsung Health (device bvFPH0+ZC9)",
            "distance \(second) 2.5 Samsung Health (device bvFPH0+ZC9)",
            "sample \(third)-\(third + 60_000) nil 5.0 Samsung Health (device bvFPH0+ZC9)",
        ])
        #expect(parser.statistics.samples == 3 && parser.statistics.withoutOffset == 1)
    }

    static let invalidTrendRows: [(row: String, column: Int, problem: String)] = [
        (trendRow(type: "-2", count: "12x", device: "D", day: "1764806400000"), 6,
         #"field 6 ("count"): "12x" is not a non-negative number"#),
        (trendRow(type: "-2", count: "", device: "D", day: "1764806400000"), 6, #"field 6 ("count") is empty"#),
        (trendRow(type: "-2", count: "-5", device: "D", day: "1764806400000"), 6,
         #"field 6 ("count"): "-5" is not a non-negative number"#),
        (trendRow(type: "-2", count: "1e19", device: "D", day: "1764806400000"), 6,
         #"field 6 ("count"): "1e19" is more steps than one record can hold (at most 1,000,000)"#),
        (trendRow(type: "-2", count: "5", device: "D", day: "1764806400001"), 13,
         #"field 13 ("day_time"): "1764806400001" is neither epoch milliseconds at a UTC midnight (1764806400000) nor a date (2018-11-28 00:00:00.000)"#),
        (trendRow(type: "-2", count: "5", device: "D", day: "2018-11-28 10:00:00.000"), 13,
         #"field 13 ("day_time"): "2018-11-28 10:00:00.000" is neither epoch milliseconds at a UTC midnight (1764806400000) nor a date (2018-11-28 00:00:00.000)"#),
        (trendRow(type: "-2", count: "5", device: "D", day: "2201-01-01"), 13,
         #"field 13 ("day_time"): "2201-01-01" (2201-01-01) is outside the years 1970 to 2200"#),
        (trendRow(type: "phone", count: "5", device: "D", day: "1764806400000"), 5,
         #"field 5 ("source_type"): "phone" is not a whole number"#),
        (String(trendRow(type: "-2", count: "5", device: "D", day: "1764806400000").dropLast()), 14,
         "the row has 13 fields where every row has 14: the header's 13 and an empty one after them (a trailing comma)"),
        ("a,b,c", 4, "the row has 3 fields where every row has 14: the header's 13 and an empty one after them (a trailing comma)"),
        (trendRow(type: "-2", count: "5", device: "D", day: "1764806400000") + "x", 14,
         #"field 14, after the last column, holds "x" where every row has an empty field (a trailing comma): a value holds a comma that is not quoted, and the fields stand under the wrong names"#),
        (trendRow(type: "-2", count: "1931", device: "D", day: "1764806400000"), 6,
         #"a second combined (source_type -2) row for 2025-12-04: field 6 ("count"): "1931", where line 3 has 1930: which is Samsung Health's total of the day is unclear"#),
    ]

    @Test(arguments: invalidTrendRows.indices)
    func anInvalidRowFailsWithItsPlaceAndProblem(_ index: Int) {
        let (row, column, problem) = Self.invalidTrendRows[index]
        let text = Self.trend([Self.trendRows[0], row])
        let offset = Int64(Array(Self.trend([Self.trendRows[0]]).utf8).count)
        #expect(throws: ParseFailure(kind: .invalidRecord, line: 4, column: column, byteOffset: offset, message: problem)) {
            _ = try Self.parse(text)
        }
    }

    @Test func underSkipTheInvalidRowsAreCountedAndTheOthersRead() throws {
        let rows = [Self.trendRows[0]] + Self.invalidTrendRows.map(\.row) + [Self.trendRows[1]]
        let (sink, parser) = try Self.parse(Self.trend(rows), policy: .skip)
        #expect(sink.lines == ["day 2025-12-04 1930.0 Samsung Health", "day 2025-12-04 1500.0 Samsung Health (phone, XLy3VBYEN4)"])
        #expect(parser.statistics.skipped.count == Self.invalidTrendRows.count)
        #expect(parser.statistics.skipped.examples.map(\.line) == [4, 5, 6, 7, 8])
    }

    @Test func theSameCombinedRowTwiceIsNoConflict() throws {
        let (sink, _) = try Self.parse(Self.trend([Self.trendRows[0], Self.trendRows[0]]))
        #expect(sink.lines.count == 2)
    }

    static let invalidBins: [(row: String, column: Int, problem: String)] = [
        ("1,4,0,8,2025-12-04 19:54:00,8,1,UTC-3,D,2025-12-04 19:55:00,", 8,
         #"field 8 ("com.samsung.health.step_count.time_offset"): "UTC-3" is not an offset such as UTC-0300 or UTC+0530"#),
        ("1,4,0,8,yesterday,8,1,UTC-0300,D,2025-12-04 19:55:00,", 5,
         #"field 5 ("com.samsung.health.step_count.start_time"): "yesterday" is not a UTC time (2025-12-04 19:54:00.000) or epoch milliseconds"#),
        ("1,4,0,8,2025-12-04 19:54:00,8,1,UTC-0300,D,2025-12-04 19:53:00,", 10,
         #"field 10 ("com.samsung.health.step_count.end_time"): "2025-12-04 19:53:00" is before field 5 ("com.samsung.health.step_count.start_time"): "2025-12-04 19:54:00""#),
        ("1,4,0,8,2025-12-04 19:54:00,8,1,UTC-0300,D,2026-01-14 19:55:00,", 10,
         #"field 5 ("com.samsung.health.step_count.start_time"): "2025-12-04 19:54:00" to field 10 ("com.samsung.health.step_count.end_time"): "2026-01-14 19:55:00" is longer than 31 days, the longest one record may span"#),
        ("1,4,0,8,2025-12-04 19:54:00,many,1,UTC-0300,D,2025-12-04 19:55:00,", 6,
         #"field 6 ("com.samsung.health.step_count.count"): "many" is not a non-negative number"#),
    ]

    @Test(arguments: invalidBins.indices)
    func anInvalidBinFailsWithItsPlaceAndProblem(_ index: Int) {
        let (row, column, problem) = Self.invalidBins[index]
        #expect(throws: ParseFailure(kind: .invalidRecord, line: 3, column: column,
                                     byteOffset: Int64(Array(Self.bins([]).utf8).count), message: problem)) {
            _ = try Self.parse(Self.bins([row]), layout: .minuteBins)
        }
    }

    @Test func aHeaderWithoutTheLayoutsColumnsIsAnInvalidRecord() throws {
        let text = Self.trend([Self.trendRows[0]], header: "binning_data,count,deviceuuid")
        var failure = ParseFailure(kind: .invalidRecord, line: 2, column: 1, byteOffset: 50, message:
            #"the header of Samsung Health's step_daily_trend lacks day_time, source_type (found "binning_data", "count", "deviceuuid"); it needs day_time, count, source_type, deviceuuid, with or without the type's prefix"#)
        failure.record = "header"
        #expect(throws: failure) { _ = try Self.parse(text) }
        let (sink, parser) = try Self.parse(text, policy: .skip)
        #expect(sink.lines.isEmpty && parser.statistics.rowsUnread == 1 && parser.statistics.skipped.count == 1)
    }

    @Test func anotherTypesFileIsRefusedAtLineOne() {
        let text = "com.samsung.shealth.activity.day_summary,6307003,6\n" + Self.trendHeader + "\n"
        #expect(throws: ParseFailure.self) { _ = try Self.parse(text) }
        #expect(throws: ParseFailure(kind: .wrongKind, line: 2, column: 0,
                                     message: "the file ends after its metadata line, without a header")) {
            _ = try Self.parse("com.samsung.shealth.step_daily_trend,1,2\n")
        }
    }

    @Test func aUTF16FailureHasNoByteOffset() throws {
        let text = Self.trend([Self.trendRows[0], Self.invalidTrendRows[0].row])
        let units = text.dropFirst().utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let bytes: [UInt8] = [0xFF, 0xFE] + units
        #expect(throws: ParseFailure(kind: .invalidRecord, line: 4, column: 6, byteOffset: nil,
                                     message: Self.invalidTrendRows[0].problem)) {
            _ = try Self.parse(text, encoding: .utf16(.littleEndian), bytes: bytes)
        }
    }
}

@Suite struct SamsungHealthFileTests {
    static func file(_ text: String) -> SamsungHealthFile? {
        SamsungHealthFile(head: Array(text.utf8))
    }

    @Test func theFirstLineNamesTheKind() {
        #expect(Self.file("\u{FEFF}com.samsung.shealth.step_daily_trend,6307003,6\nx")?.kind == .dayTrend)
        #expect(Self.file("com.samsung.shealth.tracker.pedometer_step_count,6307003,2\r\nx")?.kind == .minuteBins)
        #expect(Self.file("com.samsung.health.tracker.pedometer_day_summary,1,7\n")?.kind == .sameStepsAgain)
        #expect(Self.file("com.samsung.shealth.activity.day_summary,6307003,6,,,\n")?.kind == .sameStepsAgain)
        let other = Self.file("com.samsung.health.heart_rate,6307003,3\n")
        #expect(other?.kind == .other && other?.type == "heart_rate" && other?.encoding == .utf8)
    }

    @Test func anythingElseIsNotSamsungs() {
        for text in ["com.samsung.shealth.step_daily_trend,6307003,6", "com.samsung.shealth.step_daily_trend,6307003\n",
                     "com.samsung.shealth.,1,2\n", "com.samsung.shealth.Step,1,2\n", "com.samsung.other.step_daily_trend,1,2\n",
                     "date,steps\n2024-01-01,5\n", "com.samsung.shealth.step_daily_trend,1,2,x\n", ""] {
            #expect(Self.file(text) == nil, "\(text)")
        }
    }
}
