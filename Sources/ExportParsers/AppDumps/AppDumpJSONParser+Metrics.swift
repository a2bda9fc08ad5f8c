import HealthDays
import StreamingText

extension AppDumpJSONParser {
    /// The fields of an object that matter for a metric record, kept beside its step fields
    /// (`Slot`) only when metrics are read.
    enum MetricSlot: Int, CaseIterable {
        /// The record's own value in its metric's unit: `beatsPerMinute`, `floors`, ...
        case measure
        /// A length or an energy: react-native's `inMeters`..., or a `value` with a `unit`.
        case quantity
        /// Capacitor's and Flutter's unit word.
        case unit
        /// A sleep stage's type, a number or a word.
        case stage

        /// Bytes kept for each field's text.
        static let capacity = 64

        var offset: Int { rawValue * MetricSlot.capacity }

        /// Bytes of storage for the metric fields of one object.
        static var storage: Int { allCases.count * capacity }
    }

    /// The metric fields of one open object, and what its members were.
    struct MetricFrame {
        var fields = InlineArray<4, Field>(repeating: Field())
        /// `MetricMark`s of the members seen.
        var marks: UInt8 = 0
    }

    /// Members whose presence says what a record is.
    enum MetricMark {
        static let distance: UInt8 = 1
        static let energy: UInt8 = 2
        static let samples: UInt8 = 4
        static let stages: UInt8 = 8
        static let exercise: UInt8 = 16
        /// The fields came up through HCGateway's `data`.
        static let viaData: UInt8 = 32
    }
}

extension AppDumpJSONParser.Key {
    /// The metric field a scalar under this name fills.
    var metricSlot: AppDumpJSONParser.MetricSlot? {
        switch self {
        case .beatsPerMinute, .heartRateVariabilityMillis, .vo2MillilitersPerMinuteKilogram, .floors: .measure
        case .inMeters, .inKilometers, .inMiles, .inFeet, .inInches, .inKilocalories, .inCalories, .inJoules,
             .inKilojoules: .quantity
        case .unit: .unit
        case .stage: .stage
        default: nil
        }
    }

    /// The mark a member under this name leaves on its object, whatever its value.
    var metricMark: UInt8 {
        typealias Mark = AppDumpJSONParser.MetricMark
        switch self {
        case .distance: return Mark.distance
        case .energy: return Mark.energy
        case .samples: return Mark.samples
        case .stages: return Mark.stages
        case .exerciseType, .workoutActivityType: return Mark.exercise
        default: return 0
        }
    }

    /// The metres and kilocalories themselves win over their conversions.
    var metricRank: UInt8 {
        self == .inMeters || self == .inKilocalories ? 2 : 1
    }
}

/// The records of the metrics beyond steps (`--metric`, docs/metrics.md): recognised when they
/// end, by their type word or their fields; checked as step records are (the same times, zones
/// and bounds), their values converted to the column's unit or refused, and handed on as
/// `RecordSink.add(_:of:sourceUTF8:)`, as the database reader does.
extension AppDumpJSONParser.Assembler {
    typealias MetricSlot = AppDumpJSONParser.MetricSlot
    typealias MetricMark = AppDumpJSONParser.MetricMark
    typealias RecordType = AppDumpRecordType

    // MARK: - Fields

    /// A scalar under a name that has no step field: a metric field, a mark, or nothing.
    @inline(never)  // off the steps-only path, so that its callers stay small
    func storeMetric(_ key: Key, of frame: Int, _ kind: AppDumpJSONParser.ValueKind, _ bytes: UnsafeRawBufferPointer) {
        if key == .lastModifiedTime {
            return noteModified(kind, bytes, of: frame)
        }
        if let slot = key.metricSlot {
            storeMetric(slot, of: frame, kind, bytes, key: key)
        }
        metricFrames[frame].marks |= key.metricMark
    }

    /// An object or array starts under the current member: it marks the object around it, and a
    /// `samples` or `stages` array starts collecting for it.
    @inline(never)  // off the steps-only path, so that its callers stay small
    func noteMetricContainer(isArray: Bool) {
        guard depth > 0, !frames[depth - 1].isArray else { return }
        let key = frames[depth - 1].key
        metricFrames[depth - 1].marks |= key.metricMark
        if isArray && (key == .samples || key == .stages) {
            spool.begin(owner: depth - 1)
        }
    }

    // MARK: - Deciding what an object was

