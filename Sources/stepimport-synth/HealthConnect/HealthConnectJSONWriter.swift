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
            appendMetadata(record.metadata, to: &out)
            out.append("}")
        case .hcGateway:
            appendGatewayIDs(record.metadata, to: &out)
            out.append("\"data\":{\"count\":")
            out.append(int: record.count)
            appendGatewayEnd(record.metadata, start: record.startMs, end: record.endMs, to: &out)
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
            out.append(",")
            appendMetadata(record.metadata, complete: false, to: &out)
            out.append("}")
        case .flutter, .flutterSnake:
            appendPoint(record.metadata, type: "STEPS", unit: "COUNT", from: record.wallStartMs, to: record.wallEndMs, to: &out,
                        separated: true) {
                $0.append(int: record.count)
            }
        case .dayTotals:
            preconditionFailure("day totals are written with appendDayTotal")
        }
    }

    /// react-native-health-connect's `metadata` member (`convertMetadataToJSMap`); not `complete`,
    /// only its id, origin and time (Capacitor's step records).
    func appendMetadata(_ metadata: HealthConnectRecordMetadata, complete: Bool = true, to out: inout ByteBuffer) {
        out.append("\"metadata\":{\"id\":\"")
        out.append(uuidHigh: metadata.uuidHigh, low: metadata.uuidLow)
        out.append("\",\"dataOrigin\":")
        out.append(jsonString: metadata.app.packageName)
        out.append(",\"lastModifiedTime\":\"")
        out.append(isoInstantMs: metadata.lastModifiedMs)
        out.append("\"")
        guard complete else { return out.append("}") }
        if metadata.clientID != 0 {
            out.append(",\"clientRecordId\":\"")
            out.append(metadata.app == .samsung ? "shealth-" : "fit-")
            out.append(hex: metadata.clientID, digits: 16)
            out.append("\",\"clientRecordVersion\":1")
        }
        out.append(",\"device\":{\"type\":")
        out.append(int: HealthConnectApp.devices[metadata.deviceID - 1].3)
        out.append("},\"recordingMethod\":")
        out.append(int: metadata.recordingMethod.rawValue)
        out.append("}")
    }
}
