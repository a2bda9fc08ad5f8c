import HealthDays
import StreamingText
extension StepCSVParser {
    @inline(__always)
    private static var noBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The trimmed cell of an optional column; empty when the column is absent or the row too short.
    @inline(__always)
    private func optionalCell(_ record: CSVRecord, _ column: Int) -> UnsafeRawBufferPointer {
        column >= 0 && column < record.count ? Self.trimmed(record[column]) : Self.noBytes
    }

    private func timeProblem(_ column: Int, _ cell: UnsafeRawBufferPointer, expected: String) -> String {
        if cell.isEmpty {
            return "\(describe(field: column)) is empty"
        }
        if Self.isAllDigits(cell) && cell.count <= 11 {
            return "\(describe(field: column)): \(Self.quoted(cell)) is too small for epoch milliseconds "
                + "(before 1973): are these seconds? Write milliseconds or ISO 8601 times"
        }
        return "\(describe(field: column)): \(Self.quoted(cell)) is not \(expected)"
    }

    private static let isoOrEpoch = "a time (ISO 8601 such as 2024-05-01T08:00:00+02:00, or epoch milliseconds)"

    // MARK: - Step records

    /// start, end, count, [origin], [zone offset].
    func stepRecordRow(_ record: CSVRecord) throws(ParseFailure) {
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        let countCell = Self.trimmed(record[columns.count])
        if countCell.isEmpty {
            statistics.emptyCounts += 1
            return
        }
        let startCell = Self.trimmed(record[columns.start])
        guard let start = Self.moment(startCell) else {
            return try reject(record, field: columns.start + 1, timeProblem(columns.start, startCell, expected: Self.isoOrEpoch))
        }
        let endCell = Self.trimmed(record[columns.end])
        guard let end = Self.moment(endCell) else {
            return try reject(record, field: columns.end + 1, timeProblem(columns.end, endCell, expected: Self.isoOrEpoch))
        }
        guard start.isWallClock == end.isWallClock else {
            return try reject(record, field: columns.end + 1,
                              "\(describe(field: columns.start)) \(Self.quoted(startCell)) and \(describe(field: columns.end)) "
                                  + "\(Self.quoted(endCell)) differ: one has a UTC offset and the other none")
        }
        var zone: Int32? = nil
        let offsetCell = optionalCell(record, columns.offset)
        if !offsetCell.isEmpty {
            guard let seconds = Self.zoneOffset(offsetCell) else {
                return try reject(record, field: columns.offset + 1,
                                  "\(describe(field: columns.offset)): \(Self.quoted(offsetCell)) is not a UTC offset "
                                      + "(seconds east of UTC such as 3600, or ±hh:mm such as +01:00)")
            }
            zone = seconds
        }
        guard let steps = DecimalNumber.parse(countCell), steps >= 0 else {
            return try reject(record, field: columns.count + 1,
                              "\(describe(field: columns.count)): \(Self.quoted(countCell)) is not a non-negative number")
        }
        var sample: StepSample
        if start.isWallClock {
            if let zone {
                // A wall time with the record's own zone offset beside it is a time in that offset.
                let shift = Int64(zone) * 1000
                sample = StepSample(startMs: start.ms - shift, endMs: end.ms - shift, offsetSeconds: zone, value: steps)
            } else {
                sample = StepSample(startMs: start.ms, endMs: end.ms, offsetSeconds: nil, value: steps, wallClock: true)
            }
        } else {
            // The zone offset column is where the phone was; an offset in the time (often Z) only fixes the instant.
            sample = StepSample(startMs: start.ms, endMs: end.ms, offsetSeconds: zone ?? start.offset, value: steps)
        }
        guard sample.endMs >= sample.startMs else {
            return try reject(record, field: columns.end + 1,
                              "\(describe(field: columns.end)) \(Self.quoted(endCell)) is before "
                                  + "\(describe(field: columns.start)) \(Self.quoted(startCell))")
        }
        if let problem = SampleLimits.problem(in: sample) {
            return try rejectBeyondLimits(record, problem, offsetColumn: offsetCell.isEmpty ? nil : columns.offset)
        }
        deliver(sample, origin: optionalCell(record, columns.origin))
    }

    /// Rejects a sample that breaks `SampleLimits`, naming the field at fault (the offset's own
    /// column when the row has one, else the start time, whose offset it is).
    private func rejectBeyondLimits(_ record: CSVRecord, _ problem: SampleProblem, offsetColumn: Int?) throws(ParseFailure) {
        func cell(_ column: Int) -> String { "\(describe(field: column)): \(Self.quoted(Self.trimmed(record[column])))" }
        let column: Int
        switch problem {
        case .stepsNotANumber, .tooManySteps, .negativeSteps: column = columns.count
        case .startOutOfRange, .dateOutOfRange: column = columns.start
        case .endOutOfRange, .spanTooLong: column = columns.end
        case .offsetOutOfRange: column = offsetColumn ?? columns.start
        }
        try reject(record, field: column + 1,
                   problem.message(steps: cell(columns.count), start: cell(columns.start), end: cell(columns.end),
                                   offset: offsetColumn.map(cell) ?? "the offset of \(cell(columns.start))"))
    }

    // MARK: - Day totals

