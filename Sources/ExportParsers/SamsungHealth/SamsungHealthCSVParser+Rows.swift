import HealthDays
import StreamingText

extension SamsungHealthCSVParser {
    static let dayMs: Int64 = 86_400_000

    // MARK: - step_daily_trend

    /// One source's total of one day: its `day_time` names the local date.
    func dayTrendRow(_ record: CSVRecord) throws(ParseFailure) {
        let dayCell = RecordCSVParser.trimmed(record[columns.dayTime])
        guard let date = Self.day(dayCell) else {
            return try reject(record, field: columns.dayTime + 1,
                              "\(describe(record, field: columns.dayTime)) is neither epoch milliseconds at a UTC midnight "
                                  + "(1764806400000) nor a date (2018-11-28 00:00:00.000)")
        }
        guard let steps = try count(record) else { return }
        if let problem = SampleLimits.problem(inDayTotal: date, steps: steps) {
            let isDate = problem == .dateOutOfRange
            return try reject(record, field: (isDate ? columns.dayTime : columns.count) + 1,
                              problem.message(steps: describe(record, field: columns.count),
                                              start: "\(describe(record, field: columns.dayTime)) (\(date))",
                                              end: describe(record, field: columns.dayTime)))
        }
        let typeCell = RecordCSVParser.trimmed(record[columns.sourceType])
        guard let type = Self.wholeNumber(typeCell) else {
            return try reject(record, field: columns.sourceType + 1,
                              "\(describe(record, field: columns.sourceType)) is not a whole number")
        }
        if type == SamsungHealthSources.combinedType {
            if let earlier = combinedDays[date.daysSinceEpoch] {
                guard earlier.steps == steps else {
                    return try reject(record, field: columns.count + 1,
                                      "a second combined (source_type -2) row for \(date): \(describe(record, field: columns.count)), "
                                          + "where line \(earlier.line) has \(Self.written(earlier.steps)): "
                                          + "which is Samsung Health's total of the day is unclear")
                }
            } else {
                combinedDays[date.daysSinceEpoch] = (steps, record.line)
            }
            statistics.combinedDayTotals += 1
        }
        var distance: Double?
        if columns.distance >= 0 {
            distance = try metricValue(record, columns.distance, metric: .distance)
        }
        let device = RecordCSVParser.trimmed(record[columns.device])
        statistics.dayTotals += 1
        sources.withName(type: type, device: device) { name in
            sink.addDayTotal(date, steps: steps, sourceUTF8: name)
            if let distance {
                sink.addDayValue(date, of: .distanceMetres, value: distance, sourceUTF8: name)
            }
        }
        if distance != nil { statistics.distanceValues += 1 }
    }

    /// A `day_time`: epoch milliseconds at a UTC midnight, or a date written as text with a time
    /// of midnight (`2018-11-28 00:00:00.000`) or none; nil for anything else.
    static func day(_ cell: UnsafeRawBufferPointer) -> LocalDate? {
        if let ms = RecordCSVParser.epochMilliseconds(cell) {
            guard ms % dayMs == 0, let days = Int32(exactly: ms / dayMs) else { return nil }
            return LocalDate(daysSinceEpoch: days)
        }
        if let date = LocalDate(cell) { return date }
        guard let time = Timestamp.parse(cell), time.offset == nil || time.offset == 0,
              time.ms % dayMs == 0, let days = Int32(exactly: time.ms / dayMs)
        else { return nil }
        return LocalDate(daysSinceEpoch: days)
    }

    /// A count as a message writes it: whole numbers without a fraction.
    static func written(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
    }

