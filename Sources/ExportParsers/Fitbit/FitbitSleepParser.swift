import HealthDays
import StreamingText

/// Counts from one Fitbit sleep file, for the report.
public struct FitbitSleepStatistics: Equatable, Sendable {
    /// Sleep logs read (skipped ones included).
    public var logs = 0
    /// Sleep logs handed to the sink.
    public var logsRead = 0
    /// Logs skipped under `InvalidRecordPolicy.skip`, with the first few.
    public var skipped = SkippedRecords()

    public init() {}
}

/// Streams Fitbit's sleep logs from Google Takeout (`Takeout/Fitbit/Global Export Data/
/// sleep-YYYY-MM-DD.json`): a JSON array of logs `{"startTime", "endTime", "type", "levels":
/// {"data": [{"dateTime", "level", "seconds"}], "shortData": [...]}, ...}`, times written as
/// local wall clocks with no zone (`2024-03-01T23:00:00.000`).
///
/// Each log gives in bed, its span, and sleep, its `levels.data` stages that are asleep (`light`,
/// `deep`, `rem`; classic logs' `asleep`), less the short wakes of `shortData` (Fitbit lists wakes
/// of three minutes or less there, inside the longer stages of `data`). A log with no stages is
/// asleep whole, as a Health Connect session without stages. Samples are marked `wallClock`, as
/// the per-minute files' are. A level Fitbit does not write is an invalid record, never guessed.
/// Push-style: one log's stages are kept at a time (at most `maximumLevels`).
public final class FitbitSleepParser: RecordParser {
    private let tokenizer: JSONTokenizer<LogAssembler>

    public init(sink: RecordSink, invalidRecords policy: InvalidRecordPolicy = .fail) {
        tokenizer = JSONTokenizer(handler: LogAssembler(sink: sink, policy: policy), allowsMultipleValues: false)
    }

    /// What was read so far.
    public var statistics: FitbitSleepStatistics { tokenizer.handler.statistics }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        try tokenizer.feed(bytes)
    }

    public func finish() throws(ParseFailure) {
        try tokenizer.finish()
    }

    /// The most stages (`data` and `shortData` together) one log may hold: a night has about a
    /// hundred.
    public static let maximumLevels = 10_000

    /// The levels of `levels.data` that are asleep, and those that are not.
    static let asleepLevels: Set<String> = ["light", "deep", "rem", "asleep"]
    static let awakeLevels: Set<String> = ["wake", "awake", "restless"]

    /// Whether the first bytes of a file (after a byte order mark and white space) open an array
    /// of sleep logs: `[` then `]` or `{`, with a member of Fitbit's sleep logs in the head.
    public static func looksLikeSleepLogs(_ head: [UInt8]) -> Bool {
        let text = ContentHead.afterBOMAndSpace(head)
        guard text.first == UInt8(ascii: "[") else { return false }
        let rest = ContentHead.afterBOMAndSpace(Array(text.dropFirst()))
        if rest.first == UInt8(ascii: "]") { return true }
        guard rest.first == UInt8(ascii: "{") else { return false }
        let members = ["\"dateOfSleep\"", "\"logId\"", "\"startTime\""].map { Array($0.utf8) }
        return members.contains { member in
            rest.indices.contains { rest[$0...].starts(with: member) }
        }
    }
}

extension FitbitSleepParser {
    /// Receives the tokens: the array, its logs, their times and their levels.
    final class LogAssembler: JSONTokenHandler {
        let sink: RecordSink
        let policy: InvalidRecordPolicy
        var statistics = FitbitSleepStatistics()

        private enum LogField { case startTime, endTime, levels, other }
        private enum LevelsField { case data, shortData, other }
        private enum EntryField { case dateTime, level, seconds, other }

        /// 0 outside the array, 1 in it, 2 in a log, 3 in its `levels`, 4 in a list of levels,
        /// 5 in one level; deeper, or in another member's value, nothing is read.
        private var depth = 0
        private var logField = LogField.other
        private var levelsField = LevelsField.other
        private var entryField = EntryField.other
        /// Whether the depth-3 object is the log's `levels`, and which list the depth-4 array is.
        private var inLevels = false
        private var list: LevelsField?

        private var logPosition = SourcePosition(line: 1, column: 1, byteOffset: 0)
        private var startTime: [UInt8] = []
        private var endTime: [UInt8] = []
        private var sawStart = false
        private var sawEnd = false
        /// The log's first problem and where it is (a level's own place, or the log's).
        private var problem: (String, SourcePosition)?
        /// The asleep stages of `data`, and the short wakes of `shortData`, as [start, end) in ms.
        private var asleep: [(start: Int64, end: Int64)] = []
        private var shortWakes: [(start: Int64, end: Int64)] = []
        private var sawData = false

        private var entryPosition = SourcePosition(line: 1, column: 1, byteOffset: 0)
        private var entryDateTime: [UInt8] = []
        private var entryLevel: [UInt8] = []
        private var entrySeconds: [UInt8] = []
        private var entryProblem: String?

