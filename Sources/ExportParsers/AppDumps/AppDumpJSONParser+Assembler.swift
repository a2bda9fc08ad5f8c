import HealthDays
import StreamingText
extension AppDumpJSONParser {
    /// How a field was written.
    enum ValueKind: UInt8 {
        case absent, string, number, null, bool
        /// An object or array where a value was expected (only noted for `count`).
        case object, array
    }

    /// One field of an object being read; its text lives in the frame's fixed storage.
    struct Field {
        var kind = ValueKind.absent
        /// The member name that set it.
        var key = Key.unknown
        /// The member it came up through from a nested object (`metadata`, `data`, `value`,
        /// `fitValue`, a zone offset object); `.unknown` when it was set directly.
        var via = Key.unknown
        var truncated = false
        var length: Int32 = 0

        var isPresent: Bool { kind != .absent }
        /// Present with a usable value (not `null`).
        var hasValue: Bool { kind == .string || kind == .number || kind == .bool }

        /// The name for messages, with the member it came through.
        var name: String {
            via == .unknown ? key.name : "\(via.name).\(key.name)"
        }
    }

    /// One open object or array.
    struct Frame {
        var isArray: Bool
        /// In an object, the name of the member being read; in an array, the name it sits under.
        var key: Key
        /// Values read so far (arrays).
        var elements = 0
        /// Where the object or array begins: invalid records are reported there.
        var position: JSONPosition
        /// A member that only Flutter's `health` writes was seen (`sourcePlatform`).
        var flutterMarker = false
        /// Its `metadata` said it was typed in by hand (`recordingMethod`), passed up when that ended.
        var enteredByHand = false
        /// One per `Slot`, by its raw value.
        var fields = InlineArray<11, Field>(repeating: Field())

        init(isArray: Bool, key: Key, position: JSONPosition) {
            self.isArray = isArray
            self.key = key
            self.position = position
        }
    }

    /// What the document is, for the message when it holds nothing readable.
    struct TopLevelSummary {
        enum Kind: String {
            case object = "an object", array = "an array", string = "a string", number = "a number"
            case bool = "true or false", null = "null"
        }

        var kind: Kind?
        var firstElement: Kind?
        var elements = 0
        var keys: [String] = []
        var otherKeys = 0
        var values = 0
    }

    /// Receives the tokens of the document, keeps the fields of each open object, and decides
    /// when an object ends whether it was a record (see `+Records`).
    final class Assembler: JSONTokenHandler {
        let sink: RecordSink
        let policy: InvalidRecordPolicy
        var statistics = AppDumpJSONStatistics()
        private let keys: KeyTable
        /// The metrics asked for; the records of the others are passed over.
        let metrics: MetricSet
        /// Whether any metric but steps is read: the metric records' keys are known, and each
        /// object keeps their fields beside its own (`metricFrames`). False costs a steps-only
        /// read nothing but a few untaken branches.
        let readsMetrics: Bool
        /// The sink of `--rule hc-priority`, which also takes each record's last-modified time; nil for every other read.
        let prioritySink: PriorityRecordSink?
        /// Under `--rule hc-priority`, each open object's `lastModifiedTime` in milliseconds since 1970,
        /// `Int64.min` for none, parallel to `frames`; empty for every other read.
        var modified: [Int64] = []
        /// `readsMetrics` or a `prioritySink`: each object keeps fields beside its step fields.
        private let keepsSideFields: Bool

        /// Open objects and arrays, outermost first; `storage` holds their fields' text, one
        /// `Slot.storage` block per frame. Both grow with the nesting depth only.
        private(set) var frames: UnsafeMutablePointer<Frame>
        private var storage: UnsafeMutableRawPointer
        private var capacity = 16
        private(set) var depth = 0

        /// The frame index of the Google Fit `estimated_steps` stream object, or -1.
        var streamDepth = -1
        private var shapesSeen: UInt32 = 0
        /// An object had a `records` array (react-native-health-connect's page), even an empty one.
        var sawRecordsContainer = false
        var summary = TopLevelSummary()

