/// The records of the metrics beyond steps (`hc-json --metrics`) in each shape, as the app or
/// library writes them (docs/metrics.md, *App JSON dumps*): react-native-health-connect's fields
/// (`distance.inMeters`, `energy.inKilocalories`, `samples`, `stages`...), HCGateway's copy of them
/// under `data`, Capacitor's `{"unit","value"}` with Health Connect's record names, Flutter
/// `health`'s data points with a type and a unit.
///
/// A day is written as placed (`HealthConnectMetricDay.placed(for:)`): Flutter's times are its
/// wall clock, the others' instants in UTC with each record's offset beside it where the shape has
/// offsets.
extension HealthConnectJSONWriter {
    /// The record types, one readRecords() each: react-native and HCGateway dumps keep each type's
    /// records under its own member (`{"Distance":{"records":[...]}}`, HCGateway's collections),
    /// the only place where active and total calories are told apart.
    enum MetricSection: CaseIterable {
        case distance, activeCalories, totalCalories, floors, heartRate, restingHeartRate, heartRateVariability, vo2Max
        case sleep, exercise

        /// Health Connect's record name (react-native's `readRecords` type, Capacitor's `type`).
        var recordName: StaticString {
            switch self {
            case .distance: "Distance"
            case .activeCalories: "ActiveCaloriesBurned"
            case .totalCalories: "TotalCaloriesBurned"
            case .floors: "FloorsClimbed"
            case .heartRate: "HeartRate"
            case .restingHeartRate: "RestingHeartRate"
            case .heartRateVariability: "HeartRateVariabilityRmssd"
            case .vo2Max: "Vo2Max"
            case .sleep: "SleepSession"
            case .exercise: "ExerciseSession"
            }
        }

        /// HCGateway's collection: the record name with its first letter in lower case.
        var collection: StaticString {
            switch self {
            case .distance: "distance"
            case .activeCalories: "activeCaloriesBurned"
            case .totalCalories: "totalCaloriesBurned"
            case .floors: "floorsClimbed"
            case .heartRate: "heartRate"
            case .restingHeartRate: "restingHeartRate"
            case .heartRateVariability: "heartRateVariabilityRmssd"
            case .vo2Max: "vo2Max"
            case .sleep: "sleepSession"
            case .exercise: "exerciseSession"
            }
        }

        init(_ kind: HealthConnectQuantityRecord.Kind) {
            switch kind {
            case .distance: self = .distance
            case .activeCalories: self = .activeCalories
            case .totalCalories: self = .totalCalories
            case .floors: self = .floors
            }
        }

        init(_ kind: HealthConnectInstantRecord.Kind) {
            switch kind {
            case .restingHeartRate: self = .restingHeartRate
            case .heartRateVariability: self = .heartRateVariability
            case .vo2Max: self = .vo2Max
            }
        }
    }

    // MARK: - Sections

    /// Ends the step records and opens `section`'s member (react-native and HCGateway).
    mutating func beginSection(_ section: MetricSection, to out: inout ByteBuffer) {
        switch shape {
        case .hcGateway:
            out.append("\n],\n\"")
            out.append(section.collection)
            out.append("\":[")
        default:
            // The first section closes the step records' page, each later one the section before.
            out.append(section == .distance ? "\n],\"pageToken\":null,\n\"" : "\n],\"pageToken\":null},\n\"")
            out.append(section.recordName)
            out.append("\":{\"records\":[")
        }
        first = true
    }

    // MARK: - Records

    /// The records of one placed day: of `section` only, or all of them (the shapes whose records
    /// say their type: Capacitor, Flutter).
    mutating func appendMetrics(_ day: HealthConnectMetricDay, section: MetricSection?, to out: inout ByteBuffer) {
        for record in day.quantities where section == nil || section == MetricSection(record.kind) {
            append(record, to: &out)
        }
        if section == nil || section == .heartRate {
            for record in day.heartRates { append(record, to: &out) }
        }
        for record in day.instants where section == nil || section == MetricSection(record.kind) {
            append(record, to: &out)
        }
        if section == nil || section == .sleep {
            for record in day.sleepSessions { append(record, to: &out) }
        }
        if section == nil || section == .exercise {
            for record in day.exercises { append(record, to: &out) }
        }
    }