        private static let maxFieldBytes = FitbitMinuteParser.maxFieldBytes
        private static let sourceUTF8: [UInt8] = Array(FitbitMinuteParser.source.utf8)

        init(sink: RecordSink, policy: InvalidRecordPolicy) {
            self.sink = sink
            self.policy = policy
        }

        private func wrongKind(_ found: String, at position: JSONPosition) -> ParseFailure {
            ParseFailure(kind: .wrongKind, at: position.sourcePosition,
                         message: "expected Fitbit's array of sleep logs, found \(found)")
        }

        /// Notes a log's first problem; the log is rejected when it ends.
        private func note(_ text: @autoclosure () -> String, at position: SourcePosition) {
            if problem == nil { problem = (text(), position) }
        }

        func objectStart(at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0: throw wrongKind("an object at the top level", at: position)
            case 1:
                startLog(at: position.sourcePosition)
                depth = 2
            case 2 where logField == .levels:
                inLevels = true
                depth = 3
            case 4 where list != nil:
                entryPosition = position.sourcePosition
                entryDateTime.removeAll(keepingCapacity: true)
                entryLevel.removeAll(keepingCapacity: true)
                entrySeconds.removeAll(keepingCapacity: true)
                entryProblem = nil
                entryField = .other
                depth = 5
            default:
                if depth == 5 && entryField != .other { entryProblem = entryProblem ?? "\(entryField) is an object" }
                depth += 1
            }
        }

        func objectEnd(at position: JSONPosition) throws(ParseFailure) {
            depth -= 1
            switch depth {
            case 4 where list != nil: finishEntry()
            case 2 where inLevels: inLevels = false
            case 1: try finishLog()
            default: break
            }
        }

