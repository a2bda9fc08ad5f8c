import HealthDays
import StreamingText
extension AppDumpJSONParser.Assembler {
    typealias Key = AppDumpJSONParser.Key
    typealias Slot = AppDumpJSONParser.Slot
    typealias Shape = AppDumpJSONParser.Shape

    /// A time as read from a record.
    struct Moment {
        var ms: Int64
        /// The offset the text itself carries (not `Z`, which says UTC and nothing about the zone).
        var offset: Int32?
        /// The text has no offset at all: a wall clock.
        var wallClock: Bool
    }

    /// Epoch times outside 2000...2100 are not milliseconds of phone data (seconds, most likely).
    static let earliestMs: Int64 = 946_684_800_000
    static let latestMs: Int64 = 4_102_444_800_000
    private static let unknownSource: [UInt8] = Array("(unknown)".utf8)
    private static let googleFitSource: [UInt8] = Array(AppDumpJSONParser.googleFitSource.utf8)
    private static let estimatedStepsPrefix: [UInt8] = Array("derived:com.google.step_count.delta:".utf8)
    private static let estimatedStepsSuffix: [UInt8] = Array(":estimated_steps".utf8)
    private static let mergedStepsSuffix: [UInt8] = Array(":merge_step_deltas".utf8)
    private static let derivedPrefix: [UInt8] = Array("derived:".utf8)
    private static let rawPrefix: [UInt8] = Array("raw:".utf8)
    static let estimatedStepsStream = "derived:com.google.step_count.delta:com.google.android.gms:estimated_steps"
    /// Record types that mean steps, in lower case without `_`, `-`, `.` and spaces.
    private static let stepTypes: [[UInt8]] = [
        "steps", "step", "stepcount", "stepscount", "stepsrecord", "hkquantitytypeidentifierstepcount",
        "comgooglestepcountdelta", "stepcountdelta", "healthdatatypesteps",
    ].map { Array($0.utf8) }

    // MARK: - Deciding what an object was

    /// Called when an object ends: hands on a record, counts one of another type, or passes the
    /// fields of a nested part (zone offset, metadata, HCGateway's `data`, Flutter's `value`,
    /// Takeout's `fitValue`) up to the object around it.
    func finishObject(_ index: Int) throws(ParseFailure) {
        if readsMetrics, try finishMetricObject(index) { return }
        let start = field(.start, of: index)
        let end = field(.end, of: index)
        let count = field(.count, of: index)
        let type = field(.type, of: index)

        if start.key.isNanoseconds || end.key.isNanoseconds || count.via == .fitValue {
            return try googleFitPoint(index)
        }
        let timed = start.isPresent || end.isPresent
        let dated = field(.date, of: index).isPresent
        let typed = type.kind == .string
        let steps = typed && isStepsType(index)
        if typed && !steps {
            if timed || dated {
                statistics.records += 1
                statistics.otherTypeRecords += 1
                noteShape(shape(of: index, dayTotal: !timed))
            } else {
                passUp(index)
            }
            return
        }
        if timed && (steps || count.isPresent) {
            try stepRecord(index, shape: shape(of: index, dayTotal: false))
        } else if dated && (steps || count.isPresent) {
            try dayTotal(index)
        } else if steps && count.isPresent {
            statistics.records += 1
            noteShape(shape(of: index, dayTotal: false))
            try invalid(index, "a steps record with no start time and no date")
        } else {
            // Not a record: a nested part, or a container such as {"type":"Steps","records":[...]}.
            passUp(index)
        }
    }

    /// The shape a record's members point to.
    func shape(of index: Int, dayTotal: Bool) -> Shape {
        if dayTotal { return .dayTotals }
        let start = field(.start, of: index).key
        let end = field(.end, of: index).key
        if frames[index].flutterMarker || start == .dateFrom || start == .date_from || end == .dateTo || end == .date_to {
            return .flutterHealth
        }
        if field(.count, of: index).via == .data {
            return .hcGateway
        }
        let origin = field(.origin, of: index)
        if start == .startTime || end == .endTime {
            if field(.type, of: index).kind == .string { return .capacitor }
            if origin.via == .metadata || field(.startOffset, of: index).via != .unknown {
                return .reactNativeHealthConnect
            }
        }
        return .plainRecords
    }