    private mutating func append(_ record: HealthConnectQuantityRecord, to out: inout ByteBuffer) {
        let section = MetricSection(record.kind)
        switch shape {
        case .flutter, .flutterSnake:
            let (type, unit): (StaticString, StaticString)
            switch record.kind {
            case .distance: (type, unit) = ("DISTANCE_DELTA", "METER")
            case .activeCalories: (type, unit) = ("ACTIVE_ENERGY_BURNED", "KILOCALORIE")
            case .totalCalories: (type, unit) = ("TOTAL_CALORIES_BURNED", "KILOCALORIE")
            case .floors: (type, unit) = ("FLIGHTS_CLIMBED", "COUNT")
            }
            appendPoint(record.metadata, type: type, unit: unit, from: record.startMs, to: record.endMs, to: &out) {
                $0.append(scaled: Int(record.thousandths), places: 3)
            }
        default:
            openRecord(record.metadata, section: section, to: &out)
            appendInterval(start: record.startMs, end: record.endMs, offsets: (record.startOffset, record.endOffset), to: &out)
            openData(to: &out)
            switch record.kind {
            case .distance:
                out.append("\"distance\":")
                if shape == .capacitor {
                    out.append("{\"unit\":\"meter\",\"value\":")
                    out.append(scaled: Int(record.thousandths), places: 3)
                    out.append("}")
                } else {
                    out.append("{\"inMeters\":")
                    out.append(scaled: Int(record.thousandths), places: 3)
                    out.append(",\"inKilometers\":")
                    out.append(scaled: Int(record.thousandths), places: 6)
                    out.append(",\"inMiles\":")
                    out.append(Array(String(Double(record.thousandths) / 1000 / 1609.344).utf8))
                    out.append(",\"inFeet\":")
                    out.append(Array(String(Double(record.thousandths) / 1000 / 0.3048).utf8))
                    out.append("}")
                }
            case .activeCalories, .totalCalories:
                out.append("\"energy\":")
                if shape == .capacitor {
                    // Capacitor writes energy in (small) calories.
                    out.append("{\"unit\":\"calories\",\"value\":")
                    out.append(int: Int(record.thousandths))
                    out.append("}")
                } else {
                    out.append("{\"inCalories\":")
                    out.append(int: Int(record.thousandths))
                    out.append(",\"inJoules\":")
                    out.append(Array(String(Double(record.thousandths) * 4.184).utf8))
                    out.append(",\"inKilocalories\":")
                    out.append(scaled: Int(record.thousandths), places: 3)
                    out.append(",\"inKilojoules\":")
                    out.append(Array(String(Double(record.thousandths) * 0.004184).utf8))
                    out.append("}")
                }
            case .floors:
                out.append("\"floors\":")
                out.append(scaled: Int(record.thousandths), places: 3)
            }
            closeRecord(record.metadata, start: record.startMs, end: record.endMs, to: &out)
        }
    }

    private mutating func append(_ record: HealthConnectHeartRateSeries, to out: inout ByteBuffer) {
        switch shape {
        case .flutter, .flutterSnake:
            // Flutter `health` gives each sample of a series as a data point of its own.
            for sample in record.samples {
                appendPoint(record.metadata, type: "HEART_RATE", unit: "BEATS_PER_MINUTE", from: sample.epochMs, to: sample.epochMs,
                            to: &out) { $0.append(int: sample.beatsPerMinute) }
            }
        default:
            openRecord(record.metadata, section: .heartRate, to: &out)
            appendInterval(start: record.startMs, end: record.endMs, offsets: (record.startOffset, record.endOffset), to: &out)
            openData(to: &out)
            out.append("\"samples\":[")
            for (index, sample) in record.samples.enumerated() {
                out.append(index == 0 ? "{\"time\":\"" : ",{\"time\":\"")
                out.append(isoInstantMs: sample.epochMs, alwaysFraction: shape != .hcGateway)
                out.append("\",\"beatsPerMinute\":")
                out.append(int: sample.beatsPerMinute)
                out.append("}")
            }
            out.append("]")
            closeRecord(record.metadata, start: record.startMs, end: record.endMs, to: &out)
        }
    }

