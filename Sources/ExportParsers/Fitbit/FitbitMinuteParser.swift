import HealthDays
import StreamingText

/// Counts from one Fitbit per-minute file, for the report.
public struct FitbitMinuteStatistics: Equatable, Sendable {
    /// Objects read as minute rows (skipped ones included).
    public var rows = 0
    /// Rows handed to the sink: minutes, or heart-rate readings.
    public var minutes = 0
    /// Rows skipped under `InvalidRecordPolicy.skip`, with the first few.
    public var skipped = SkippedRecords()

    public init() {}
}

/// Streams one of Fitbit's time-series files from Google Takeout (`Takeout/Fitbit/Global Export
/// Data/steps-YYYY-MM-DD.json`, `distance-`, `calories-`, `heart_rate-`): a JSON array of
/// `{"dateTime": "MM/DD/YY HH:MM:SS", "value": "N"}`, the value written as a string, about a month
/// of minutes a file; heart rate's value is an object `{"bpm": N, "confidence": N}`, a reading
/// every few seconds.
///
/// `dateTime` is the account's local wall clock with no zone (docs/fitbit.md gives the evidence),
/// so each row is a sample marked `wallClock` (a minute, or a heart-rate instant): it counts on the
/// date written, or is read in the `--tz` zone. Push-style and flat in memory: one row's two
/// fields are kept at a time.
public final class FitbitMinuteParser: RecordParser {
    /// What a Fitbit time-series file holds, from its name (the rows of every kind look alike).
    public enum Kind: String, Sendable, CaseIterable {
        /// Steps a minute.
        case steps
        /// Centimetres a minute (docs/fitbit.md gives the evidence), handed on in metres.
        case distance
        /// Kilocalories a minute, the body's resting energy included: total energy, never active.
        case calories
        /// Readings of `{"bpm", "confidence"}`, each at its own instant.
        case heartRate = "heart_rate"
        /// Sleep logs with their stages: read by `FitbitSleepParser`, not this one.
        case sleep

        /// The file name's prefix: `steps-` for `steps-2022-07-16.json`.
        public var fileNamePrefix: String { rawValue + "-" }

        /// The metrics its rows give.
        public var metrics: [Metric] {
            switch self {
            case .steps: [.steps]
            case .distance: [.distance]
            case .calories: [.totalEnergy]
            case .heartRate: [.heartRate]
            case .sleep: [.sleep, .inBed]
            }
        }

        /// The metric a minute or reading gives (a sleep log gives in bed too).
        public var metric: Metric { metrics[0] }

        /// The kind that gives `metric`, if any.
        public init?(giving metric: Metric) {
            guard let kind = Kind.allCases.first(where: { $0.metrics.contains(metric) }) else { return nil }
            self = kind
        }

        /// What a row's value must be, for messages.
        var valueNoun: String {
            switch self {
            case .steps: "a count"
            case .distance: "a distance"
            case .calories: "a number of kilocalories"
            case .heartRate: #"an object {"bpm", "confidence"}"#
            case .sleep: "a sleep log"
            }
        }

        /// What the value written is divided by for the metric's column unit (a division, so that
        /// 150.5 cm is the `Double` nearest 1.505 m).
        var divisor: Double { self == .distance ? 100 : 1 }
    }

    /// The source name of every Fitbit sample: the export has one account and no app names.
    public static let source = "Fitbit"

    private let tokenizer: JSONTokenizer<RowAssembler>

    /// A parser of a file of `kind` (by its name); steps unless told.
    public init(sink: RecordSink, kind: Kind = .steps, invalidRecords policy: InvalidRecordPolicy = .fail) {
        tokenizer = JSONTokenizer(handler: RowAssembler(sink: sink, kind: kind, policy: policy), allowsMultipleValues: false)
    }

    /// What the file holds.
    public var kind: Kind { tokenizer.handler.kind }