    /// Called first when an object ends: reads it if it is a metric record, a sample or a stage
    /// (true), or passes its metric fields up (false: the step rules decide the rest).
    @inline(never)  // off the steps-only path, so that its callers stay small
    func finishMetricObject(_ index: Int) throws(ParseFailure) -> Bool {
        if index >= 2, frames[index - 1].isArray, spool.owner == index - 2 {
            let arrayKey = frames[index - 1].key
            if arrayKey == .samples || arrayKey == .stages {
                try readElement(index, stage: arrayKey == .stages)
                return true
            }
        }
        if let type = recordType(index) {
            try readMetricRecord(index, type)
            if spool.owner == index { spool.clear() }
            return true
        }
        passUpMetric(index)
        if spool.owner == index {
            if index > 0, !frames[index - 1].isArray, frames[index - 1].key == .data {
                spool.owner = index - 1
            } else {
                spool.clear()
            }
        }
        return false
    }

    /// The metric record type of the object at `index`, or nil: its type word, else its fields.
    /// An object with a step count is never one (the step rules read it).
    private func recordType(_ index: Int) -> RecordType? {
        let type = field(.type, of: index)
        let marks = metricFrames[index].marks
        if type.kind == .string {
            guard !type.truncated, !isStepsType(index) else { return nil }
            let flutter = frames[index].flutterMarker || field(.start, of: index).key == .dateFrom
                || field(.start, of: index).key == .date_from
            guard let found = withNormalizedType(of: index, { RecordType(word: $0, flutter: flutter) }) else { return nil }
            return found == .heartRate && marks & MetricMark.samples != 0 ? .heartRateSeries : found
        }
        guard field(.start, of: index).isPresent || field(.end, of: index).isPresent,
              !field(.count, of: index).isPresent else { return nil }
        if marks & MetricMark.samples != 0 { return .heartRateSeries }
        if marks & MetricMark.stages != 0 { return .sleepSession }
        if marks & MetricMark.exercise != 0 { return .exerciseSession }
        if marks & MetricMark.distance != 0 { return .distance }
        if marks & MetricMark.energy != 0 { return energyType(above: index) }
        let measure = metricField(.measure, of: index)
        guard measure.isPresent else { return nil }
        switch measure.key {
        case .beatsPerMinute: return .restingHeartRate
        case .heartRateVariabilityMillis: return .heartRateVariability
        case .vo2MillilitersPerMinuteKilogram: return .vo2Max
        case .floors: return .floors
        default: return nil
        }
    }

    /// Active or total calories for an energy record that does not say: the name of a member or
    /// the type word of an object it sits in (`{"TotalCaloriesBurned":{"records":[...]}}`,
    /// HCGateway's `activeCaloriesBurned` collection), else untyped.
    private func energyType(above index: Int) -> RecordType {
        var frame = index - 1
        while frame >= 0 {
            switch frames[frame].key {
            case .activeCaloriesBurned: return .activeEnergy
            case .totalCaloriesBurned: return .totalEnergy
            default: break
            }
            if !frames[frame].isArray, field(.type, of: frame).kind == .string, !field(.type, of: frame).truncated,
               let type = withNormalizedType(of: frame, { RecordType(word: $0, flutter: false) }),
               type == .activeEnergy || type == .totalEnergy {
                return type
            }
            frame -= 1
        }
        return .untypedEnergy
    }

    /// Hands the metric fields of a nested part to the object it belongs to: a length or energy
    /// object (`distance`, `energy`), HCGateway's `data`, Flutter's workout `value`.
    private func passUpMetric(_ index: Int) {
        guard index > 0, !frames[index - 1].isArray else { return }
        let parent = index - 1
        let key = frames[parent].key
        switch key {
        case .distance, .energy:
            let quantity = metricField(.quantity, of: index)
            if quantity.isPresent {
                copyMetric(quantity, metricText(.quantity, of: index), to: .quantity, of: parent, via: key)
            } else if field(.count, of: index).isPresent {
                // Capacitor: {"unit": "meter", "value": 12.5}.
                copyMetric(field(.count, of: index), text(.count, of: index), to: .quantity, of: parent, via: key)
                let unit = metricField(.unit, of: index)
                if unit.isPresent { copyMetric(unit, metricText(.unit, of: index), to: .unit, of: parent, via: key) }
            }
        case .data, .value:
            for slot in MetricSlot.allCases where metricField(slot, of: index).isPresent {
                let field = metricField(slot, of: index)
                copyMetric(field, metricText(slot, of: index), to: slot, of: parent, via: field.via == .unknown ? key : field.via)
            }
            metricFrames[parent].marks |= metricFrames[index].marks | (key == .data ? MetricMark.viaData : 0)
        default:
            break
        }
    }