    private mutating func append(_ record: HealthConnectInstantRecord, to out: inout ByteBuffer) {
        let places = record.kind == .restingHeartRate ? 0 : 2
        let value = record.kind == .restingHeartRate ? Int(record.hundredths / 100) : Int(record.hundredths)
        switch shape {
        case .flutter, .flutterSnake:
            let (type, unit): (StaticString, StaticString)
            switch record.kind {
            case .restingHeartRate: (type, unit) = ("RESTING_HEART_RATE", "BEATS_PER_MINUTE")
            case .heartRateVariability: (type, unit) = ("HEART_RATE_VARIABILITY_RMSSD", "MILLISECOND")
            case .vo2Max: preconditionFailure("Flutter health has no VO2max on Android; placed(for:) leaves it out")
            }
            appendPoint(record.metadata, type: type, unit: unit, from: record.timeMs, to: record.timeMs, to: &out) {
                $0.append(scaled: value, places: places)
            }
        default:
            let section = MetricSection(record.kind)
            openRecord(record.metadata, section: section, to: &out)
            if shape != .hcGateway {
                out.append("\"time\":\"")
                out.append(isoInstantMs: record.timeMs)
                out.append("\",")
                appendOffset("zoneOffset", record.offset, to: &out)
            }
            openData(to: &out)
            switch record.kind {
            case .restingHeartRate: out.append("\"beatsPerMinute\":")
            case .heartRateVariability: out.append("\"heartRateVariabilityMillis\":")
            case .vo2Max: out.append("\"vo2MillilitersPerMinuteKilogram\":")
            }
            out.append(scaled: value, places: places)
            if record.kind == .vo2Max {
                out.append(",\"measurementMethod\":")
                out.append(int: record.measurementMethod)
            }
            closeRecord(record.metadata, start: record.timeMs, end: nil, to: &out)
        }
    }

    private mutating func append(_ record: HealthConnectSleepSession, to out: inout ByteBuffer) {
        switch shape {
        case .flutter, .flutterSnake:
            // The session is time in bed; its stages are points of their own, and a session
            // written without stages is all asleep.
            appendPoint(record.metadata, type: "SLEEP_SESSION", unit: "MINUTE", from: record.startMs, to: record.endMs, to: &out) {
                $0.append(int: Int((record.endMs - record.startMs) / 60_000))
            }
            let stages = record.stages.isEmpty
                ? [HealthConnectSleepSession.Stage(startMs: record.startMs, endMs: record.endMs, type: .sleeping)] : record.stages
            for stage in stages {
                appendPoint(record.metadata, type: Self.flutterSleepType(stage.type), unit: "MINUTE", from: stage.startMs,
                            to: stage.endMs, to: &out) { $0.append(int: Int((stage.endMs - stage.startMs) / 60_000)) }
            }
        default:
            openRecord(record.metadata, section: .sleep, to: &out)
            appendInterval(start: record.startMs, end: record.endMs, offsets: (record.startOffset, record.endOffset), to: &out)
            openData(to: &out)
            out.append("\"title\":")
            if let title = record.title { out.append(jsonString: title) } else { out.append("null") }
            out.append(",\"notes\":")
            if let notes = record.notes { out.append(jsonString: notes) } else { out.append("null") }
            out.append(",\"stages\":[")
            for (index, stage) in record.stages.enumerated() {
                out.append(index == 0 ? "{\"startTime\":\"" : ",{\"startTime\":\"")
                out.append(isoInstantMs: stage.startMs)
                out.append("\",\"endTime\":\"")
                out.append(isoInstantMs: stage.endMs)
                out.append("\",\"stage\":")
                if shape == .capacitor {
                    out.append(Self.capacitorStageWord(stage.type))
                } else {
                    out.append(int: stage.type.rawValue)
                }
                out.append("}")
            }
            out.append("]")
            closeRecord(record.metadata, start: record.startMs, end: record.endMs, to: &out)
        }
    }