    /// What was read so far.
    public var statistics: FitbitMinuteStatistics { tokenizer.handler.statistics }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        try tokenizer.feed(bytes)
    }

    public func finish() throws(ParseFailure) {
        try tokenizer.finish()
    }

    /// Whether the first bytes of a file (after a byte order mark and white space) open an array
    /// whose first object's first member is `dateTime` with a `MM/` date: Fitbit's per-minute
    /// layout (other dumps have a `value` member too, Flutter's first). The rows are checked one by
    /// one as they are read.
    public static func looksLikeMinuteArray(_ head: [UInt8]) -> Bool {
        var text = ContentHead.afterBOMAndSpace(head)
        for expected in ["[", "{", "\"dateTime\"", ":", "\""] {
            let bytes = Array(expected.utf8)
            guard text.starts(with: bytes) else { return false }
            text = ContentHead.afterBOMAndSpace(Array(text.dropFirst(bytes.count)))
        }
        let month = Array(text.prefix(3))
        return month.count == 3 && month[0] >= 0x30 && month[0] <= 0x39 && month[1] >= 0x30 && month[1] <= 0x39
            && month[2] == UInt8(ascii: "/")
    }

    /// The kind of time-series file a name says it is (`steps-YYYY-MM-DD.json`, any folder), or nil.
    public static func kind(ofFileNamed name: String) -> Kind? {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        let lower = file.lowercased()
        for kind in Kind.allCases where lower.hasPrefix(kind.fileNamePrefix) && lower.hasSuffix(".json") {
            let date = lower.dropFirst(kind.fileNamePrefix.count).dropLast(".json".count)
            if LocalDate(String(date)) != nil { return kind }
        }
        return nil
    }
}

extension FitbitMinuteParser {
    /// How much of a field is kept and shown: longer is invalid anyway.
    static let maxFieldBytes = 64