    // MARK: - Records

    /// Reads one metric record and hands on what it gives that was asked for.
    private func readMetricRecord(_ index: Int, _ type: RecordType) throws(ParseFailure) {
        statistics.records += 1
        noteShape(metricShape(of: index))
        guard type.isWanted(in: metrics) else {
            statistics.otherTypeRecords += 1
            return
        }
        recordBeingRead = type
        defer { recordBeingRead = nil }
        let origin = field(.origin, of: index)
        if origin.kind == .string && origin.truncated {
            return try invalid(index, "\(origin.name) is longer than \(Slot.origin.capacity) bytes, too long for a source name")
        }
        switch type {
        case .distance, .activeEnergy, .totalEnergy, .floors:
            guard var sample = try readTimes(index, googleFit: false), let value = try value(index, of: type.metric),
                  try checkTimes(sample, index) else { return }
            sample.value = value
            hand(sample, of: type.metric, index)
        case .untypedEnergy:
            statistics.untypedEnergyRecords += 1
        case .heartRate, .restingHeartRate, .heartRateVariability, .vo2Max:
            guard var sample = try readTimes(index, googleFit: false, instant: true),
                  let value = try value(index, of: type.metric), try checkTimes(sample, index) else { return }
            sample.value = value
            hand(sample, of: type.metric, index)
        case .heartRateSeries:
            try readSeries(index)
        case .sleepSession:
            guard let span = try readTimes(index, googleFit: false, endOffsetFirst: true), try checkTimes(span, index)
            else { return }
            if metrics.contains(.inBed) { hand(span, of: .inBed, index) }
            guard metrics.contains(.sleep) else { return }
            if spool.owner == index && spool.elements > 0 {
                try replaySpool(index, as: .sleep, zone: zoneSlot(index, endFirst: true))
            } else {
                // An app that writes only the night: all of it is sleep.
                hand(span, of: .sleep, index)
            }
        case .sleepStage(let asleep):
            guard let span = try readTimes(index, googleFit: false, endOffsetFirst: true), try checkTimes(span, index),
                  asleep else { return }
            hand(span, of: .sleep, index)
        case .inBed:
            guard let span = try readTimes(index, googleFit: false, endOffsetFirst: true), try checkTimes(span, index)
            else { return }
            hand(span, of: .inBed, index)
        case .exerciseSession:
            guard var span = try readTimes(index, googleFit: false), try checkTimes(span, index) else { return }
            // Health Connect keeps no moving time: a session's minutes are its span.
            span.value = Double(span.endMs - span.startMs) / 60_000
            hand(span, of: .workouts, index)
        }
    }

    /// A heart-rate series: each sample a reading at its own time, placed by the record's zone
    /// offset and counted under its app.
    private func readSeries(_ index: Int) throws(ParseFailure) {
        guard spool.owner == index, spool.count > 0 else { return }
        let zone = zoneSlot(index)
        if let zone, zoneOffset(zone, of: index) == nil {
            let written = field(zone, of: index)
            return try invalid(index, "\(written.name) \(quoted(zone, of: index)) is not a UTC offset "
                                   + "(such as \"+09:00\" or a number of seconds)")
        }
        try replaySpool(index, as: .heartRate, zone: zone)
    }

    /// Hands on every kept sample or stage of the record at `index`, placed as a step record's
    /// times are: in the record's zone offset field if it has one, else in the offset its own
    /// text carries.
    private func replaySpool(_ index: Int, as metric: Metric, zone: Slot?) throws(ParseFailure) {
        let offset = zone.flatMap { zoneOffset($0, of: index) }
        do throws(MetricSpool.ReplayError) {
            try spool.forEach { (entry) throws(MetricSpool.ReplayError) in
                var sample = HealthSample(startMs: entry.startMs, endMs: entry.endMs, offsetSeconds: nil, value: entry.value,
                                        wallClock: entry.wallClock)
                if let offset {
                    if entry.wallClock {
                        sample.startMs -= Int64(offset) * 1000
                        sample.endMs -= Int64(offset) * 1000
                        sample.wallClock = false
                    }
                    sample.offsetSeconds = offset
                } else if entry.ownOffset != MetricSpool.Entry.noOffset {
                    sample.offsetSeconds = entry.ownOffset
                }
                do throws(ParseFailure) {
                    guard try checkTimes(sample, index) else { return }
                } catch {
                    throw .failure(error)
                }
                hand(sample, of: metric, index)
            }
        } catch {
            switch error {
            case .failure(let failure): throw failure
            case .system(let problem):
                try invalid(index, "its \(spool.count) samples or stages could not be kept in a temporary file: \(problem)")
            }
        }
    }