        /// The metric fields of each open object, parallel to `frames` (only when `readsMetrics`).
        private(set) var metricFrames: UnsafeMutablePointer<MetricFrame>
        private var metricStorage: UnsafeMutableRawPointer
        /// The samples or stages of the heart-rate series or sleep session being read.
        let spool = MetricSpool()
        /// The metric record being read, for the words of an invalid record; nil for steps.
        var recordBeingRead: AppDumpRecordType?

        /// What an invalid record is called in its message.
        var recordWords: String {
            recordBeingRead?.recordWords ?? ParseFailure.stepRecord
        }

        init(sink: RecordSink, policy: InvalidRecordPolicy, metrics: MetricSet) {
            self.sink = sink
            self.policy = policy
            self.metrics = metrics
            readsMetrics = metrics.metrics.contains { $0 != .steps }
            prioritySink = sink.prioritySink
            keepsSideFields = readsMetrics || prioritySink != nil
            keys = KeyTable(readsMetrics ? Key.allCases : prioritySink != nil ? Key.stepKeys + [.lastModifiedTime] : Key.stepKeys)
            frames = .allocate(capacity: capacity)
            storage = .allocate(byteCount: capacity * Slot.storage, alignment: 16)
            let metricCapacity = readsMetrics ? capacity : 0
            metricFrames = .allocate(capacity: metricCapacity)
            metricStorage = .allocate(byteCount: metricCapacity * MetricSlot.storage, alignment: 16)
        }

        deinit {
            frames.deinitialize(count: depth)
            frames.deallocate()
            storage.deallocate()
            metricFrames.deallocate()
            metricStorage.deallocate()
        }

        // MARK: - Tokens

        func objectStart(at position: JSONPosition) throws(ParseFailure) {
            noteValue(.object)
            noteContainerAsCount(.object)
            push(Frame(isArray: false, key: .unknown, position: position))
        }

        func objectEnd(at position: JSONPosition) throws(ParseFailure) {
            let index = depth - 1
            try finishObject(index)
            if streamDepth == index {
                streamDepth = -1
            }
            pop()
        }

        func arrayStart(at position: JSONPosition) throws(ParseFailure) {
            noteValue(.array)
            noteContainerAsCount(.array)
            var key = Key.unknown
            if depth > 0 && !frames[depth - 1].isArray {
                key = frames[depth - 1].key
                if key == .records {
                    sawRecordsContainer = true
                }
            }
            push(Frame(isArray: true, key: key, position: position))
        }

        func arrayEnd(at position: JSONPosition) throws(ParseFailure) {
            pop()
        }

        func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            let top = depth - 1
            let key = keys.lookup(utf8)
            frames[top].key = key
            if key == .sourcePlatform || key == .source_platform {
                frames[top].flutterMarker = true
            }
            if top <= 1 && summary.values == 1 {
                noteTopLevelKey(utf8, top)
            }
        }