    private mutating func append(_ record: HealthConnectExerciseSession, to out: inout ByteBuffer) {
        switch shape {
        case .flutter, .flutterSnake:
            appendPoint(record.metadata, type: "WORKOUT", unit: "NO_UNIT", from: record.startMs, to: record.endMs, to: &out,
                        workout: Self.flutterActivity(record.type)) { _ in }
        default:
            openRecord(record.metadata, section: .exercise, to: &out)
            appendInterval(start: record.startMs, end: record.endMs, offsets: (record.startOffset, record.endOffset), to: &out)
            openData(to: &out)
            out.append("\"exerciseType\":")
            out.append(int: record.type.rawValue)
            out.append(",\"title\":")
            if let title = record.title { out.append(jsonString: title) } else { out.append("null") }
            closeRecord(record.metadata, start: record.startMs, end: record.endMs, to: &out)
        }
    }

    // MARK: - The parts of a record

    /// The start of a record: Capacitor's type and metadata first (its serializer's order),
    /// HCGateway's ids.
    private mutating func openRecord(_ metadata: HealthConnectRecordMetadata, section: MetricSection,
                                     to out: inout ByteBuffer) {
        separate(&out)
        switch shape {
        case .capacitor:
            out.append("{\"type\":\"")
            out.append(section == .heartRate ? "HeartRateSeries" : section.recordName)
            out.append("\",\"metadata\":{\"id\":\"")
            out.append(uuidHigh: metadata.uuidHigh, low: metadata.uuidLow)
            out.append("\",\"dataOrigin\":")
            out.append(jsonString: metadata.app.packageName)
            out.append("},")
        case .hcGateway:
            appendGatewayIDs(metadata, to: &out)
        default:
            out.append("{")
        }
    }

    /// `startTime`, `endTime` and the zone offsets where the shape has them (HCGateway keeps its
    /// times outside `data`, in `start` and `end`).
    private func appendInterval(start: Int64, end: Int64, offsets: (Int32, Int32), to out: inout ByteBuffer) {
        guard shape != .hcGateway else { return }
        out.append("\"startTime\":\"")
        out.append(isoInstantMs: start)
        out.append("\",")
        appendOffset("startZoneOffset", offsets.0, to: &out)
        out.append("\"endTime\":\"")
        out.append(isoInstantMs: end)
        out.append("\",")
        appendOffset("endZoneOffset", offsets.1, to: &out)
    }

    /// A zone offset member and a comma: an object in react-native's form, a string in Capacitor's,
    /// nothing in the shapes without offsets.
    private func appendOffset(_ name: StaticString, _ seconds: Int32, to out: inout ByteBuffer) {
        switch shape {
        case .reactNative:
            out.append("\"")
            out.append(name)
            out.append("\":{\"id\":\"")
            out.append(offsetID: seconds)
            out.append("\",\"totalSeconds\":")
            out.append(int: Int(seconds))
            out.append("},")
        case .capacitor:
            out.append("\"")
            out.append(name)
            out.append("\":\"")
            out.append(offsetID: seconds)
            out.append("\",")
        default:
            break
        }
    }

    /// HCGateway's `{"_id":..,"id":..,` (its server keeps Health Connect's id twice).
    func appendGatewayIDs(_ metadata: HealthConnectRecordMetadata, to out: inout ByteBuffer) {
        out.append("{\"_id\":\"")
        out.append(uuidHigh: metadata.uuidHigh, low: metadata.uuidLow)
        out.append("\",\"id\":\"")
        out.append(uuidHigh: metadata.uuidHigh, low: metadata.uuidLow)
        out.append("\",")
    }

    /// HCGateway's end of a record: `data` closed, `app`, `start` and `end` (Kotlin's
    /// `Instant.toString()`: no fraction when it is zero; null for an instant).
    func appendGatewayEnd(_ metadata: HealthConnectRecordMetadata, start: Int64, end: Int64?, to out: inout ByteBuffer) {
        out.append("},\"app\":")
        out.append(jsonString: metadata.app.packageName)
        out.append(",\"start\":\"")
        out.append(isoInstantMs: start, alwaysFraction: false)
        if let end {
            out.append("\",\"end\":\"")
            out.append(isoInstantMs: end, alwaysFraction: false)
            out.append("\"}")
        } else {
            out.append("\",\"end\":null}")
        }
    }

    private func openData(to out: inout ByteBuffer) {
        if shape == .hcGateway { out.append("\"data\":{") }
    }

