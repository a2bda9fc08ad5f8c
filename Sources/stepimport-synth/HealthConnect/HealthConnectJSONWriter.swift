/// Formats step records in one of the JSON shapes, one record a line, into a `ByteBuffer`
/// that the caller flushes to the file as it fills (so a gigabyte streams in flat memory).
struct HealthConnectJSONWriter {
    let shape: HealthConnectJSONShape
    /// Whether each metric record type follows the step records under a member of its own
    /// (`--metrics` in the react-native and HCGateway shapes).
    let sections: Bool
    /// No record written yet in the current array.
    var first = true

    init(shape: HealthConnectJSONShape, metrics: Bool = false) {
        self.shape = shape
        sections = metrics && shape.hasMetricSections
    }

    /// The opening of the document.
    func appendHead(to out: inout ByteBuffer) {
        if sections && shape == .hcGateway {
            return out.append("{\"steps\":[")
        }
        switch shape {
        case .reactNative, .reactNativeNoOffsets, .capacitor:
            out.append("{\"records\":[")
        case .hcGateway, .flutter, .flutterSnake, .dayTotals:
            out.append("[")
        }
    }

    /// The end of the document.
    func appendTail(to out: inout ByteBuffer) {
        if sections {
            return out.append(shape == .hcGateway ? "\n]}\n" : "\n],\"pageToken\":null}}\n")
        }
        switch shape {
        case .reactNative, .reactNativeNoOffsets:
            out.append("\n],\"pageToken\":null}\n")
        case .capacitor:
            out.append("\n]}\n")
        case .hcGateway, .flutter, .flutterSnake, .dayTotals:
            out.append("\n]\n")
        }
    }

    mutating func separate(_ out: inout ByteBuffer) {
        out.append(first ? "\n" : ",\n")
        first = false
    }

    /// One day total (the `day-totals` shape).
    mutating func appendDayTotal(dayNumber: Int, steps: Int, to out: inout ByteBuffer) {
        separate(&out)
        out.append("{\"date\":\"")
        out.append(Array(CivilDate(dayNumber: dayNumber).text.utf8))
        out.append("\",\"steps\":")
        out.append(int: steps)
        out.append("}")
    }

