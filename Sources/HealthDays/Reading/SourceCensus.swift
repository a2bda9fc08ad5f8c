/// Counts what a reader hands on, per source and per UTC offset, and passes every sample and day
/// total on to another sink unchanged (`stepimport inspect`: the census beside the day rules).
///
/// Format-agnostic: it sees what every reader gives a `RecordSink`, so the same counts come out for
/// Apple, Health Connect, JSON, CSV and Takeout. Nothing is allocated per sample: sources are
/// interned (`SourceTable`), offsets kept in a short array.
public final class SourceCensus: RecordSink {
    /// One source's records and the first and last day they fall on.
    public struct Source: Equatable, Sendable {
        public let name: String
        /// Samples handed on under this source, duplicates included.
        public var samples: Int
        /// Day totals handed on under this source, duplicates included.
        public var dayTotals: Int
        /// Samples typed in by hand (`HealthSample.enteredByHand`), and their steps.
        public var enteredByHand = 0
        public var stepsEnteredByHand = 0.0
        /// The first and last local day of a sample's start (in its own offset, UTC when it has
        /// none) or of a day total; nil when every one was out of `SampleLimits`.
        public var firstDay: LocalDate?
        public var lastDay: LocalDate?

        public init(name: String, samples: Int = 0, dayTotals: Int = 0, firstDay: LocalDate? = nil, lastDay: LocalDate? = nil) {
            self.name = name
            self.samples = samples
            self.dayTotals = dayTotals
            self.firstDay = firstDay
            self.lastDay = lastDay
        }
    }

    /// Samples that carried one UTC offset.
    public struct OffsetCount: Equatable, Sendable {
        /// Seconds east of UTC.
        public let seconds: Int32
        public var samples: Int

        public init(seconds: Int32, samples: Int) {
            self.seconds = seconds
            self.samples = samples
        }
    }

    private let next: RecordSink
    /// First and last days are those of the recorded-offset rule, whatever `--tz` says.
    private let placement = DayPlacement(rule: .recordedOffset)
    private var table = SourceTable()
    private var counts: [Source] = []
    private var offsetCounts: [OffsetCount] = []
    private var lastOffsetIndex = -1
    /// Samples with no offset (taken as UTC, or wall clocks).
    public private(set) var withoutOffset = 0

    public init(passingOn next: RecordSink) {
        self.next = next
    }

    public func add(_ sample: HealthSample, sourceUTF8: UnsafeRawBufferPointer) {
        let id = Int(table.id(forUTF8: sourceUTF8))
        if id == counts.count { counts.append(Source(name: table.names[id])) }
        counts[id].samples += 1
        if sample.enteredByHand {
            counts[id].enteredByHand += 1
            if SampleLimits.isSafe(sample) { counts[id].stepsEnteredByHand += sample.value }
        }
        if let offset = sample.offsetSeconds { count(offset) } else { withoutOffset += 1 }
        if SampleLimits.isSafe(sample) {
            // Safe samples keep their times and offsets far inside Int64 and their days inside Int32.
            note(LocalDate(daysSinceEpoch: placement.day(of: sample.startMs, offsetSeconds: sample.offsetSeconds)), for: id)
        }
        next.add(sample, sourceUTF8: sourceUTF8)
    }

    public func addDayTotal(_ date: LocalDate, steps: Double, sourceUTF8: UnsafeRawBufferPointer) {
        let id = Int(table.id(forUTF8: sourceUTF8))
        if id == counts.count { counts.append(Source(name: table.names[id])) }
        counts[id].dayTotals += 1
        note(date, for: id)
        next.addDayTotal(date, steps: steps, sourceUTF8: sourceUTF8)
    }

    /// Every source in order of first appearance.
    public var sources: [Source] { counts }

    /// The offsets samples carried, with how many carried each, in order of offset.
    public var offsets: [OffsetCount] { offsetCounts.sorted { $0.seconds < $1.seconds } }

    @inline(__always)
    private func note(_ day: LocalDate, for id: Int) {
        if counts[id].firstDay.map({ day < $0 }) ?? true { counts[id].firstDay = day }
        if counts[id].lastDay.map({ day > $0 }) ?? true { counts[id].lastDay = day }
    }

    @inline(__always)
    private func count(_ offset: Int32) {
        if lastOffsetIndex >= 0 && offsetCounts[lastOffsetIndex].seconds == offset {
            offsetCounts[lastOffsetIndex].samples += 1
            return
        }
        if let index = offsetCounts.firstIndex(where: { $0.seconds == offset }) {
            lastOffsetIndex = index
        } else {
            lastOffsetIndex = offsetCounts.count
            offsetCounts.append(OffsetCount(seconds: offset, samples: 0))
        }
        offsetCounts[lastOffsetIndex].samples += 1
    }
}