    /// A sample of a heart-rate series or a stage of a sleep session, kept for the record.
    private func readElement(_ index: Int, stage: Bool) throws(ParseFailure) {
        spool.elements += 1
        guard metrics.contains(stage ? .sleep : .heartRate) else { return }
        recordBeingRead = stage ? .sleepStage(asleep: true) : .heartRateSeries
        defer { recordBeingRead = nil }
        let startField = field(.start, of: index)
        guard startField.isPresent else {
            return try invalid(index, stage ? "missing startTime" : "missing time")
        }
        guard let start = moment(.start, of: index) else { return try invalid(index, timeProblem(.start, of: index)) }
        var end = start
        let value: Double
        if stage {
            guard field(.end, of: index).isPresent else { return try invalid(index, "missing endTime") }
            guard let read = moment(.end, of: index) else { return try invalid(index, timeProblem(.end, of: index)) }
            end = read
            guard start.wallClock == end.wallClock, end.ms >= start.ms else {
                return try invalid(index, "\(field(.end, of: index).name) \(quoted(.end, of: index)) is before or unlike "
                                       + "\(startField.name) \(quoted(.start, of: index))")
            }
            guard let number = try stageNumber(index) else { return }
            // SLEEPING 2, LIGHT 4, DEEP 5, REM 6 are sleep; the others are read past.
            guard number == 2 || number >= 4 && number <= 6 else { return }
            value = 0
        } else {
            guard let bpm = try number(metricField(.measure, of: index), metricText(.measure, of: index), index,
                                       missing: "missing beatsPerMinute") else { return }
            value = bpm
        }
        let entry = MetricSpool.Entry(startMs: start.ms, endMs: end.ms, value: value,
                                      ownOffset: start.offset ?? MetricSpool.Entry.noOffset, wallClock: start.wallClock)
        if let problem = spool.append(entry) {
            try invalid(index, "the samples or stages of this record could not be kept in a temporary file: \(problem)")
        }
    }

    /// A stage's type: a number 0 to 7 or Capacitor's word; nil after refusing it.
    private func stageNumber(_ index: Int) throws(ParseFailure) -> Int64? {
        let stage = metricField(.stage, of: index)
        let text = metricText(.stage, of: index)
        let written = stage.kind == .string ? "\"\(String(decoding: text, as: UTF8.self))\"" : String(decoding: text, as: UTF8.self)
        switch stage.kind {
        case .number:
            if !stage.truncated, let number = Self.integer(text), number >= 0 && number <= 7 { return number }
        case .string:
            if !stage.truncated, let number = RecordType.stageNumber(text) { return number }
        case .absent:
            try invalid(index, "missing stage")
            return nil
        default:
            break
        }
        try invalid(index, "stage \(written) is not a sleep stage Health Connect defines (0 to 7, or unknown, awake, "
                        + "sleeping, out_of_bed, light, deep, rem, awake_in_bed)")
        return nil
    }

    // MARK: - Values

    /// The record's value in the column's unit of `metric`: its own measure (`beatsPerMinute`...),
    /// a length or energy member that names its unit (`inMeters`), or a value with a unit word
    /// (Capacitor's `{"unit","value"}`, Flutter's `numericValue` and `unit`); nil after refusing it.
    private func value(_ index: Int, of metric: Metric) throws(ParseFailure) -> Double? {
        let measure = metricField(.measure, of: index)
        if measure.isPresent {
            return try number(measure, metricText(.measure, of: index), index, missing: "")
        }
        let quantity = metricField(.quantity, of: index)
        if quantity.isPresent, let factor = RecordType.factor(member: quantity.key) {
            return try number(quantity, metricText(.quantity, of: index), index, missing: "", factor: factor)
        }
        let (valueField, valueText) = quantity.isPresent ? (quantity, metricText(.quantity, of: index))
            : (field(.count, of: index), text(.count, of: index))
        guard valueField.isPresent else {
            try invalid(index, "no value: none of \(Self.valueMembers(metric))")
            return nil
        }
        let unit = metricField(.unit, of: index)
        let known = RecordType.units(of: metric).map(\.unit).joined(separator: ", ")
        guard unit.kind == .string else {
            try invalid(index, "\(valueField.name) has no unit (\(known))")
            return nil
        }
        let unitText = metricText(.unit, of: index)
        guard !unit.truncated, let factor = RecordType.factor(unit: unitText, for: metric) else {
            try invalid(index, "unit \"\(String(decoding: unitText, as: UTF8.self))\" is not a unit of \(metric.name) "
                            + "stepimport knows (\(known.isEmpty ? "none" : known)); it is refused rather than given a wrong number")
            return nil
        }
        return try number(valueField, valueText, index, missing: "", factor: factor)
    }