    /// date, steps, [source]; or Takeout's daily summary (Date, ..., Step count, ...).
    func dayTotalRow(_ record: CSVRecord, takeout: Bool) throws(ParseFailure) {
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        guard columns.count >= 0 else {
            statistics.emptyCounts += 1
            return
        }
        let stepsCell = Self.trimmed(record[columns.count])
        if stepsCell.isEmpty {
            statistics.emptyCounts += 1
            return
        }
        let dateCell = Self.trimmed(record[columns.date])
        guard let day = LocalDate(dateCell) else {
            return try reject(record, field: columns.date + 1,
                              dateCell.isEmpty ? "\(describe(field: columns.date)) is empty"
                                  : "\(describe(field: columns.date)): \(Self.quoted(dateCell)) is not a date (YYYY-MM-DD)")
        }
        guard let steps = DecimalNumber.parse(stepsCell), steps >= 0 else {
            return try reject(record, field: columns.count + 1,
                              "\(describe(field: columns.count)): \(Self.quoted(stepsCell)) is not a non-negative number")
        }
        if let problem = SampleLimits.problem(inDayTotal: day, steps: steps) {
            let isDate = problem == .dateOutOfRange
            let dateText = "\(describe(field: columns.date)): \(Self.quoted(dateCell))"
            return try reject(record, field: (isDate ? columns.date : columns.count) + 1,
                              problem.message(steps: "\(describe(field: columns.count)): \(Self.quoted(stepsCell))",
                                              start: dateText, end: dateText))
        }
        deliverDayTotal(day, steps: steps, source: takeout ? Self.noBytes : optionalCell(record, columns.origin),
                        takeout: takeout)
    }

    // MARK: - Takeout per-day buckets

    private static let timeOfDayForm = "a time of day (HH:mm:ss.SSS±hh:mm, as in 11:00:00.000+05:30)"

    /// A 15-minute bucket of a Takeout `YYYY-MM-DD.csv`: Start time, End time, ..., Step count.
    func takeoutBucketRow(_ record: CSVRecord) throws(ParseFailure) {
        if fileDate == nil, statistics.rows == 1, record.count > columns.start,
           Timestamp.parse(Self.trimmed(record[columns.start])) == nil {
            // Say so at once, whether or not this bucket has steps.
            throw missingFileDate(line: record.line)
        }
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        guard columns.count >= 0 else {
            statistics.emptyCounts += 1
            return
        }
        let countCell = Self.trimmed(record[columns.count])
        if countCell.isEmpty {
            statistics.emptyCounts += 1
            return
        }
        let startCell = Self.trimmed(record[columns.start])
        let endCell = Self.trimmed(record[columns.end])
        var sample: StepSample
        if let startTime = Self.timeOfDay(startCell) {
            guard let day = fileDate else { throw missingFileDate(line: record.line) }
            guard let endTime = Self.timeOfDay(endCell) else {
                return try reject(record, field: columns.end + 1, timeProblem(columns.end, endCell, expected: Self.timeOfDayForm))
            }
            // No overflow: any Int32 day is within ±1.9e17 ms, and a time of day and its offset
            // (two-digit fields) within ±4e8 ms; the sample's limits are checked below.
            let midnight = Int64(day.daysSinceEpoch) * 86_400_000
            let startOffset = startTime.offset
            let endOffset = endTime.offset ?? startOffset
            let startMs = midnight + startTime.ms - Int64(startOffset ?? 0) * 1000
            var endMs = midnight + endTime.ms - Int64(endOffset ?? 0) * 1000
            if endMs < startMs {
                // The last bucket, 23:45 to 00:00, ends on the next day.
                endMs += 86_400_000
            }
            sample = StepSample(startMs: startMs, endMs: endMs, offsetSeconds: startOffset, value: 0,
                                wallClock: startOffset == nil)
        } else if let start = Timestamp.parse(startCell) {
            // Full timestamps: the bucket dates itself.
            guard let end = Timestamp.parse(endCell), (end.offset == nil) == (start.offset == nil) else {
                return try reject(record, field: columns.end + 1,
                                  timeProblem(columns.end, endCell, expected: "a time of the same form as \(Self.quoted(startCell))"))
            }
            guard end.ms >= start.ms else {
                return try reject(record, field: columns.end + 1,
                                  "\(describe(field: columns.end)) \(Self.quoted(endCell)) is before "
                                      + "\(describe(field: columns.start)) \(Self.quoted(startCell))")
            }
            sample = StepSample(startMs: start.ms, endMs: end.ms, offsetSeconds: start.offset, value: 0,
                                wallClock: start.offset == nil)
        } else {
            return try reject(record, field: columns.start + 1, timeProblem(columns.start, startCell, expected: Self.timeOfDayForm))
        }
        // Fit counts a negative bucket (a correction) in its own totals, so it is read as written.
        guard let steps = DecimalNumber.parse(countCell) else {
            return try reject(record, field: columns.count + 1,
                              "\(describe(field: columns.count)): \(Self.quoted(countCell)) is not a number")
        }
        sample.value = steps
        if let problem = SampleLimits.problem(in: sample, negativeAllowed: true) {
            return try rejectBeyondLimits(record, problem, offsetColumn: nil)
        }
        deliverGoogleFit(sample)
    }
}