    /// A field's text in quotes, cut after `maxFieldBytes` bytes.
    static func quoted(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(maxFieldBytes), as: UTF8.self)
        return "\"\(text)\(bytes.count > maxFieldBytes ? "..." : "")\""
    }

    /// Receives the tokens: the one array, its row objects, their `dateTime` and `value`.
    final class RowAssembler: JSONTokenHandler {
        let sink: RecordSink
        let kind: Kind
        let policy: InvalidRecordPolicy
        var statistics = FitbitMinuteStatistics()

        private enum Field { case dateTime, value, other }

        /// 0 outside the array, 1 in it, 2 in a row, deeper inside a row's nested value (3 in
        /// heart rate's value object).
        private var depth = 0
        private var field = Field.other
        private var rowPosition = JSONPosition(line: 1, column: 1, offset: 0)
        /// The row's texts, as written (at most `maxFieldBytes` kept; longer is invalid anyway).
        private var dateTime: [UInt8] = []
        private var value: [UInt8] = []
        private var sawDateTime = false
        private var sawValue = false
        /// What the value was when not a string or number ("an object", "null", ...); for heart
        /// rate, when not an object.
        private var valueProblem: String?
        /// Heart rate: whether the row's value is an object, the member being read is its `bpm`,
        /// `bpm` was there (its text kept in `value`), and what it was when not a number.
        private var inValueObject = false
        private var atBPM = false
        private var sawBPM = false
        private var bpmProblem: String?
        private static let maxFieldBytes = FitbitMinuteParser.maxFieldBytes
        private static let sourceUTF8: [UInt8] = Array(FitbitMinuteParser.source.utf8)

        init(sink: RecordSink, kind: Kind, policy: InvalidRecordPolicy) {
            self.sink = sink
            self.kind = kind
            self.policy = policy
            dateTime.reserveCapacity(Self.maxFieldBytes)
            value.reserveCapacity(Self.maxFieldBytes)
        }

        private func wrongKind(_ found: String, at position: JSONPosition) -> ParseFailure {
            ParseFailure(kind: .wrongKind, at: position.sourcePosition,
                         message: "expected Fitbit's per-minute array of {\"dateTime\", \"value\"} objects, found \(found)")
        }

        func arrayStart(at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0: depth = 1
            case 1: throw wrongKind("an array inside the array", at: position)
            default: try nested("an array", at: position)
            }
        }

        func arrayEnd(at position: JSONPosition) throws(ParseFailure) {
            depth -= 1
        }

        /// Heart rate's value object opens: its `bpm` is read.
        private var opensHeartRateValue: Bool { kind == .heartRate && depth == 2 && field == .value }

        func objectStart(at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0: throw wrongKind("an object at the top level", at: position)
            case 1:
                depth = 2
                rowPosition = position
                dateTime.removeAll(keepingCapacity: true)
                value.removeAll(keepingCapacity: true)
                sawDateTime = false
                sawValue = false
                valueProblem = nil
                inValueObject = false
                atBPM = false
                sawBPM = false
                bpmProblem = nil
                field = .other
            case 2 where opensHeartRateValue:
                sawValue = true
                inValueObject = true
                depth = 3
            default: try nested("an object", at: position)
            }
        }

        func objectEnd(at position: JSONPosition) throws(ParseFailure) {
            depth -= 1
            if depth == 2 { atBPM = false }
            if depth == 1 { try finishRow() }
        }

        func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            if depth == 3 && inValueObject {
                atBPM = utf8.elementsEqual("bpm".utf8)
                if atBPM { sawBPM = true }
                return
            }
            guard depth == 2 else { return }
            if utf8.elementsEqual("dateTime".utf8) {
                field = .dateTime
            } else if utf8.elementsEqual("value".utf8) {
                field = .value
            } else {
                field = .other
            }
        }

        func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            try scalar(utf8, "a string", at: position)
        }

        func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            try scalar(text, "a number", at: position)
        }

        func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure) {
            try other(value ? "true" : "false", at: position)
        }

        func null(at position: JSONPosition) throws(ParseFailure) {
            try other("null", at: position)
        }

        /// A string or number (`what`, for heart rate, whose value must be an object).
        private func scalar(_ text: UnsafeRawBufferPointer, _ what: String, at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0, 1: throw wrongKind("a value that is not an object", at: position)
            case 2:
                let kept = UnsafeRawBufferPointer(rebasing: text.prefix(Self.maxFieldBytes + 1))
                switch field {
                case .dateTime:
                    sawDateTime = true
                    dateTime.append(contentsOf: kept)
                case .value:
                    sawValue = true
                    if kind == .heartRate {
                        valueProblem = what
                    } else {
                        value.append(contentsOf: kept)
                    }
                case .other: break
                }
            case 3 where atBPM:
                value.append(contentsOf: UnsafeRawBufferPointer(rebasing: text.prefix(Self.maxFieldBytes + 1)))
            default: break
            }
        }

        private func other(_ what: String, at position: JSONPosition) throws(ParseFailure) {
            switch depth {
            case 0, 1: throw wrongKind("a value that is not an object", at: position)
            case 2:
                if field == .value { sawValue = true; valueProblem = what }
                if field == .dateTime { sawDateTime = true; dateTime.append(contentsOf: what.utf8) }
            case 3 where atBPM: bpmProblem = what
            default: break
            }
        }

        /// An object or array inside a row: fine under another member, not as the value.
        private func nested(_ what: String, at position: JSONPosition) throws(ParseFailure) {
            if depth == 2 && field == .value {
                sawValue = true
                valueProblem = what
            }
            if depth == 3 && atBPM { bpmProblem = what }
            depth += 1
        }

        private func finishRow() throws(ParseFailure) {
            statistics.rows += 1
            let position = rowPosition.sourcePosition
            guard sawDateTime else { return try reject(at: position, "it has no dateTime") }
            guard let startMs = dateTime.withUnsafeBytes({ Timestamp.parseMonthDayYear($0) }) else {
                return try reject(at: position, "dateTime \(FitbitMinuteParser.quoted(dateTime)) is not a date and time as MM/DD/YY HH:MM:SS")
            }
            guard sawValue else { return try reject(at: position, "it has no value") }
            if let valueProblem { return try reject(at: position, "value is \(valueProblem), not \(kind.valueNoun)") }
            // Heart rate's number is its value's `bpm`; the others' is the value itself.
            let name = kind == .heartRate ? "bpm" : "value"
            if kind == .heartRate {
                guard sawBPM else { return try reject(at: position, "value has no bpm") }
                if let bpmProblem { return try reject(at: position, "bpm is \(bpmProblem), not a number") }
            }
            guard let number = value.withUnsafeBytes({ DecimalNumber.parse($0) }) else {
                return try reject(at: position, "\(name) \(FitbitMinuteParser.quoted(value)) is not a number")
            }
            // A minute is 60,000 ms; the end cannot overflow within the years a reader takes. A
            // heart-rate reading is an instant.
            var sample = HealthSample(startMs: startMs, endMs: kind == .heartRate ? startMs : startMs + 60_000,
                                    offsetSeconds: nil, value: number, wallClock: true)
            if let problem = SampleLimits.problem(in: sample) {
                return try reject(at: position, problem.message(steps: "\(name) \(FitbitMinuteParser.quoted(value))",
                                                                start: "dateTime \(FitbitMinuteParser.quoted(dateTime))",
                                                                end: "dateTime \(FitbitMinuteParser.quoted(dateTime)) plus a minute",
                                                                metric: kind.metric))
            }
            statistics.minutes += 1
            if kind == .steps {
                Self.sourceUTF8.withUnsafeBytes { sink.add(sample, sourceUTF8: $0) }
            } else {
                sample.value = number / kind.divisor
                Self.sourceUTF8.withUnsafeBytes { sink.add(sample, of: kind.metric, sourceUTF8: $0) }
            }
        }

        private func reject(at position: SourcePosition, _ problem: @autoclosure () -> String) throws(ParseFailure) {
            let record = kind == .steps ? ParseFailure.stepRecord : "\(kind.metric.name) record"
            if let failure = policy.reject(at: position, problem(), record: record, skipped: &statistics.skipped) {
                throw failure
            }
        }
    }
}
