import HealthDays
import StreamingText

/// Google Fit Takeout's CSVs (docs/formats.md): the daily summary (`Daily activity metrics.csv`,
/// `Daily Summaries.csv`) is read as day totals by the record CSV parser's day rows; the per-day
/// `YYYY-MM-DD.csv` files, whose date is only in their name, as 15-minute buckets here.
extension RecordCSVParser {
    /// Metric columns that only Google Fit's Takeout CSVs have.
    static let fitMetricNames: Set<String> = ["calories(kcal)", "distance(m)", "moveminutescount", "heartpoints", "heartminutes"]

    /// Google Fit's metric columns, by normalized header name (`Calories (kcal)` is Fit's calories
    /// expended, resting energy included: total energy, never active energy).
    static let fitValueColumns: [String: ValueTarget] = [
        "calories(kcal)": .column(.totalKilocalories, factor: 1),
        "distance(m)": .column(.distanceMetres, factor: 1),
        "moveminutescount": .column(.moveMinutes, factor: 1),
        "heartpoints": .column(.heartPoints, factor: 1),
        "averageheartrate(bpm)": .column(.heartRateAverage, factor: 1),
        "minheartrate(bpm)": .column(.heartRateMinimum, factor: 1),
        "maxheartrate(bpm)": .column(.heartRateMaximum, factor: 1),
        "sleepduration(ms)": .sleepMilliseconds,
        "lightsleepingduration(ms)": .sleepMilliseconds,
        "deepsleepingduration(ms)": .sleepMilliseconds,
        "remsleepingduration(ms)": .sleepMilliseconds,
    ]