    func isStepsType(_ index: Int) -> Bool {
        guard !field(.type, of: index).truncated else { return false }
        return withNormalizedType(of: index) { written in Self.stepTypes.contains { $0.elementsEqual(written) } }
    }

    /// Calls `body` with the record type of the object at `index` in lower case, without `_`,
    /// `-`, `.` and spaces (`DISTANCE_DELTA` is `distancedelta`).
    @inline(__always)
    func withNormalizedType<Result>(of index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let text = self.text(.type, of: index)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Slot.type.capacity) { normalized in
            var count = 0
            for byte in text {
                switch byte {
                case 0x5F, 0x2D, 0x2E, 0x20: continue
                case 0x41...0x5A: normalized[count] = byte | 0x20
                default: normalized[count] = byte
                }
                count += 1
            }
            return body(UnsafeBufferPointer(rebasing: normalized[0..<count]))
        }
    }

    /// Hands the fields of a nested object that is not a record to the object it belongs to.
    private func passUp(_ index: Int) {
        guard index > 0 else { return }
        var target = index - 1
        let key = frames[target].key
        if frames[target].isArray {
            // Only the first element counts: Takeout's fitValue holds one value per point.
            guard frames[target].elements == 1, target > 0, !frames[target - 1].isArray else { return }
            target -= 1
        }
        switch key {
        case .startZoneOffset, .start_zone_offset, .zoneOffset, .zone_offset:
            passOffset(from: index, to: .startOffset, of: target, via: key)
        case .endZoneOffset, .end_zone_offset:
            passOffset(from: index, to: .endOffset, of: target, via: key)
        case .metadata, .dataOrigin, .origin, .source:
            if prioritySink != nil && key == .metadata {
                passModifiedUp(from: index, to: target)
            }
            if key == .metadata && enteredByHand(index) { frames[target].enteredByHand = true }
            // The record's own member wins over one in its metadata.
            let existing = field(.origin, of: target)
            let origin = field(.origin, of: index)
            guard origin.kind == .string, origin.length > 0,
                  !(existing.kind == .string && existing.length > 0) else { return }
            copy(.origin, from: index, to: .origin, of: target, via: key == .dataOrigin ? .metadata : key)
        case .data, .value, .fitValue:
            guard field(.count, of: index).isPresent else { return }
            copy(.count, from: index, to: .count, of: target, via: key)
        default:
            break
        }
    }

    private func passOffset(from index: Int, to slot: Slot, of target: Int, via key: Key) {
        if field(.offsetSeconds, of: index).hasValue {
            copy(.offsetSeconds, from: index, to: slot, of: target, via: key)
        } else if field(.offsetID, of: index).hasValue {
            copy(.offsetID, from: index, to: slot, of: target, via: key)
        }
    }

    // MARK: - Step records

    private func stepRecord(_ index: Int, shape: Shape) throws(ParseFailure) {
        statistics.records += 1
        noteShape(shape)
        guard var sample = try readInterval(index, googleFit: false) else { return }
        sample.enteredByHand = enteredByHand(index)
        let origin = field(.origin, of: index)
        if origin.kind == .string && origin.truncated {
            return try invalid(index, "\(origin.name) is longer than \(Slot.origin.capacity) bytes, too long for a source name")
        }
        statistics.stepRecords += 1
        if sample.wallClock {
            statistics.wallClock += 1
        } else if sample.offsetSeconds == nil {
            statistics.withoutOffset += 1
        }
        if let prioritySink {
            let time = modified[index]
            withSource(index) { prioritySink.add(sample, lastModifiedMs: time == .min ? nil : time, sourceUTF8: $0) }
        } else {
            withSource(index) { sink.add(sample, sourceUTF8: $0) }
        }
    }

    private func googleFitPoint(_ index: Int) throws(ParseFailure) {
        guard streamDepth >= 0 && streamDepth < index else {
            let at = frames[index].position
            throw ParseFailure(kind: .wrongKind, at: at.sourcePosition,
                               message: "Google Fit data points with no \"Data Source\" before them: cannot tell which "
                                   + "stream they are (only the estimated_steps stream matches Google Fit's totals)")
        }
        statistics.records += 1
        guard let sample = try readInterval(index, googleFit: true) else { return }
        statistics.stepRecords += 1
        statistics.withoutOffset += 1
        Self.googleFitSource.withUnsafeBytes { sink.add(sample, sourceUTF8: $0) }
    }

    /// Reads start, end, zone and count; nil when the record was invalid and skipped.
    private func readInterval(_ index: Int, googleFit: Bool) throws(ParseFailure) -> HealthSample? {
        guard var sample = try readTimes(index, googleFit: googleFit) else { return nil }
        guard let steps = try count(index, googleFit: googleFit) else { return nil }
        sample.value = steps
        if let problem = SampleLimits.problem(in: sample, negativeAllowed: googleFit) {
            let startField = field(.start, of: index)
            let endField = field(.end, of: index)
            let countField = field(.count, of: index)
            let zone = zoneSlot(index)
            try invalid(index, problem.message(
                steps: "\(countField.name) \(quoted(.count, of: index))",
                start: "\(startField.name) \(quoted(.start, of: index))",
                end: "\(endField.name) \(quoted(.end, of: index))",
                offset: zone.map { "\(field($0, of: index).name) \(quoted($0, of: index))" }
                    ?? "the offset of \(startField.name) \(quoted(.start, of: index))"))
            return nil
        }
        return sample
    }

    /// The zone offset field a record is placed by: `startZoneOffset` (or `zoneOffset`), else
    /// `endZoneOffset`; with `endFirst` (a sleep session, placed by the night's end) the other way.
    @inline(__always)
    func zoneSlot(_ index: Int, endFirst: Bool = false) -> Slot? {
        let first: Slot = endFirst ? .endOffset : .startOffset
        let second: Slot = endFirst ? .startOffset : .endOffset
        if field(first, of: index).hasValue { return first }
        if field(second, of: index).hasValue { return second }
        return nil
    }

    /// Reads start, end and zone, each checked as a step record's: the sample with value 0, nil
    /// when the record was invalid and skipped. An `instant` needs no end (or a null one): it
    /// ends when it starts. The times' bounds are the caller's to check, with its value.
    @inline(__always)
    func readTimes(_ index: Int, googleFit: Bool, instant: Bool = false, endOffsetFirst: Bool = false)
        throws(ParseFailure) -> HealthSample? {
        let startField = field(.start, of: index)
        var endField = field(.end, of: index)
        var endSlot = Slot.end
        if instant && !endField.hasValue {
            endField = startField
            endSlot = .start
        }
        guard startField.isPresent else {
            try invalid(index, googleFit ? "missing startTimeNanos"
                            : instant ? "missing time (time, start, startTime or dateFrom)"
                            : "missing start time (start, startTime, start_time, startDate, dateFrom or date_from)")
            return nil
        }
        guard endField.isPresent else {
            try invalid(index, googleFit ? "missing endTimeNanos"
                            : "missing end time (end, endTime, end_time, endDate, dateTo or date_to)")
            return nil
        }
        guard let start = moment(.start, of: index) else {
            try invalid(index, timeProblem(.start, of: index))
            return nil
        }
        guard let end = moment(endSlot, of: index) else {
            try invalid(index, timeProblem(endSlot, of: index))
            return nil
        }
        guard start.wallClock == end.wallClock else {
            let (with, without) = start.wallClock ? (endField, startField) : (startField, endField)
            try invalid(index, "\(with.name) has a UTC offset and \(without.name) has none")
            return nil
        }
        var offset: Int32? = nil
        let zone = zoneSlot(index, endFirst: endOffsetFirst)
        if let zone {
            guard let seconds = zoneOffset(zone, of: index) else {
                let written = field(zone, of: index)
                try invalid(index, "\(written.name) \(quoted(zone, of: index)) is not a UTC offset "
                                + "(such as \"+09:00\" or a number of seconds)")
                return nil
            }
            offset = seconds
        }
        var startMs = start.ms
        var endMs = end.ms
        var wallClock = start.wallClock
        if let offset, wallClock {
            // A wall time with its zone offset given beside it is an instant.
            startMs -= Int64(offset) * 1000
            endMs -= Int64(offset) * 1000
            wallClock = false
        } else if offset == nil && !wallClock {
            offset = start.offset ?? end.offset
        }
        guard endMs >= startMs else {
            try invalid(index, "\(endField.name) \(quoted(endSlot, of: index)) is before \(startField.name) \(quoted(.start, of: index))")
            return nil
        }
        return HealthSample(startMs: startMs, endMs: endMs, offsetSeconds: offset, value: 0, wallClock: wallClock)
    }

    /// The step count, checked; nil when invalid and skipped.
    private func count(_ index: Int, googleFit: Bool) throws(ParseFailure) -> Double? {
        let count = field(.count, of: index)
        switch count.kind {
        case .absent:
            try invalid(index, googleFit ? "missing fitValue intVal"
                            : "missing step count (count, steps, total_steps, value or numericValue)")
            return nil
        case .null:
            try invalid(index, "\(count.name) is null, not a step count")
            return nil
        case .bool:
            try invalid(index, "\(count.name) is \(quoted(.count, of: index)), not a step count")
            return nil
        case .object, .array:
            try invalid(index, "\(count.name) is \(count.kind == .object ? "an object" : "an array"), not a step count")
            return nil
        case .string, .number:
            guard !count.truncated, let value = DecimalNumber.parse(text(.count, of: index)) else {
                try invalid(index, "\(count.name) \(quoted(.count, of: index)) is not a number")
                return nil
            }
            // Google Fit writes negative corrections and counts them; keep them as written.
            guard googleFit || value >= 0 else {
                try invalid(index, "\(count.name) \(quoted(.count, of: index)) is negative")
                return nil
            }
            return value
        }
    }

    // MARK: - Day totals

    private func dayTotal(_ index: Int) throws(ParseFailure) {
        statistics.records += 1
        noteShape(.dayTotals)
        let dateField = field(.date, of: index)
        guard dateField.kind == .string, let date = LocalDate(text(.date, of: index)) else {
            return try invalid(index, "date \(quoted(.date, of: index)) is not a date (YYYY-MM-DD)")
        }
        guard let steps = try count(index, googleFit: false) else { return }
        if let problem = SampleLimits.problem(inDayTotal: date, steps: steps) {
            let countField = field(.count, of: index)
            let dateText = "date \(quoted(.date, of: index))"
            return try invalid(index, problem.message(steps: "\(countField.name) \(quoted(.count, of: index))",
                                                      start: dateText, end: dateText))
        }
        let origin = field(.origin, of: index)
        if origin.kind == .string && origin.truncated {
            return try invalid(index, "\(origin.name) is longer than \(Slot.origin.capacity) bytes, too long for a source name")
        }
        statistics.dayTotals += 1
        withSource(index) { sink.addDayTotal(date, steps: steps, sourceUTF8: $0) }
    }

    // MARK: - Sources

    /// Calls `body` with the record's source: its origin (the phone's counter under one name),
    /// or `(unknown)`.
    @inline(__always)
    /// Whether the record at `index` says it was typed in by hand: its own or its metadata's
    /// recording method of 3, or a name of it (`RECORDING_METHOD_MANUAL_ENTRY`, `MANUAL_ENTRY`,
    /// `manual`), in any case. Nothing is allocated: this runs for every record of a dump.
    func enteredByHand(_ index: Int) -> Bool {
        if frames[index].enteredByHand { return true }
        guard field(.recordingMethod, of: index).hasValue else { return false }
        let text = self.text(.recordingMethod, of: index)
        if text.count == 1 { return text[0] == UInt8(ascii: "3") }
        return Self.manualEntryNames.contains { name in
            name.count == text.count && zip(name, text).allSatisfy { $0 == ($1 >= 0x41 && $1 <= 0x5A ? $1 | 0x20 : $1) }
        }
    }

    static let manualEntryNames: [[UInt8]] = ["recording_method_manual_entry", "manual_entry", "manual"].map { Array($0.utf8) }

    func withSource(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        let origin = field(.origin, of: index)
        if origin.kind == .string && origin.length > 0 {
            HealthConnectOrigin.withCanonical(text(.origin, of: index), body)
        } else {
            Self.unknownSource.withUnsafeBytes(body)
        }
    }

    // MARK: - Times and offsets

    /// A start or end time: ISO 8601 (with `Z`, an offset, or none for a wall clock), or epoch
    /// milliseconds (nanoseconds under `startTimeNanos`/`endTimeNanos`) as a number or digit string.
    func moment(_ slot: Slot, of index: Int) -> Moment? {
        let field = self.field(slot, of: index)
        guard !field.truncated, field.kind == .string || field.kind == .number else { return nil }
        let text = self.text(slot, of: index)
        if field.kind == .number || Self.isInteger(text) {
            guard let value = Self.integer(text) else { return nil }
            let ms = field.key.isNanoseconds ? floorDiv(value, 1_000_000) : value
            guard ms >= Self.earliestMs && ms < Self.latestMs else { return nil }
            return Moment(ms: ms, offset: nil, wallClock: false)
        }
        guard let parsed = Timestamp.parse(text) else { return nil }
        guard let offset = parsed.offset else {
            return Moment(ms: parsed.ms, offset: nil, wallClock: true)
        }
        // `Z` is UTC notation, not a zone: the sample's zone is unknown.
        return Moment(ms: parsed.ms, offset: text.last == 0x5A ? nil : offset, wallClock: false)
    }

    func timeProblem(_ slot: Slot, of index: Int) -> String {
        let field = self.field(slot, of: index)
        let name = field.name
        switch field.kind {
        case .null:
            return "\(name) is null, not a time"
        case .number:
            return "\(name) \(quoted(slot, of: index)) is not epoch \(field.key.isNanoseconds ? "nanoseconds" : "milliseconds") "
                + "between 2000 and 2100"
        default:
            if field.kind == .string && !field.truncated && Self.isInteger(text(slot, of: index)) {
                return "\(name) \(quoted(slot, of: index)) is not epoch milliseconds between 2000 and 2100"
            }
            return "\(name) \(quoted(slot, of: index)) is not a time (ISO 8601 such as 2024-05-01T08:00:00Z, "
                + "or epoch milliseconds)"
        }
    }

    /// Seconds east of UTC: a number of seconds, or text such as `+09:00`, `+0900`, `-05`, `Z`
    /// (not `z`, and not seconds in a string).
    func zoneOffset(_ slot: Slot, of index: Int) -> Int32? {
        let field = self.field(slot, of: index)
        guard !field.truncated else { return nil }
        let text = self.text(slot, of: index)
        switch field.kind {
        case .number:
            // JSON's grammar allows no `+` and no leading zeros, so a JSON number is a counted
            // offset exactly when it is an integer within ±18 hours.
            return UTCOffset.parse(seconds: text)
        case .string:
            return UTCOffset.parse(text)
        default:
            return nil
        }
    }

    @inline(__always)
    static func isInteger(_ text: UnsafeRawBufferPointer) -> Bool {
        guard !text.isEmpty else { return false }
        for (position, byte) in text.enumerated() where !(byte &- 0x30 < 10 || (position == 0 && byte == 0x2D && text.count > 1)) {
            return false
        }
        return true
    }

    /// An integer written in decimal digits (a leading `-` allowed); nil on overflow or any other byte.
    @inline(__always)
    static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard !text.isEmpty else { return nil }
        let negative = text[0] == 0x2D
        var index = negative ? 1 : 0
        guard index < text.count else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = Int64(text[index]) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    func quoted(_ slot: Slot, of index: Int) -> String {
        let field = self.field(slot, of: index)
        let written = String(decoding: text(slot, of: index), as: UTF8.self) + (field.truncated ? "…" : "")
        return field.kind == .string ? "\"\(written)\"" : written
    }

    // MARK: - Invalid records

    /// Stops on an invalid record, or counts it under `.skip`; the message is only built when it is
    /// used, so a dump full of bad records costs no string work past the first few.
    func invalid(_ index: Int, _ problem: @autoclosure () -> String) throws(ParseFailure) {
        let at = frames[index].position
        if let failure = policy.reject(at: at.sourcePosition, problem(), record: recordWords, skipped: &statistics.skipped) {
            throw failure
        }
    }

    // MARK: - Google Fit streams

    /// A Takeout stream's `"Data Source"`: `estimated_steps`, the one that matches Fit's totals, or
    /// `merge_step_deltas` (a file given alone: the reader of a whole Takeout reads it only when
    /// there is no `estimated_steps` stream); any other stream is refused at once, because it holds
    /// the same steps again (or no steps at all).
    func readDataSource(_ utf8: UnsafeRawBufferPointer, frame: Int, at position: JSONPosition) throws(ParseFailure) {
        // Fit's data source ids are `derived:...` or `raw:...`; anything else is some app's own member.
        guard utf8.starts(with: Self.derivedPrefix) || utf8.starts(with: Self.rawPrefix) else { return }
        let name = String(decoding: utf8.prefix(300), as: UTF8.self)
        if utf8.starts(with: Self.estimatedStepsPrefix) && utf8.reversed().starts(with: Self.estimatedStepsSuffix.reversed()) {
            streamDepth = frame
            statistics.googleFitDataSource = name
            noteShape(.googleFitEstimatedSteps)
            return
        }
        if utf8.starts(with: Self.estimatedStepsPrefix) && utf8.reversed().starts(with: Self.mergedStepsSuffix.reversed()) {
            streamDepth = frame
            statistics.googleFitDataSource = name
            noteShape(.googleFitMergedSteps)
            return
        }
        let message: String
        if name.contains("step_count") {
            message = "the Google Fit stream \"\(name)\": only the estimated_steps stream (\"\(Self.estimatedStepsStream)\") "
                + "matches Google Fit's own step totals, and merge_step_deltas comes near; this one repeats the same steps "
                + "another way, so adding it would double count. Read the Takeout whole (stepimport hc Takeout), or its "
                + "Fit/Daily activity metrics/Daily activity metrics.csv, or the All Data file whose \"Data Source\" ends "
                + "in :estimated_steps or :merge_step_deltas"
        } else {
            message = "the Google Fit stream \"\(name)\", which holds no step counts; steps are in the stream "
                + "\"\(Self.estimatedStepsStream)\""
        }
        throw ParseFailure(kind: .wrongKind, at: position.sourcePosition, message: message)
    }

    // MARK: - The end

    /// Fails when the document held nothing recognisable: no record of any type, and no shape
    /// (an empty react-native-health-connect page, an empty estimated_steps stream, or `[]`).
    func finishDocument() throws(ParseFailure) {
        if statistics.records > 0 || !statistics.shapes.isEmpty { return }
        if sawRecordsContainer {
            noteShape(.reactNativeHealthConnect)
            return
        }
        if summary.kind == .array && summary.elements == 0 && summary.values == 1 { return }
        throw ParseFailure(kind: .wrongKind, line: 1, column: 1, byteOffset: 0,
                           message: describeDocument() + ", with no step records in a shape stepimport reads: "
                               + "react-native-health-connect ({\"records\":[...]}), HCGateway, Capacitor, Flutter health, "
                               + "records with start, end and count, day totals with date and steps, "
                               + "or Google Fit Takeout's estimated_steps stream")
    }

    private func describeDocument() -> String {
        func keyList() -> String {
            let names = summary.keys.map { "\"\($0)\"" }.joined(separator: ", ")
            return summary.otherKeys > 0 ? "\(names) and \(summary.otherKeys) more" : names
        }
        var text: String
        switch summary.kind {
        case .object?:
            text = summary.keys.isEmpty ? "an empty JSON object" : "a JSON object with the keys \(keyList())"
        case .array?:
            let values = "a JSON array of \(summary.elements) value\(summary.elements == 1 ? "" : "s")"
            if summary.firstElement == .object {
                text = summary.keys.isEmpty ? "\(values), the first an empty object"
                    : "\(values), the first an object with the keys \(keyList())"
            } else {
                text = "\(values), the first \(summary.firstElement?.rawValue ?? "nothing")"
            }
        case let kind?:
            text = "a JSON document that is just \(kind.rawValue)"
        case nil:
            text = "an empty JSON document"
        }
        if summary.values > 1 {
            text += " (the first of \(summary.values) top-level values)"
        }
        return text
    }
}
