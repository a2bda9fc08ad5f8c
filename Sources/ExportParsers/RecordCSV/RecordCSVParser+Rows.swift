import HealthDays
import StreamingText
extension RecordCSVParser {
    @inline(__always)
    static var noBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The trimmed cell of an optional column; empty when the column is absent or the row too short.
    @inline(__always)
    func optionalCell(_ record: CSVRecord, _ column: Int) -> UnsafeRawBufferPointer {
        column >= 0 && column < record.count ? Self.trimmed(record[column]) : Self.noBytes
    }

    func timeProblem(_ column: Int, _ cell: UnsafeRawBufferPointer, expected: String) -> String {
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
        guard var sample = try recordInterval(record, endColumn: columns.end) else { return }
        guard let steps = DecimalNumber.parse(countCell), steps >= 0 else {
            return try reject(record, field: columns.count + 1,
                              "\(describe(field: columns.count)): \(Self.quoted(countCell)) is not a non-negative number")
        }
        sample.value = steps
        if let problem = SampleLimits.problem(in: sample) {
            let offsetCell = optionalCell(record, columns.offset)
            return try rejectBeyondLimits(record, problem, offsetColumn: offsetCell.isEmpty ? nil : columns.offset)
        }
        deliver(sample, origin: optionalCell(record, columns.origin))
    }

    /// The interval of a record row, from its start, its end (`endColumn`: the start's own column
    /// for an instant) and its zone offset; its value is left 0. Nil when the row was rejected.
    @inline(__always)
    func recordInterval(_ record: CSVRecord, endColumn: Int) throws(ParseFailure) -> HealthSample? {
        let startCell = Self.trimmed(record[columns.start])
        guard let start = Self.moment(startCell) else {
            try reject(record, field: columns.start + 1, timeProblem(columns.start, startCell, expected: Self.isoOrEpoch))
            return nil
        }
        let endCell = Self.trimmed(record[endColumn])
        guard let end = Self.moment(endCell) else {
            try reject(record, field: endColumn + 1, timeProblem(endColumn, endCell, expected: Self.isoOrEpoch))
            return nil
        }
        guard start.isWallClock == end.isWallClock else {
            try reject(record, field: endColumn + 1,
                       "\(describe(field: columns.start)) \(Self.quoted(startCell)) and \(describe(field: endColumn)) "
                           + "\(Self.quoted(endCell)) differ: one has a UTC offset and the other none")
            return nil
        }
        var zone: Int32? = nil
        let offsetCell = optionalCell(record, columns.offset)
        if !offsetCell.isEmpty {
            guard let seconds = Self.zoneOffset(offsetCell) else {
                try reject(record, field: columns.offset + 1,
                           "\(describe(field: columns.offset)): \(Self.quoted(offsetCell)) is not a UTC offset "
                               + "(seconds east of UTC such as 3600, or ±hh:mm such as +01:00)")
                return nil
            }
            zone = seconds
        }
        let sample: HealthSample
        if start.isWallClock {
            if let zone {
                // A wall time with the record's own zone offset beside it is a time in that offset.
                let shift = Int64(zone) * 1000
                sample = HealthSample(startMs: start.ms - shift, endMs: end.ms - shift, offsetSeconds: zone, value: 0)
            } else {
                sample = HealthSample(startMs: start.ms, endMs: end.ms, offsetSeconds: nil, value: 0, wallClock: true)
            }
        } else {
            // The zone offset column is where the phone was; an offset in the time (often Z) only fixes the instant.
            sample = HealthSample(startMs: start.ms, endMs: end.ms, offsetSeconds: zone ?? start.offset, value: 0)
        }
        guard sample.endMs >= sample.startMs else {
            try reject(record, field: endColumn + 1,
                       "\(describe(field: endColumn)) \(Self.quoted(endCell)) is before "
                           + "\(describe(field: columns.start)) \(Self.quoted(startCell))")
            return nil
        }
        return sample
    }

    /// Rejects a sample that breaks `SampleLimits`, naming the field at fault (the offset's own
    /// column when the row has one, else the start time, whose offset it is).
    func rejectBeyondLimits(_ record: CSVRecord, _ problem: SampleProblem, offsetColumn: Int?) throws(ParseFailure) {
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

    /// date, steps, [source]; or Takeout's daily summary (Date, ..., Step count, ...). With metrics
    /// asked for, the row's metric cells too (a row may have them and no steps).
    func dayTotalRow(_ record: CSVRecord, takeout: Bool) throws(ParseFailure) {
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        let stepsCell = columns.count >= 0 ? Self.trimmed(record[columns.count]) : Self.noBytes
        if stepsCell.isEmpty {
            statistics.emptyCounts += 1
            guard !columns.values.isEmpty, hasValues(record) else { return }
        }
        let dateCell = Self.trimmed(record[columns.date])
        guard let day = LocalDate(dateCell) else {
            return try reject(record, field: columns.date + 1,
                              dateCell.isEmpty ? "\(describe(field: columns.date)) is empty"
                                  : "\(describe(field: columns.date)): \(Self.quoted(dateCell)) is not a date (YYYY-MM-DD)")
        }
        let steps: Double
        if stepsCell.isEmpty {
            steps = 0
        } else {
            guard let count = DecimalNumber.parse(stepsCell), count >= 0 else {
                return try reject(record, field: columns.count + 1,
                                  "\(describe(field: columns.count)): \(Self.quoted(stepsCell)) is not a non-negative number")
            }
            steps = count
        }
        if let problem = SampleLimits.problem(inDayTotal: day, steps: steps) {
            let isDate = problem == .dateOutOfRange
            let dateText = "\(describe(field: columns.date)): \(Self.quoted(dateCell))"
            return try reject(record, field: (isDate ? columns.date : columns.count) + 1,
                              problem.message(steps: "\(describe(field: columns.count)): \(Self.quoted(stepsCell))",
                                              start: dateText, end: dateText))
        }
        let source = takeout ? Self.noBytes : optionalCell(record, columns.origin)
        if !stepsCell.isEmpty {
            deliverDayTotal(day, steps: steps, source: source, takeout: takeout)
        }
        if !columns.values.isEmpty {
            try deliverDayValues(record, date: day, source: source, takeout: takeout)
        }
    }
}