    /// Google Fit's time of day, `HH:mm:ss[.fff][Z|±hh:mm|±hhmm|±hh]`: milliseconds since midnight
    /// and the offset (nil when none is written); nil when malformed.
    static func timeOfDay(_ cell: UnsafeRawBufferPointer) -> (ms: Int64, offset: Int32?)? {
        let count = cell.count
        guard count >= 8 else { return nil }
        func two(_ index: Int) -> Int? {
            let high = Int(cell[index]) &- 48, low = Int(cell[index + 1]) &- 48
            guard high >= 0, high <= 9, low >= 0, low <= 9 else { return nil }
            return high * 10 + low
        }
        guard let hour = two(0), cell[2] == 0x3A, let minute = two(3), cell[5] == 0x3A, let second = two(6),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 8
        var millis = 0
        if index < count, cell[index] == 0x2E {
            index += 1
            var scale = 100
            let fractionStart = index
            while index < count, cell[index] >= 0x30, cell[index] <= 0x39 {
                millis += Int(cell[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        let ms = Int64((hour * 3600 + minute * 60 + second) * 1000 + millis)
        if index == count { return (ms, nil) }
        guard let offset = UTCOffset.parse(UnsafeRawBufferPointer(rebasing: cell[index...]), lowercaseZ: true) else {
            return nil
        }
        return (ms, offset)
    }

    /// The date a file name gives, at the start or the end of its last component without `.csv`
    /// (`.../2025-02-02.csv`, `2025-02-02 (1).csv`, `takeout-2025-02-02.csv`); nil when none.
    static func date(inFileName name: String) -> LocalDate? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? name
        var stem = Array(last.utf8)
        if stem.count > 4, String(decoding: stem.suffix(4), as: UTF8.self).lowercased() == ".csv" {
            stem.removeLast(4)
        }
        guard stem.count >= 10 else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        return stem.withUnsafeBytes { stem -> LocalDate? in
            // Not a date that runs on into more digits, as in `2025-02-023`.
            if stem.count == 10 || !isDigit(stem[10]), let date = LocalDate(stem[0..<10]) {
                return date
            }
            let tail = stem.count - 10
            if tail == 0 || !isDigit(stem[tail - 1]) {
                return LocalDate(stem[tail...])
            }
            return nil
        }
    }

    /// The error for a per-day Takeout file whose name gives no date.
    func missingFileDate(line: Int) -> ParseFailure {
        let named = fileName.map { "it is named \(Self.quoted($0))" } ?? "it came without a name (standard input?)"
        return ParseFailure(
            kind: .wrongKind, line: line, column: 0,
            message: "a Google Fit Takeout per-day CSV (Start time, End time, Step count), whose times have no date: "
                + "the date is in the file's name, YYYY-MM-DD.csv, and \(named); read it under its Takeout name "
                + "(or read the whole Takeout, or its Daily activity metrics.csv)")
    }

    // MARK: - Per-day buckets

    private static let timeOfDayForm = "a time of day (HH:mm:ss.SSS±hh:mm, as in 11:00:00.000+05:30)"

    /// A 15-minute bucket of a Takeout `YYYY-MM-DD.csv`: Start time, End time, ..., Step count
    /// (and, with metrics asked for, the bucket's metric cells).
    func takeoutBucketRow(_ record: CSVRecord) throws(ParseFailure) {
        if fileDate == nil, statistics.rows == 1, record.count > columns.start,
           Timestamp.parse(Self.trimmed(record[columns.start])) == nil {
            // Say so at once, whether or not this bucket has steps.
            throw missingFileDate(line: record.line)
        }
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        let countCell = columns.count >= 0 ? Self.trimmed(record[columns.count]) : Self.noBytes
        if countCell.isEmpty {
            statistics.emptyCounts += 1
            guard !columns.values.isEmpty, hasValues(record) else { return }
        }
        guard var sample = try bucketInterval(record) else { return }
        if !countCell.isEmpty {
            // Fit counts a negative bucket (a correction) in its own totals, so it is read as written.
            guard let steps = DecimalNumber.parse(countCell) else {
                return try reject(record, field: columns.count + 1,
                                  "\(describe(field: columns.count)): \(Self.quoted(countCell)) is not a number")
            }
            sample.value = steps
        }
        if let problem = SampleLimits.problem(in: sample, negativeAllowed: true) {
            return try rejectBeyondLimits(record, problem, offsetColumn: nil)
        }
        if !countCell.isEmpty {
            deliverGoogleFit(sample)
        }
        if !columns.values.isEmpty {
            sample.value = 0
            try deliverBucketValues(record, sample)
        }
    }

    /// A bucket's interval, its value left 0: times of day on the file's date, or full timestamps.
    /// Nil when the row was rejected.
    private func bucketInterval(_ record: CSVRecord) throws(ParseFailure) -> HealthSample? {
        let startCell = Self.trimmed(record[columns.start])
        let endCell = Self.trimmed(record[columns.end])
        if let startTime = Self.timeOfDay(startCell) {
            guard let day = fileDate else { throw missingFileDate(line: record.line) }
            guard let endTime = Self.timeOfDay(endCell) else {
                try reject(record, field: columns.end + 1, timeProblem(columns.end, endCell, expected: Self.timeOfDayForm))
                return nil
            }
            // No overflow: any Int32 day is within ±1.9e17 ms, and a time of day and its offset
            // (two-digit fields) within ±4e8 ms; the sample's limits are checked by the caller.
            let midnight = Int64(day.daysSinceEpoch) * 86_400_000
            let startOffset = startTime.offset
            let endOffset = endTime.offset ?? startOffset
            let startMs = midnight + startTime.ms - Int64(startOffset ?? 0) * 1000
            var endMs = midnight + endTime.ms - Int64(endOffset ?? 0) * 1000
            if endMs < startMs {
                // The last bucket, 23:45 to 00:00, ends on the next day.
                endMs += 86_400_000
            }
            return HealthSample(startMs: startMs, endMs: endMs, offsetSeconds: startOffset, value: 0, wallClock: startOffset == nil)
        } else if let start = Timestamp.parse(startCell) {
            // Full timestamps: the bucket dates itself.
            guard let end = Timestamp.parse(endCell), (end.offset == nil) == (start.offset == nil) else {
                try reject(record, field: columns.end + 1,
                           timeProblem(columns.end, endCell, expected: "a time of the same form as \(Self.quoted(startCell))"))
                return nil
            }
            guard end.ms >= start.ms else {
                try reject(record, field: columns.end + 1,
                           "\(describe(field: columns.end)) \(Self.quoted(endCell)) is before "
                               + "\(describe(field: columns.start)) \(Self.quoted(startCell))")
                return nil
            }
            return HealthSample(startMs: start.ms, endMs: end.ms, offsetSeconds: start.offset, value: 0, wallClock: start.offset == nil)
        }
        try reject(record, field: columns.start + 1, timeProblem(columns.start, startCell, expected: Self.timeOfDayForm))
        return nil
    }

    /// The values of a Takeout 15-minute bucket: summed metrics as samples over the bucket, like
    /// its steps; heart rate and sleep gathered for the file's day (`deliverFileDay`).
    func deliverBucketValues(_ record: CSVRecord, _ bucket: HealthSample) throws(ParseFailure) {
        for column in columns.values {
            guard let number = try value(record, column) else { continue }
            switch column.target {
            case .column(let target, _) where target.metric.kind == .cumulative:
                var sample = bucket
                sample.value = number
                statistics.metricValues += 1
                Self.googleFit.withUnsafeBytes { sink.add(sample, of: target.metric, sourceUTF8: $0) }
            case .column(let target, _):
                fileDay.add(target, number)
            case .sleepMilliseconds:
                fileDay.sleepMinutes = (fileDay.sleepMinutes ?? 0) + number
            }
        }
    }

    /// Hands on a Takeout per-day file's heart rate and sleep as its day's values: the mean of its
    /// buckets' averages, the lowest minimum, the highest maximum, the sum of its sleep.
    func deliverFileDay() {
        guard let date = fileDate else { return }
        let day = fileDay
        let values: [(MetricColumn, Double?)] = [
            (.heartRateAverage, day.averages > 0 ? day.averageSum / Double(day.averages) : nil),
            (.heartRateMinimum, day.minimum), (.heartRateMaximum, day.maximum), (.sleepMinutes, day.sleepMinutes),
        ]
        for case let (column, value?) in values {
            deliverDayValue(date, column, value, source: Self.noValueBytes, takeout: true)
        }
    }

    private static var noValueBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    /// A per-day file's heart rate and sleep, gathered over its buckets.
    struct FileDay {
        var averageSum = 0.0
        var averages = 0
        var minimum: Double?
        var maximum: Double?
        var sleepMinutes: Double?

        mutating func add(_ column: MetricColumn, _ value: Double) {
            switch column {
            case .heartRateAverage:
                averageSum += value
                averages += 1
            case .heartRateMinimum: minimum = Swift.min(minimum ?? value, value)
            case .heartRateMaximum: maximum = Swift.max(maximum ?? value, value)
            default: break
            }
        }
    }
}