    /// The end of a record: react-native's metadata, HCGateway's app and times (an instant's `end`
    /// is null: its server keeps only `time`).
    private func closeRecord(_ metadata: HealthConnectRecordMetadata, start: Int64, end: Int64?, to out: inout ByteBuffer) {
        switch shape {
        case .hcGateway:
            appendGatewayEnd(metadata, start: start, end: end, to: &out)
        case .capacitor:
            out.append("}")
        default:
            out.append(",")
            appendMetadata(metadata, to: &out)
            out.append("}")
        }
    }

    /// One Flutter `health` data point (camelCase, or the older snake_case with fewer members),
    /// its value written by `value`, or a workout's activity.
    mutating func appendPoint(_ metadata: HealthConnectRecordMetadata, type: StaticString, unit: StaticString,
                              from start: Int64, to end: Int64, to out: inout ByteBuffer, workout: StaticString? = nil,
                              separated: Bool = false, value: (inout ByteBuffer) -> Void) {
        if !separated { separate(&out) }
        let snake = shape == .flutterSnake
        if snake {
            out.append("{\"value\":{")
        } else {
            out.append("{\"uuid\":\"")
            out.append(uuidHigh: metadata.uuidHigh, low: metadata.uuidLow)
            out.append("\",\"value\":{")
        }
        switch (workout, snake) {
        case (let activity?, true):
            out.append("\"workout_activity_type\":\"")
            out.append(activity)
            out.append("\"")
        case (let activity?, false):
            out.append("\"__type\":\"WorkoutHealthValue\",\"workoutActivityType\":\"")
            out.append(activity)
            out.append("\"")
        case (nil, true):
            out.append("\"numeric_value\":")
            value(&out)
        case (nil, false):
            out.append("\"__type\":\"NumericHealthValue\",\"numericValue\":")
            value(&out)
        }
        out.append(snake ? "},\"data_type\":\"" : "},\"type\":\"")
        out.append(type)
        out.append("\",\"unit\":\"")
        out.append(unit)
        out.append(snake ? "\",\"date_from\":\"" : "\",\"dateFrom\":\"")
        out.append(wallClockMs: start)
        out.append(snake ? "\",\"date_to\":\"" : "\",\"dateTo\":\"")
        out.append(wallClockMs: end)
        out.append(snake ? "\",\"platform_type\":\"ANDROID\",\"device_id\":" : "\",\"sourcePlatform\":\"googleHealthConnect\",\"sourceDeviceId\":")
        out.append(jsonString: HealthConnectApp.devices[metadata.deviceID - 1].2)
        out.append(snake ? ",\"source_id\":" : ",\"sourceId\":")
        out.append(jsonString: metadata.app.packageName)
        out.append(snake ? ",\"source_name\":" : ",\"sourceName\":")
        out.append(jsonString: metadata.app.packageName)
        if snake {
            out.append("}")
        } else {
            out.append(",\"recordingMethod\":\"")
            out.append(metadata.recordingMethod == .manualEntry ? "manual" : "automatic")
            out.append("\"}")
        }
    }

    // MARK: - Words

    private static func flutterSleepType(_ type: HealthConnectSleepSession.StageType) -> StaticString {
        switch type {
        case .unknown: "SLEEP_UNKNOWN"
        case .awake: "SLEEP_AWAKE"
        case .sleeping: "SLEEP_ASLEEP"
        case .outOfBed: "SLEEP_OUT_OF_BED"
        case .light: "SLEEP_LIGHT"
        case .deep: "SLEEP_DEEP"
        case .rem: "SLEEP_REM"
        case .awakeInBed: "SLEEP_AWAKE_IN_BED"
        }
    }

    private static func capacitorStageWord(_ type: HealthConnectSleepSession.StageType) -> StaticString {
        switch type {
        case .unknown: "\"unknown\""
        case .awake: "\"awake\""
        case .sleeping: "\"sleeping\""
        case .outOfBed: "\"out_of_bed\""
        case .light: "\"light\""
        case .deep: "\"deep\""
        case .rem: "\"rem\""
        case .awakeInBed: "\"awake_in_bed\""
        }
    }

    private static func flutterActivity(_ type: HealthConnectExerciseSession.ExerciseType) -> StaticString {
        switch type {
        case .biking: "BIKING"
        case .strengthTraining: "STRENGTH_TRAINING"
        case .swimmingPool: "SWIMMING_POOL"
        case .walking: "WALKING"
        }
    }
}