        func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            noteValue(.string)
            guard depth > 0, !frames[depth - 1].isArray else { return }
            let top = depth - 1
            let key = frames[top].key
            if key == .dataSource {
                try readDataSource(utf8, frame: top, at: position)
            } else if let slot = key.slot {
                store(slot, of: top, .string, utf8, key: key)
            } else if key.isMetric {
                storeMetric(key, of: top, .string, utf8)
            }
        }

        func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
            noteValue(.number)
            guard depth > 0, !frames[depth - 1].isArray else { return }
            let top = depth - 1
            let key = frames[top].key
            if let slot = key.slot {
                store(slot, of: top, .number, text, key: key)
            } else if key.isMetric {
                storeMetric(key, of: top, .number, text)
            }
        }

        func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure) {
            noteValue(.bool)
            storeScalar(value ? Assembler.trueText : Assembler.falseText, kind: .bool)
        }

        func null(at position: JSONPosition) throws(ParseFailure) {
            noteValue(.null)
            storeScalar(Assembler.nullText, kind: .null)
        }

        private static let trueText = StaticString("true")
        private static let falseText = StaticString("false")
        private static let nullText = StaticString("null")

        /// `"count": {...}` or `"count": [...]`: no step count, but a record that has one in the
        /// wrong form, so that it is reported as invalid instead of passed over as not a record.
        @inline(__always)
        private func noteContainerAsCount(_ kind: ValueKind) {
            guard depth > 0, !frames[depth - 1].isArray, frames[depth - 1].key == .count else { return }
            let text: StaticString = kind == .object ? "{...}" : "[...]"
            store(.count, of: depth - 1, kind, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount),
                  key: .count)
        }

        private func storeScalar(_ text: StaticString, kind: ValueKind) {
            guard depth > 0, !frames[depth - 1].isArray else { return }
            let top = depth - 1
            let key = frames[top].key
            if let slot = key.slot {
                store(slot, of: top, kind, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount),
                      key: key)
            } else if key.isMetric {
                storeMetric(key, of: top, kind, UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            }
        }

        // MARK: - Frames and fields

        @inline(__always)
        private func push(_ frame: Frame) {
            if depth == capacity {
                grow()
            }
            // One test for both side tables, so that a plain steps read pays what it always paid.
            if keepsSideFields {
                if readsMetrics {
                    noteMetricContainer(isArray: frame.isArray)
                    (metricFrames + depth).initialize(to: MetricFrame())
                }
                if prioritySink != nil {
                    noteModifiedFrame()
                }
            }
            (frames + depth).initialize(to: frame)
            depth += 1
        }

        @inline(__always)
        private func pop() {
            depth -= 1
            (frames + depth).deinitialize(count: 1)
        }

        private func grow() {
            let larger = capacity * 2
            let newFrames = UnsafeMutablePointer<Frame>.allocate(capacity: larger)
            newFrames.moveInitialize(from: frames, count: depth)
            frames.deallocate()
            frames = newFrames
            let newStorage = UnsafeMutableRawPointer.allocate(byteCount: larger * Slot.storage, alignment: 16)
            newStorage.copyMemory(from: storage, byteCount: depth * Slot.storage)
            storage.deallocate()
            storage = newStorage
            if readsMetrics {
                let newMetricFrames = UnsafeMutablePointer<MetricFrame>.allocate(capacity: larger)
                newMetricFrames.moveInitialize(from: metricFrames, count: depth)
                metricFrames.deallocate()
                metricFrames = newMetricFrames
                let newMetricStorage = UnsafeMutableRawPointer.allocate(byteCount: larger * MetricSlot.storage, alignment: 16)
                newMetricStorage.copyMemory(from: metricStorage, byteCount: depth * MetricSlot.storage)
                metricStorage.deallocate()
                metricStorage = newMetricStorage
            }
            capacity = larger
        }

        /// Counts a value in the array it stands in, and notes what the document is.
        @inline(__always)
        private func noteValue(_ kind: TopLevelSummary.Kind) {
            guard depth > 0 else {
                summary.values += 1
                if summary.values == 1 { summary.kind = kind }
                return
            }
            let top = depth - 1
            guard frames[top].isArray else { return }
            frames[top].elements += 1
            if top == 0 && summary.values == 1 {
                summary.elements += 1
                if summary.elements == 1 { summary.firstElement = kind }
            }
        }

        private func noteTopLevelKey(_ utf8: UnsafeRawBufferPointer, _ top: Int) {
            let inFirstObject = top == 0 ? summary.kind == .object
                : frames[0].isArray && frames[0].elements == 1 && !frames[1].isArray
            guard inFirstObject else { return }
            if summary.keys.count < 8 {
                summary.keys.append(String(decoding: utf8.prefix(60), as: UTF8.self))
            } else {
                summary.otherKeys += 1
            }
        }

        func field(_ slot: Slot, of frame: Int) -> Field {
            frames[frame].fields[slot.rawValue]
        }

        /// The text of a field, valid until the frame is reused.
        @inline(__always)
        func text(_ slot: Slot, of frame: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: storage + frame * Slot.storage + slot.offset,
                                   count: Int(frames[frame].fields[slot.rawValue].length))
        }

        /// Sets a field, unless a name of higher rank set it already (`count` beats `value`).
        @inline(__always)
        func store(_ slot: Slot, of frame: Int, _ kind: ValueKind, _ bytes: UnsafeRawBufferPointer,
                   key: Key, via: Key = .unknown) {
            let existing = frames[frame].fields[slot.rawValue]
            if existing.isPresent && existing.key.rank > key.rank { return }
            frames[frame].fields[slot.rawValue] = Field(copying: bytes, to: storage + frame * Slot.storage + slot.offset,
                                                        capacity: slot.capacity, kind: kind, key: key, via: via)
        }

        /// Copies a field of a nested object into the object around it.
        func copy(_ slot: Slot, from child: Int, to target: Slot, of parent: Int, via: Key) {
            let source = frames[child].fields[slot.rawValue]
            let existing = frames[parent].fields[target.rawValue]
            if existing.isPresent && existing.key.rank > source.key.rank { return }
            let count = Int(source.length)
            if count > 0 {
                (storage + parent * Slot.storage + target.offset)
                    .copyMemory(from: storage + child * Slot.storage + slot.offset, byteCount: min(count, target.capacity))
            }
            frames[parent].fields[target.rawValue] = Field(kind: source.kind, key: source.key, via: via,
                                                           truncated: source.truncated || count > target.capacity,
                                                           length: Int32(min(count, target.capacity)))
        }

        // MARK: - Metric fields

        func metricField(_ slot: MetricSlot, of frame: Int) -> Field {
            metricFrames[frame].fields[slot.rawValue]
        }

        /// The text of a metric field, valid until the frame is reused.
        func metricText(_ slot: MetricSlot, of frame: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: metricStorage + frame * MetricSlot.storage + slot.offset,
                                   count: Int(metricFrames[frame].fields[slot.rawValue].length))
        }

        /// Sets a metric field, unless a name of higher rank set it already (`inMeters` beats `inFeet`).
        func storeMetric(_ slot: MetricSlot, of frame: Int, _ kind: ValueKind, _ bytes: UnsafeRawBufferPointer,
                         key: Key, via: Key = .unknown) {
            let existing = metricFrames[frame].fields[slot.rawValue]
            if existing.isPresent && existing.key.metricRank > key.metricRank { return }
            metricFrames[frame].fields[slot.rawValue] = Field(copying: bytes, to: metricStorage + frame * MetricSlot.storage + slot.offset,
                                                              capacity: MetricSlot.capacity, kind: kind, key: key, via: via)
        }

        /// Copies a field of a nested object (its metric slot, or the step slot `count` where
        /// Capacitor's `{"unit","value"}` keeps its value) into a metric slot of the object around it.
        func copyMetric(_ field: Field, _ bytes: UnsafeRawBufferPointer, to target: MetricSlot, of parent: Int, via: Key) {
            storeMetric(target, of: parent, field.kind, bytes, key: field.key, via: via)
            metricFrames[parent].fields[target.rawValue].truncated = metricFrames[parent].fields[target.rawValue].truncated
                || field.truncated
        }

        // MARK: - Shapes

        @inline(__always)
        func noteShape(_ shape: Shape) {
            let bit: UInt32
            switch shape {
            case .reactNativeHealthConnect: bit = 1
            case .hcGateway: bit = 2
            case .capacitor: bit = 4
            case .flutterHealth: bit = 8
            case .plainRecords: bit = 16
            case .dayTotals: bit = 32
            case .googleFitEstimatedSteps: bit = 64
            case .googleFitMergedSteps: bit = 128
            }
            guard shapesSeen & bit == 0 else { return }
            shapesSeen |= bit
            statistics.shapes.append(shape)
        }
    }
}

extension AppDumpJSONParser.Field {
    /// A field whose text is `bytes`, copied to `destination` up to `capacity` (longer text is
    /// marked truncated).
    @inline(__always)
    init(copying bytes: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer, capacity: Int,
         kind: AppDumpJSONParser.ValueKind, key: AppDumpJSONParser.Key, via: AppDumpJSONParser.Key) {
        let count = min(bytes.count, capacity)
        if count > 0 {
            destination.copyMemory(from: bytes.baseAddress!, byteCount: count)
        }
        self.init(kind: kind, key: key, via: via, truncated: bytes.count > capacity, length: Int32(count))
    }
}