    /// An optional sign and up to nine digits.
    static func wholeNumber(_ cell: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let negative = cell.first == UInt8(ascii: "-")
        if negative || cell.first == UInt8(ascii: "+") { index = 1 }
        guard index < cell.count, cell.count - index <= 9 else { return nil }
        var value = 0
        while index < cell.count {
            let digit = Int(cell[index]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
            index += 1
        }
        return negative ? -value : value
    }

    // MARK: - tracker.pedometer_step_count

    /// One device's steps of one bin (a minute), placed by its own offset.
    func minuteBinRow(_ record: CSVRecord) throws(ParseFailure) {
        guard let start = try time(record, columns.start), let end = try time(record, columns.end) else { return }
        var offset: Int32?
        if columns.timeOffset >= 0 {
            let offsetCell = RecordCSVParser.trimmed(record[columns.timeOffset])
            if !offsetCell.isEmpty {
                guard let seconds = Self.timeOffset(offsetCell) else {
                    return try reject(record, field: columns.timeOffset + 1,
                                      "\(describe(record, field: columns.timeOffset)) is not an offset such as UTC-0300 or UTC+0530")
                }
                offset = seconds
            }
        }
        guard end >= start else {
            return try reject(record, field: columns.end + 1,
                              "\(describe(record, field: columns.end)) is before \(describe(record, field: columns.start))")
        }
        guard let steps = try count(record) else { return }
        var sample = HealthSample(startMs: start, endMs: end, offsetSeconds: offset, value: steps)
        if let problem = SampleLimits.problem(in: sample) {
            let column: Int
            switch problem {
            case .stepsNotANumber, .tooManySteps, .negativeSteps: column = columns.count
            case .startOutOfRange, .dateOutOfRange: column = columns.start
            case .endOutOfRange, .spanTooLong: column = columns.end
            case .offsetOutOfRange: column = columns.timeOffset
            }
            return try reject(record, field: column + 1,
                              problem.message(steps: describe(record, field: columns.count),
                                              start: describe(record, field: columns.start),
                                              end: describe(record, field: columns.end),
                                              offset: columns.timeOffset >= 0 ? describe(record, field: columns.timeOffset) : ""))
        }
        var distance: Double?
        if columns.distance >= 0 {
            distance = try metricValue(record, columns.distance, metric: .distance)
        }
        if offset == nil { statistics.withoutOffset += 1 }
        statistics.samples += 1
        let device = RecordCSVParser.trimmed(record[columns.device])
        sources.withName(type: nil, device: device) { name in
            sink.add(sample, sourceUTF8: name)
            if let distance {
                sample.value = distance
                sink.add(sample, of: .distance, sourceUTF8: name)
            }
        }
        if distance != nil { statistics.distanceValues += 1 }
    }

    /// A bin's time: UTC written as text (`2025-12-04 19:54:00.000`), or epoch milliseconds; nil
    /// when the row was rejected.
    private func time(_ record: CSVRecord, _ column: Int) throws(ParseFailure) -> Int64? {
        let cell = RecordCSVParser.trimmed(record[column])
        if let ms = RecordCSVParser.epochMilliseconds(cell) { return ms }
        if let time = Timestamp.parse(cell) { return time.ms }
        try reject(record, field: column + 1,
                   "\(describe(record, field: column)) is not a UTC time (2025-12-04 19:54:00.000) or epoch milliseconds")
        return nil
    }

    /// `UTC-0300`, `UTC+0530` (also `UTC+05:30`, and `UTC` alone): seconds east of UTC; nil otherwise.
    static func timeOffset(_ cell: UnsafeRawBufferPointer) -> Int32? {
        guard cell.count >= 3, cell[0] == UInt8(ascii: "U"), cell[1] == UInt8(ascii: "T"), cell[2] == UInt8(ascii: "C")
        else { return nil }
        if cell.count == 3 { return 0 }
        let written = UnsafeRawBufferPointer(rebasing: cell[3...])
        // Two digits of hours are needed: `+3` alone is no offset.
        guard written.count == 5 || written.count == 6 else { return nil }
        return UTCOffset.parse(written)
    }

    // MARK: - Values

    /// The row's `count`: a non-negative number; nil when the row was rejected.
    private func count(_ record: CSVRecord) throws(ParseFailure) -> Double? {
        let cell = RecordCSVParser.trimmed(record[columns.count])
        guard let steps = DecimalNumber.parse(cell), steps >= 0 else {
            try reject(record, field: columns.count + 1,
                       cell.isEmpty ? "\(describe(field: columns.count)) is empty"
                           : "\(describe(record, field: columns.count)) is not a non-negative number")
            return nil
        }
        return steps
    }

    /// A metric cell (metres of distance): nil when empty, or when rejected (not a non-negative
    /// number, or more than one value may hold).
    private func metricValue(_ record: CSVRecord, _ column: Int, metric: Metric) throws(ParseFailure) -> Double? {
        let cell = RecordCSVParser.trimmed(record[column])
        if cell.isEmpty { return nil }
        guard let value = DecimalNumber.parse(cell), value >= 0 else {
            try reject(record, field: column + 1, "\(describe(record, field: column)) is not a non-negative number", metric: metric)
            return nil
        }
        guard value <= SampleLimits.maximumSteps else {
            try reject(record, field: column + 1,
                       "\(describe(record, field: column)) is more than one value may hold (1,000,000)", metric: metric)
            return nil
        }
        return value
    }
}