    /// One step record.
    mutating func append(_ record: HealthConnectRecord, to out: inout ByteBuffer) {
        separate(&out)
        switch shape {
        case .reactNative, .reactNativeNoOffsets:
            out.append("{\"startTime\":\"")
            out.append(isoInstantMs: record.startMs)
            out.append("\",\"endTime\":\"")
            out.append(isoInstantMs: record.endMs)
            out.append("\",\"count\":")
            out.append(int: record.count)
            if shape == .reactNative {
                out.append(",\"startZoneOffset\":{\"id\":\"")
                out.append(offsetID: record.startOffset)
                out.append("\",\"totalSeconds\":")
                out.append(int: Int(record.startOffset))
                out.append("},\"endZoneOffset\":{\"id\":\"")
                out.append(offsetID: record.endOffset)
                out.append("\",\"totalSeconds\":")
                out.append(int: Int(record.endOffset))
                out.append("}")
            }
            out.append(",")
            appendMetadata(uuidHigh: record.uuidHigh, uuidLow: record.uuidLow, app: record.app,
                           lastModifiedMs: record.lastModifiedMs, clientID: record.clientID, deviceID: record.app.deviceID,
                           recordingMethod: record.recordingMethod, to: &out)
            out.append("}")
        case .hcGateway:
            out.append("{\"_id\":\"")
            out.append(uuidHigh: record.uuidHigh, low: record.uuidLow)
            out.append("\",\"id\":\"")
            out.append(uuidHigh: record.uuidHigh, low: record.uuidLow)
            out.append("\",\"data\":{\"count\":")
            out.append(int: record.count)
            out.append("},\"app\":")
            out.append(jsonString: record.app.packageName)
            // Kotlin's Instant.toString(): no fraction when it is zero.
            out.append(",\"start\":\"")
            out.append(isoInstantMs: record.startMs, alwaysFraction: false)
            out.append("\",\"end\":\"")
            out.append(isoInstantMs: record.endMs, alwaysFraction: false)
            out.append("\"}")
        case .capacitor:
            out.append("{\"type\":\"Steps\",\"startTime\":\"")
            out.append(isoInstantMs: record.startMs)
            out.append("\",\"startZoneOffset\":\"")
            out.append(offsetID: record.startOffset)
            out.append("\",\"endTime\":\"")
            out.append(isoInstantMs: record.endMs)
            out.append("\",\"endZoneOffset\":\"")
            out.append(offsetID: record.endOffset)
            out.append("\",\"count\":")
            out.append(int: record.count)
            out.append(",\"metadata\":{\"id\":\"")
            out.append(uuidHigh: record.uuidHigh, low: record.uuidLow)
            out.append("\",\"dataOrigin\":")
            out.append(jsonString: record.app.packageName)
            out.append(",\"lastModifiedTime\":\"")
            out.append(isoInstantMs: record.lastModifiedMs)
            out.append("\"}}")
        case .flutter:
            out.append("{\"uuid\":\"")
            out.append(uuidHigh: record.uuidHigh, low: record.uuidLow)
            out.append("\",\"value\":{\"__type\":\"NumericHealthValue\",\"numericValue\":")
            out.append(int: record.count)
            out.append("},\"type\":\"STEPS\",\"unit\":\"COUNT\",\"dateFrom\":\"")
            out.append(wallClockMs: record.wallStartMs)
            out.append("\",\"dateTo\":\"")
            out.append(wallClockMs: record.wallEndMs)
            out.append("\",\"sourcePlatform\":\"googleHealthConnect\",\"sourceDeviceId\":")
            out.append(jsonString: HealthConnectApp.devices[record.app.deviceID - 1].2)
            out.append(",\"sourceId\":")
            out.append(jsonString: record.app.packageName)
            out.append(",\"sourceName\":")
            out.append(jsonString: record.app.packageName)
            out.append(",\"recordingMethod\":\"")
            out.append(record.recordingMethod == .manualEntry ? "manual" : "automatic")
            out.append("\"}")
        case .flutterSnake:
            out.append("{\"value\":{\"numeric_value\":")
            out.append(int: record.count)
            out.append("},\"data_type\":\"STEPS\",\"unit\":\"COUNT\",\"date_from\":\"")
            out.append(wallClockMs: record.wallStartMs)
            out.append("\",\"date_to\":\"")
            out.append(wallClockMs: record.wallEndMs)
            out.append("\",\"platform_type\":\"ANDROID\",\"device_id\":")
            out.append(jsonString: HealthConnectApp.devices[record.app.deviceID - 1].2)
            out.append(",\"source_id\":")
            out.append(jsonString: record.app.packageName)
            out.append(",\"source_name\":")
            out.append(jsonString: record.app.packageName)
            out.append("}")
        case .dayTotals:
            preconditionFailure("day totals are written with appendDayTotal")
        }
    }

    /// react-native-health-connect's `metadata` member (`convertMetadataToJSMap`).
    func appendMetadata(uuidHigh: UInt64, uuidLow: UInt64, app: HealthConnectApp, lastModifiedMs: Int64, clientID: UInt64,
                        deviceID: Int, recordingMethod: HealthConnectRecord.RecordingMethod, to out: inout ByteBuffer) {
        out.append("\"metadata\":{\"id\":\"")
        out.append(uuidHigh: uuidHigh, low: uuidLow)
        out.append("\",\"dataOrigin\":")
        out.append(jsonString: app.packageName)
        out.append(",\"lastModifiedTime\":\"")
        out.append(isoInstantMs: lastModifiedMs)
        out.append("\"")
        if clientID != 0 {
            out.append(",\"clientRecordId\":\"")
            out.append(app == .samsung ? "shealth-" : "fit-")
            out.append(hex: clientID, digits: 16)
            out.append("\",\"clientRecordVersion\":1")
        }
        out.append(",\"device\":{\"type\":")
        out.append(int: HealthConnectApp.devices[deviceID - 1].3)
        out.append("},\"recordingMethod\":")
        out.append(int: recordingMethod.rawValue)
        out.append("}")
    }
}
