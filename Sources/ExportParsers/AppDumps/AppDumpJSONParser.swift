import HealthDays
import StreamingText
/// Counts from one JSON input, for the report.
public struct AppDumpJSONStatistics: Equatable, Sendable {
    /// Objects read as records of any type: step records (skipped ones included), day totals and
    /// records of other types.
    public var records = 0
    /// Step samples handed to the sink.
    public var stepRecords = 0
    /// Day totals handed to the sink.
    public var dayTotals = 0
    /// Records of another type (heart rate, distance, ...), skipped as they should be: with
    /// `--metric`, those of metrics not asked for.
    public var otherTypeRecords = 0
    /// Samples of metrics other than steps handed to the sink (`--metric`).
    public var metricSamples = 0
    /// Energy records that do not say whether they are active or total calories (react-native
    /// and HCGateway write both alike), left out.
    public var untypedEnergyRecords = 0
    /// Records skipped under `InvalidRecordPolicy.skip`, with the first few.
    public var skipped = SkippedRecords()
    /// The shapes recognised, in the order first seen.
    public var shapes: [AppDumpJSONParser.Shape] = []
    /// Step samples with no UTC offset (a `Z` time and no zone offset field), taken as UTC.
    public var withoutOffset = 0
    /// Step samples whose times are a wall clock with no zone (Flutter's `dateFrom`).
    public var wallClock = 0
    /// The Google Fit Takeout stream read (its `"Data Source"`), if any.
    public var googleFitDataSource: String? = nil

    public init() {}

    /// The shape names, e.g. `["react-native-health-connect"]`.
    public var shapeNames: [String] { shapes.map(\.description) }
}

/// Streams JSON dumps of Health Connect data written by apps, and Google Fit Takeout's
/// `estimated_steps` stream, and hands every step record (or day total) to a `RecordSink`.
///
/// The shape is decided by content, object by object, never by a flag or a file name: any object
/// at any depth whose own members make a step record is one (see `Shape`). Push-style and flat
/// in memory: one object's fields are assembled at a time, in fixed buffers, and the document is
/// never kept. JSON Lines (one record per line) is read like an array.
public final class AppDumpJSONParser: RecordParser {
    /// The shapes of JSON this parser recognises.
    public enum Shape: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `readRecords('Steps')` of react-native-health-connect: `{"records":[...],"pageToken":..}`,
        /// `startTime`/`endTime`, zone offset objects, `metadata.dataOrigin`.
        case reactNativeHealthConnect = "react-native-health-connect"
        /// HCGateway: `start`/`end`, `data.count`, `app`.
        case hcGateway = "HCGateway"
        /// Capacitor Health Connect: `type: "Steps"`, `startTime`, zone offsets as strings.
        case capacitor = "Capacitor"
        /// Flutter `health`: `type: "STEPS"`, `dateFrom`/`date_from` wall times, `value.numericValue`.
        case flutterHealth = "Flutter health"
        /// Any other array of records with start, end and count under common names.
        case plainRecords = "plain records"
        /// Day totals: `date` (YYYY-MM-DD) and `steps`/`total_steps`/`count`.
        case dayTotals = "day totals"
        /// Google Fit Takeout's `derived:com.google.step_count.delta:...:estimated_steps` stream.
        case googleFitEstimatedSteps = "Google Fit estimated_steps stream"
        /// Its `merge_step_deltas` stream, read when there is no `estimated_steps` one.
        case googleFitMergedSteps = "Google Fit merge_step_deltas stream"

        public var description: String { rawValue }
    }

    private let tokenizer: JSONTokenizer<Assembler>

    /// The source name of Google Fit Takeout samples.
    public static let googleFitSource = "Google Fit"

    /// A parser that hands on steps and, of `metrics`, the records of every other metric asked
    /// for (docs/metrics.md); with steps alone it hands on steps only.
    public init(sink: RecordSink, invalidRecords policy: InvalidRecordPolicy = .fail, metrics: MetricSet = .steps) {
        tokenizer = JSONTokenizer(handler: Assembler(sink: sink, policy: policy, metrics: metrics))
    }

    /// What was read so far.
    public var statistics: AppDumpJSONStatistics {
        tokenizer.handler.statistics
    }

    /// Parses the next piece of the input.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(ParseFailure) {
        try tokenizer.feed(bytes)
    }

    /// Ends the input; fails when it is truncated, or holds no step records in any shape read here.
    public func finish() throws(ParseFailure) {
        try tokenizer.finish()
        try tokenizer.handler.finishDocument()
    }
}
