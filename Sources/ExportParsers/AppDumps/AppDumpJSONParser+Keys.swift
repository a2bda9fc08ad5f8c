import HealthDays
extension AppDumpJSONParser {
    /// The member names the parser knows, across all the shapes it reads.
    ///
    /// A name means the same thing wherever it appears (`count` is a count in a record and in
    /// HCGateway's `data`); which object is a record is decided when the object ends.
    enum Key: UInt8, CaseIterable {
        case unknown = 0
        // Start of the interval.
        case start, startTime, start_time, startDate, start_date, dateFrom, date_from, startTimeMillis, startTimeNanos
        // End of the interval.
        case end, endTime, end_time, endDate, end_date, dateTo, date_to, endTimeMillis, endTimeNanos
        // The step count; `value` ranks below the others when an object has both.
        case count, steps, value, total_steps, totalSteps, stepCount, step_count, numericValue, numeric_value, intVal, fpVal
        // The data origin (app package) or source name.
        case origin, source, dataOrigin, app, packageName, package_name, sourceName, source_name
        // The record type.
        case type, recordType, record_type, dataType, data_type, dataTypeName
        // A calendar day, for day totals.
        case date
        // Zone offsets: an object {id, totalSeconds}, a string "+09:00" or a number of seconds.
        case startZoneOffset, start_zone_offset, zoneOffset, zone_offset, endZoneOffset, end_zone_offset
        case totalSeconds, total_seconds, id
        // Objects whose fields belong to the record around them.
        case metadata, data, fitValue
        // Markers of a shape.
        case records, dataSource, sourcePlatform, source_platform
        // How the record was made (react-native's `metadata.recordingMethod`: 3 or
        // `RECORDING_METHOD_MANUAL_ENTRY` when typed in by hand).
        case recordingMethod, recording_method
        // Metric records (`--metric` beyond steps): known only to a parser that reads them, so a
        // steps-only read looks names up in the steps' table alone.
        // An instant's time (resting heart rate, HRV, VO2max, a heart-rate sample): its start.
        case time
        // A record's own measurement, in its metric's unit.
        case beatsPerMinute, heartRateVariabilityMillis, vo2MillilitersPerMinuteKilogram, floors
        // Objects holding a length or an energy (react-native's `inMeters`..., Capacitor's `unit`, `value`).
        case distance, energy
        case inMeters, inKilometers, inMiles, inFeet, inInches
        case inKilocalories, inCalories, inJoules, inKilojoules
        case unit
        // Arrays of a heart-rate series' samples and a sleep session's stages, and a stage's type.
        case samples, stages, stage
        // Markers of an exercise session (react-native, Capacitor) or a workout (Flutter).
        case exerciseType, workoutActivityType
        // Names that say which energy a record holds, above records that do not say it themselves.
        case activeCaloriesBurned, totalCaloriesBurned
        // When the record was last changed (react-native's `metadata.lastModifiedTime`): known only
        // to a read for Health Connect's own total (`--rule hc-priority`), where it breaks ties, and
        // kept apart from the step fields (`Assembler.modified`), so other reads never pay for it.
        case lastModifiedTime

        /// The names a steps-only read knows: every key before `time`.
        static let stepKeys = allCases.filter { !$0.isMetric }

        /// A name only a read of metrics knows (so never one a steps-only read meets).
        @inline(__always)
        var isMetric: Bool { rawValue >= Key.time.rawValue }

        /// The name as written in JSON.
        var name: String {
            switch self {
            case .unknown: return ""
            case .dataSource: return "Data Source"
            default: return String(describing: self)
            }
        }

        /// The field of the object that a scalar value under this name fills.
        var slot: Slot? {
            switch self {
            case .start, .startTime, .start_time, .startDate, .start_date, .dateFrom, .date_from, .startTimeMillis,
                 .startTimeNanos:
                return .start
            case .end, .endTime, .end_time, .endDate, .end_date, .dateTo, .date_to, .endTimeMillis, .endTimeNanos:
                return .end
            case .count, .steps, .value, .total_steps, .totalSteps, .stepCount, .step_count, .numericValue,
                 .numeric_value, .intVal, .fpVal:
                return .count
            case .origin, .source, .dataOrigin, .app, .packageName, .package_name, .sourceName, .source_name:
                return .origin
            case .type, .recordType, .record_type, .dataType, .data_type, .dataTypeName:
                return .type
            case .date:
                return .date
            case .startZoneOffset, .start_zone_offset, .zoneOffset, .zone_offset:
                return .startOffset
            case .endZoneOffset, .end_zone_offset:
                return .endOffset
            case .totalSeconds, .total_seconds:
                return .offsetSeconds
            case .id:
                return .offsetID
            case .time:
                return .start
            case .recordingMethod, .recording_method:
                return .recordingMethod
            case .unknown, .metadata, .data, .fitValue, .records, .dataSource, .sourcePlatform, .source_platform,
                 .beatsPerMinute, .heartRateVariabilityMillis, .vo2MillilitersPerMinuteKilogram, .floors, .distance, .energy,
                 .inMeters, .inKilometers, .inMiles, .inFeet, .inInches, .inKilocalories, .inCalories, .inJoules,
                 .inKilojoules, .unit, .samples, .stages, .stage, .exerciseType, .workoutActivityType,
                 .activeCaloriesBurned, .totalCaloriesBurned, .lastModifiedTime:
                return nil
            }
        }