        func arrayStart(at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0: depth = 1
            case 1: throw wrongKind("an array inside the array", at: position)
            case 3 where inLevels && levelsField != .other:
                list = levelsField
                if levelsField == .data { sawData = true }
                depth = 4
            default:
                if depth == 2 && logField == .levels { note("levels is an array, not an object", at: position.sourcePosition) }
                if depth == 5 && entryField != .other { entryProblem = entryProblem ?? "\(entryField) is an array" }
                depth += 1
            }
        }

        func arrayEnd(at position: JSONPosition) throws(ParseFailure) {
            depth -= 1
            if depth == 3 { list = nil }
        }

        func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 2:
                logField = utf8.elementsEqual("startTime".utf8) ? .startTime
                    : utf8.elementsEqual("endTime".utf8) ? .endTime
                    : utf8.elementsEqual("levels".utf8) ? .levels : .other
            case 3 where inLevels:
                levelsField = utf8.elementsEqual("data".utf8) ? .data
                    : utf8.elementsEqual("shortData".utf8) ? .shortData : .other
            case 5 where list != nil:
                entryField = utf8.elementsEqual("dateTime".utf8) ? .dateTime
                    : utf8.elementsEqual("level".utf8) ? .level
                    : utf8.elementsEqual("seconds".utf8) ? .seconds : .other
            default: break
            }
        }

        func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            try scalar(utf8, "a string", at: position)
        }

        func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            try scalar(text, "a number", at: position)
        }

        func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure) {
            try scalar(nil, value ? "true" : "false", at: position)
        }

        func null(at position: JSONPosition) throws(ParseFailure) {
            try scalar(nil, "null", at: position)
        }

        /// A string or number (`text`), or another scalar (`what`, with no text).
        private func scalar(_ text: UnsafeRawBufferPointer?, _ what: String, at position: JSONPosition) throws(ParseFailure) {
            let kept = text.map { Array($0.prefix(Self.maxFieldBytes + 1)) }
            switch depth {
            case 0, 1: throw wrongKind("a value that is not an object", at: position)
            case 2:
                switch logField {
                case .startTime:
                    sawStart = true
                    startTime = kept ?? Array(what.utf8)
                case .endTime:
                    sawEnd = true
                    endTime = kept ?? Array(what.utf8)
                case .levels: note("levels is \(what), not an object", at: position.sourcePosition)
                case .other: break
                }
            case 4 where list != nil:
                note("a level is \(what), not an object", at: position.sourcePosition)
            case 5 where list != nil:
                guard let kept else {
                    if entryField != .other { entryProblem = entryProblem ?? "\(entryField) is \(what)" }
                    return
                }
                switch entryField {
                case .dateTime: entryDateTime = kept
                case .level: entryLevel = kept
                case .seconds: entrySeconds = kept
                case .other: break
                }
            default: break
            }
        }

        private func startLog(at position: SourcePosition) {
            logPosition = position
            startTime.removeAll(keepingCapacity: true)
            endTime.removeAll(keepingCapacity: true)
            sawStart = false
            sawEnd = false
            problem = nil
            asleep.removeAll(keepingCapacity: true)
            shortWakes.removeAll(keepingCapacity: true)
            sawData = false
            logField = .other
            inLevels = false
            list = nil
        }

        /// One level of `data` or `shortData`: kept as an interval, or its problem noted.
        private func finishEntry() {
            guard problem == nil, let list else { return }
            let quoted = FitbitMinuteParser.quoted
            if let entryProblem { return note("a level's \(entryProblem), not a string or number", at: entryPosition) }
            guard !entryDateTime.isEmpty else { return note("a level has no dateTime", at: entryPosition) }
            guard let (startMs, _) = entryDateTime.withUnsafeBytes({ Timestamp.parse($0) }) else {
                return note("a level's dateTime \(quoted(entryDateTime)) is not a date and time as YYYY-MM-DDTHH:MM:SS",
                            at: entryPosition)
            }
            guard let seconds = entrySeconds.withUnsafeBytes({ DecimalNumber.parse($0) }) else {
                return note("a level's seconds \(quoted(entrySeconds)) is not a number", at: entryPosition)
            }
            guard seconds > 0 && seconds <= 86_400 else {
                return note("a level's seconds \(quoted(entrySeconds)) is not within 0-86,400", at: entryPosition)
            }
            guard asleep.count + shortWakes.count < FitbitSleepParser.maximumLevels else {
                return note("the log has more than \(FitbitSleepParser.maximumLevels) levels", at: entryPosition)
            }
            let level = String(decoding: entryLevel, as: UTF8.self)
            let isAsleep = FitbitSleepParser.asleepLevels.contains(level)
            guard isAsleep || FitbitSleepParser.awakeLevels.contains(level) else {
                return note("a level \(quoted(entryLevel)) is not one of light, deep, rem, asleep, wake, awake, restless",
                            at: entryPosition)
            }
            let interval = (start: startMs, end: startMs + Int64((seconds * 1000).rounded()))
            if list == .shortData {
                // Wakes of three minutes or less, whatever their level says.
                shortWakes.append(interval)
            } else if isAsleep {
                asleep.append(interval)
            }
        }

        private func finishLog() throws(ParseFailure) {
            statistics.logs += 1
            let quoted = FitbitMinuteParser.quoted
            if let (text, position) = problem { return try reject(at: position, text) }
            guard sawStart else { return try reject(at: logPosition, "it has no startTime") }
            guard sawEnd else { return try reject(at: logPosition, "it has no endTime") }
            guard let start = startTime.withUnsafeBytes({ Timestamp.parse($0) }) else {
                return try reject(at: logPosition, "startTime \(quoted(startTime)) is not a date and time as YYYY-MM-DDTHH:MM:SS")
            }
            guard let end = endTime.withUnsafeBytes({ Timestamp.parse($0) }) else {
                return try reject(at: logPosition, "endTime \(quoted(endTime)) is not a date and time as YYYY-MM-DDTHH:MM:SS")
            }
            guard end.ms > start.ms else {
                return try reject(at: logPosition, "endTime \(quoted(endTime)) is not after startTime \(quoted(startTime))")
            }
            // Placed by the end's offset, as every sleep session; Fitbit writes none: a wall clock.
            let span = HealthSample(startMs: start.ms, endMs: end.ms, offsetSeconds: end.offset, value: 0,
                                  wallClock: end.offset == nil)
            if let problem = SampleLimits.timeProblem(in: span) {
                return try reject(at: logPosition, problem.message(steps: "", start: "startTime \(quoted(startTime))",
                                                                   end: "endTime \(quoted(endTime))"))
            }
            statistics.logsRead += 1
            Self.sourceUTF8.withUnsafeBytes { source in
                sink.add(span, of: .inBed, sourceUTF8: source)
                let stages = sawData ? asleep : [(start: span.startMs, end: span.endMs)]
                for stage in stages {
                    for piece in Self.subtracting(shortWakes, from: (max(stage.start, span.startMs), min(stage.end, span.endMs))) {
                        var sample = span
                        sample.startMs = piece.start
                        sample.endMs = piece.end
                        sink.add(sample, of: .sleep, sourceUTF8: source)
                    }
                }
            }
        }

        /// The parts of `interval` outside every one of `wakes` (a few dozen a night).
        static func subtracting(_ wakes: [(start: Int64, end: Int64)],
                                from interval: (start: Int64, end: Int64)) -> [(start: Int64, end: Int64)] {
            var pieces: [(start: Int64, end: Int64)] = interval.start < interval.end ? [interval] : []
            for wake in wakes {
                pieces = pieces.flatMap { piece -> [(start: Int64, end: Int64)] in
                    guard wake.start < piece.end && wake.end > piece.start else { return [piece] }
                    return [(piece.start, wake.start), (wake.end, piece.end)].filter { $0.start < $0.end }
                }
            }
            return pieces
        }

        private func reject(at position: SourcePosition, _ text: @autoclosure () -> String) throws(ParseFailure) {
            if let failure = policy.reject(at: position, text(), record: "sleep log", skipped: &statistics.skipped) {
                throw failure
            }
        }
    }
}