    /// The members a record of `metric` holds its value in, for the message when it has none.
    private static func valueMembers(_ metric: Metric) -> String {
        switch metric {
        case .distance: "distance.inMeters, distance.value with unit, numericValue with unit"
        case .activeEnergy, .totalEnergy: "energy.inKilocalories, energy.value with unit, numericValue with unit"
        case .flights: "floors, numericValue"
        case .heartRate, .restingHeartRate: "beatsPerMinute, numericValue"
        case .heartRateVariabilityRMSSD: "heartRateVariabilityMillis, numericValue"
        default: "vo2MillilitersPerMinuteKilogram"
        }
    }

    /// A non-negative finite number times `factor`; nil after refusing it.
    private func number(_ field: AppDumpJSONParser.Field, _ text: UnsafeRawBufferPointer, _ index: Int,
                        missing: String, factor: Double = 1) throws(ParseFailure) -> Double? {
        guard field.isPresent else {
            try invalid(index, missing)
            return nil
        }
        let written = field.kind == .string ? "\"\(String(decoding: text, as: UTF8.self))\"" : String(decoding: text, as: UTF8.self)
        guard field.kind == .number || field.kind == .string, !field.truncated, let number = DecimalNumber.parse(text),
              number >= 0 else {
            try invalid(index, "\(field.name) \(written) is not a non-negative number")
            return nil
        }
        let converted = number * factor
        guard converted.isFinite else {
            try invalid(index, "\(field.name) \(written) is too large to be a measurement")
            return nil
        }
        return converted
    }

    // MARK: - Handing on

    /// The times' bounds (`SampleLimits.timeProblem`), as a step record's; false after refusing it.
    private func checkTimes(_ sample: HealthSample, _ index: Int) throws(ParseFailure) -> Bool {
        guard let problem = SampleLimits.timeProblem(in: sample) else { return true }
        let startField = field(.start, of: index)
        let zone = zoneSlot(index)
        try invalid(index, problem.message(
            steps: "value", start: "\(startField.name) \(quoted(.start, of: index))",
            end: field(.end, of: index).hasValue ? "\(field(.end, of: index).name) \(quoted(.end, of: index))"
                : "\(startField.name) \(quoted(.start, of: index))",
            offset: zone.map { "\(field($0, of: index).name) \(quoted($0, of: index))" }
                ?? "the offset of \(startField.name) \(quoted(.start, of: index))"))
        return false
    }

    private func hand(_ sample: HealthSample, of metric: Metric, _ index: Int) {
        statistics.metricSamples += 1
        var sample = sample
        sample.enteredByHand = enteredByHand(index)
        if let prioritySink, index < modified.count {
            // Under --rule hc-priority, with the record's lastModifiedTime as a step record's.
            let time = modified[index]
            withSource(index) { prioritySink.add(sample, of: metric, lastModifiedMs: time == .min ? nil : time, sourceUTF8: $0) }
        } else {
            withSource(index) { sink.add(sample, of: metric, sourceUTF8: $0) }
        }
    }

    /// The shape a metric record's members point to: the step records' rule, and HCGateway's
    /// `data` or an instant's `time` beside react-native's metadata.
    private func metricShape(of index: Int) -> Shape {
        let shape = shape(of: index, dayTotal: false)
        guard shape == .plainRecords else { return shape }
        if metricFrames[index].marks & MetricMark.viaData != 0 { return .hcGateway }
        if field(.start, of: index).key == .time {
            if field(.type, of: index).kind == .string { return .capacitor }
            if field(.origin, of: index).via == .metadata || field(.startOffset, of: index).via != .unknown {
                return .reactNativeHealthConnect
            }
        }
        return shape
    }
}