        /// When two names fill one field, the higher rank wins whatever the order.
        var rank: UInt8 {
            self == .value ? 0 : 1
        }

        /// Times under these names are epoch nanoseconds (Google Fit), not milliseconds.
        var isNanoseconds: Bool {
            self == .startTimeNanos || self == .endTimeNanos
        }
    }

    /// The fields of an object that matter for a record.
    enum Slot: Int, CaseIterable {
        case start, end, count, origin, type, date, startOffset, endOffset, offsetSeconds, offsetID, recordingMethod

        /// Bytes kept for the field's text; longer values are marked truncated. Every valid time,
        /// number, type or offset is far shorter; a source name longer than this is refused.
        var capacity: Int {
            switch self {
            case .origin: return 1024
            case .date, .offsetSeconds, .recordingMethod: return 32
            default: return 64
            }
        }

        /// Where the field's text starts in a frame's storage: the capacities laid end to end, written
        /// out as constants because this is computed for every value stored (a test checks the layout).
        var offset: Int {
            switch self {
            case .start: return 0
            case .end: return 64
            case .count: return 128
            case .origin: return 192
            case .type: return 1216
            case .date: return 1280
            case .startOffset: return 1312
            case .endOffset: return 1376
            case .offsetSeconds: return 1440
            case .offsetID: return 1472
            case .recordingMethod: return 1536
            }
        }

        /// Bytes of storage for all the fields of one object.
        static var storage: Int { 1568 }
    }

    /// Finds a member name among the known ones without allocating: an open-addressing table keyed
    /// by a hash of the name in ASCII lower case (names match whatever their case).
    ///
    /// Raw storage rather than arrays: this runs for every member of every object.
    final class KeyTable {
        private static let size = 256
        private let entries: UnsafeMutablePointer<UInt8>
        private let hashes: UnsafeMutablePointer<UInt32>
        /// All names in lower case, one after another; `nameStart[key]` and `nameLength[key]` find one.
        private let names: UnsafeMutablePointer<UInt8>
        private let nameStart: UnsafeMutablePointer<Int>
        private let nameLength: UnsafeMutablePointer<Int>
        private let longest: Int

        /// A table of `keys` (and nothing else: any other name is `.unknown`).
        init(_ keys: [Key]) {
            let lowered = Key.allCases.map { Array($0.name.utf8).map(KeyTable.lower) }
            longest = keys.map { lowered[Int($0.rawValue)].count }.max() ?? 0
            names = .allocate(capacity: lowered.reduce(0) { $0 + $1.count })
            nameStart = .allocate(capacity: lowered.count)
            nameLength = .allocate(capacity: lowered.count)
            var next = 0
            for (index, name) in lowered.enumerated() {
                nameStart[index] = next
                nameLength[index] = name.count
                (names + next).initialize(from: name, count: name.count)
                next += name.count
            }
            entries = .allocate(capacity: KeyTable.size)
            entries.initialize(repeating: 0, count: KeyTable.size)
            hashes = .allocate(capacity: KeyTable.size)
            hashes.initialize(repeating: 0, count: KeyTable.size)
            for key in keys where key != .unknown {
                let name = lowered[Int(key.rawValue)]
                let hash = name.withUnsafeBytes { KeyTable.hash($0) }
                var index = Int(hash >> 24)
                while entries[index] != 0 {
                    index = (index + 1) & (KeyTable.size - 1)
                }
                entries[index] = key.rawValue
                hashes[index] = hash
            }
        }

        deinit {
            entries.deallocate()
            hashes.deallocate()
            names.deallocate()
            nameStart.deallocate()
            nameLength.deallocate()
        }

        @inline(__always)
        private static func lower(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }

        /// A hash of the length and five sampled bytes (first two, middle, last two) in lower case:
        /// cheap for every member name; names that collide are told apart by the full comparison.
        @inline(__always)
        private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
            let count = bytes.count
            var mixed = UInt64(count)
            mixed = mixed << 8 | UInt64(lower(bytes[0]))
            mixed = mixed << 8 | UInt64(lower(bytes[min(1, count - 1)]))
            mixed = mixed << 8 | UInt64(lower(bytes[count / 2]))
            mixed = mixed << 8 | UInt64(lower(bytes[max(0, count - 2)]))
            mixed = mixed << 8 | UInt64(lower(bytes[count - 1]))
            return UInt32(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32)
        }

        /// The key for a member name; `.unknown` for any other name.
        @inline(__always)
        func lookup(_ bytes: UnsafeRawBufferPointer) -> Key {
            let count = bytes.count
            guard count <= longest, count > 0 else { return .unknown }
            let hash = KeyTable.hash(bytes)
            var index = Int(hash >> 24)
            while true {
                let raw = entries[index]
                if raw == 0 { return .unknown }
                if hashes[index] == hash && nameLength[Int(raw)] == count {
                    let name = names + nameStart[Int(raw)]
                    var offset = 0
                    while offset < count && name[offset] == KeyTable.lower(bytes[offset]) {
                        offset += 1
                    }
                    if offset == count {
                        return Key(rawValue: raw).unsafelyUnwrapped
                    }
                }
                index = (index + 1) & (KeyTable.size - 1)
            }
        }
    }
}
