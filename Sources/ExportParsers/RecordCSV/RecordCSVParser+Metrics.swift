import HealthDays
import StreamingText
/// The daily metrics of a CSV (docs/metrics.md, *CSV*): Google Fit Takeout's metric columns,
/// the columns of a day-value CSV (the names `stepimport --format csv --metric` prints), and the
/// `metric` column of a record CSV. Read only when metrics beyond steps are asked for: with steps
/// alone every row takes the steps-only path.
extension RecordCSVParser {
    /// What a value cell holds.
    enum ValueTarget: Equatable {
        /// A value of the column, in the column's unit once multiplied by `factor`.
        case column(MetricColumn, factor: Double)
        /// Milliseconds of one of Google Fit's sleep stages, summed into the day's sleep minutes.
        case sleepMilliseconds
    }

    /// A metric column of the header, and what its cells hold.
    struct ValueColumn: Equatable {
        let index: Int
        let target: ValueTarget

        var metric: Metric {
            switch target {
            case .column(let column, _): column.metric
            case .sleepMilliseconds: .sleep
            }
        }
    }

    /// The columns of a day-value CSV: every metric column `stepimport` prints but steps, by
    /// normalized name (`distance_m` is `distancem`).
    static let dayValueColumns: [String: MetricColumn] = Dictionary(
        uniqueKeysWithValues: MetricColumn.allCases.filter { $0 != .steps }.map { (normalized($0.name), $0) })

    /// Names of a record CSV's metric column.
    static let metricNames: Set<String> = ["metric", "type", "recordtype", "datatype"]

    /// What a record CSV's metric cell may say, normalized: the `--metric` names and Health
    /// Connect's record type names (with or without `Record`).
    static let metricWords: [String: Metric] = {
        var words: [String: Metric] = [:]
        for metric in Metric.allCases { words[normalized(metric.name)] = metric }
        let recordTypes: [(String, Metric)] = [
            ("steps", .steps), ("stepcount", .steps), ("distance", .distance), ("activecaloriesburned", .activeEnergy),
            ("totalcaloriesburned", .totalEnergy), ("floorsclimbed", .flights), ("heartrate", .heartRate),
            ("restingheartrate", .restingHeartRate), ("heartratevariabilityrmssd", .heartRateVariabilityRMSSD),
            ("vo2max", .vo2Max), ("exercisesession", .workouts), ("workout", .workouts),
        ]
        for (word, metric) in recordTypes {
            words[word] = metric
            words[word + "record"] = metric
        }
        return words
    }()

    /// The metric cells of this header that the metrics asked for read, and the Google Fit columns
    /// no metric reads (for the summary).
    func valueColumns(_ keys: [String], layout: Layout, taken: Set<Int>) -> (read: [ValueColumn], unread: [String]) {
        var read: [ValueColumn] = []
        var unread: [String] = []
        for (index, key) in keys.enumerated() where !taken.contains(index) {
            let target: ValueTarget?
            switch layout {
            case .takeoutDailySummary, .takeoutPerDay:
                target = Self.fitValueColumns[key]
                if target == nil { unread.append(names[index]) }
            case .dailyTotals:
                target = Self.dayValueColumns[key].map { .column($0, factor: 1) }
            case .stepRecords:
                target = nil
            }
            if let target, metrics.contains(ValueColumn(index: index, target: target).metric) {
                read.append(ValueColumn(index: index, target: target))
            }
        }
        return (read, unread)
    }

    // MARK: - Values of a row

    /// A value cell as a number in its column's unit; nil for an empty cell or a rejected one
    /// (thrown under `.fail`, counted under `.skip`).
    func value(_ record: CSVRecord, _ column: ValueColumn) throws(ParseFailure) -> Double? {
        guard column.index < record.count else { return nil }
        let cell = Self.trimmed(record[column.index])
        if cell.isEmpty { return nil }
        guard let number = DecimalNumber.parse(cell), number.isFinite, number >= 0 else {
            try reject(record, field: column.index + 1,
                       "\(describe(field: column.index)): \(Self.quoted(cell)) is not a non-negative number")
            return nil
        }
        let converted: Double
        switch column.target {
        case .column(_, let factor): converted = number * factor
        case .sleepMilliseconds: converted = number / 60_000
        }
        guard converted <= SampleLimits.maximumSteps else {
            try reject(record, field: column.index + 1,
                       "\(describe(field: column.index)): \(Self.quoted(cell)) is more than one value may hold (1,000,000)")
            return nil
        }
        return converted
    }

    /// Whether any value cell of the row is filled (the row then needs its date or times).
    func hasValues(_ record: CSVRecord) -> Bool {
        columns.values.contains { $0.index < record.count && !Self.trimmed(record[$0.index]).isEmpty }
    }

    /// The values of a day row (a day-value CSV or Takeout's daily summary), handed on as day values.
    func deliverDayValues(_ record: CSVRecord, date: LocalDate, source: UnsafeRawBufferPointer, takeout: Bool) throws(ParseFailure) {
        var sleepMinutes: Double?
        for column in columns.values {
            guard let number = try value(record, column) else { continue }
            switch column.target {
            case .column(let target, _):
                deliverDayValue(date, target, number, source: source, takeout: takeout)
            case .sleepMilliseconds:
                sleepMinutes = (sleepMinutes ?? 0) + number
            }
        }
        if let sleepMinutes { deliverDayValue(date, .sleepMinutes, sleepMinutes, source: source, takeout: takeout) }
    }

    func deliverDayValue(_ date: LocalDate, _ column: MetricColumn, _ value: Double, source: UnsafeRawBufferPointer,
                                 takeout: Bool) {
        statistics.metricValues += 1
        if takeout {
            Self.googleFit.withUnsafeBytes { sink.addDayValue(date, of: column, value: value, sourceUTF8: $0) }
        } else if source.isEmpty {
            Self.unknownSource.withUnsafeBytes { sink.addDayValue(date, of: column, value: value, sourceUTF8: $0) }
        } else {
            HealthConnectOrigin.withCanonical(source) { sink.addDayValue(date, of: column, value: value, sourceUTF8: $0) }
        }
    }

    // MARK: - Record rows with a metric column

    /// The metric a metric cell names, or nil; the last word's answer is kept, so a file of
    /// rows of one type costs no allocation per row (a word is normalized only when it changes).
    private func metric(named word: UnsafeRawBufferPointer) -> Metric? {
        if word.elementsEqual(lastMetricWord.word) { return lastMetricWord.metric }
        let metric = Self.metricWords[Self.normalized(String(decoding: word, as: UTF8.self))]
        lastMetricWord = (Array(word), metric)
        return metric
    }

    /// start, end, metric, value, [origin], [zone offset]: one record of the metric the row names,
    /// its value in the metric's column unit (docs/metrics.md, *CSV*). An instant (heart rate,
    /// resting heart rate, HRV, VO2max) may leave its end empty; sleep, in bed and workouts take
    /// their span and need no value. A row of a metric not asked for, or of a type no metric
    /// reads, is left out and counted.
    func metricRecordRow(_ record: CSVRecord) throws(ParseFailure) {
        guard record.count >= columns.needed else { return try rejectShortRow(record) }
        let word = Self.trimmed(record[columns.metric])
        guard let metric = metric(named: word) else {
            // Another record type (a dump of every type has weight, blood pressure, ...): left
            // out and counted, its name kept for the summary.
            statistics.otherTypeRows += 1
            if statistics.otherTypes.count < 5 {
                let name = String(decoding: word, as: UTF8.self)
                if !statistics.otherTypes.contains(name) { statistics.otherTypes.append(name) }
            }
            return
        }
        if metric == .steps {
            return try stepRecordRow(record)
        }
        guard metrics.contains(metric) else {
            statistics.otherMetricRows += 1
            return
        }
        let countCell = Self.trimmed(record[columns.count])
        let takesSpan = metric.kind == .sleep || metric.kind == .workouts
        if countCell.isEmpty && !takesSpan {
            statistics.emptyCounts += 1
            return
        }
        let instant = metric.kind == .sampled && Self.trimmed(record[columns.end]).isEmpty
        guard var sample = try recordInterval(record, endColumn: instant ? columns.start : columns.end) else { return }
        if metric.kind == .workouts {
            sample.value = Double(sample.endMs - sample.startMs) / 60_000
        } else if !takesSpan {
            guard let number = DecimalNumber.parse(countCell), number.isFinite, number >= 0 else {
                return try reject(record, field: columns.count + 1,
                                  "\(describe(field: columns.count)): \(Self.quoted(countCell)) is not a non-negative number",
                                  metric: metric)
            }
            sample.value = number
        }
        if let problem = SampleLimits.problem(in: sample) {
            return try reject(record, field: (problem == .tooManySteps ? columns.count : columns.start) + 1,
                              problem.message(steps: "\(describe(field: columns.count)): \(Self.quoted(countCell))",
                                              start: describe(field: columns.start), end: describe(field: columns.end),
                                              metric: metric), metric: metric)
        }
        statistics.metricValues += 1
        let origin = optionalCell(record, columns.origin)
        if origin.isEmpty {
            Self.unknownSource.withUnsafeBytes { sink.add(sample, of: metric, sourceUTF8: $0) }
        } else {
            HealthConnectOrigin.withCanonical(origin) { sink.add(sample, of: metric, sourceUTF8: $0) }
        }
    }
}
