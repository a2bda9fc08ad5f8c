/// One step record of the synthetic Health Connect user, as the generator wrote it: the model
/// that the database rows, the JSON dumps and the expected totals are all made from.
struct HealthConnectRecord: Equatable {
    /// Health Connect's `recording_method` values.
    enum RecordingMethod: Int {
        case unknown = 0
        case activelyRecorded = 1
        case automaticallyRecorded = 2
        case manualEntry = 3
    }

    var app: HealthConnectApp
    /// Start of the interval, milliseconds since 1970 UTC.
    var startMs: Int64
    /// End of the interval; equal to `startMs` for an instant.
    var endMs: Int64
    /// The zone offsets at start and end, seconds east of UTC (they differ across a DST change).
    var startOffset: Int32
    var endOffset: Int32
    var count: Int
    var recordingMethod: RecordingMethod
    var lastModifiedMs: Int64
    /// Health Connect's record id, 16 random bytes.
    var uuidHigh: UInt64
    var uuidLow: UInt64
    /// The app's own id for the record (0 = none); apps without one get a `dedupe_hash`.
    var clientID: UInt64

    /// The start's local wall clock as if it were UTC, in milliseconds (Flutter's `dateFrom`).
    var wallStartMs: Int64 { startMs + Int64(startOffset) * 1000 }
    /// The end's local wall clock as if it were UTC (Flutter's `dateTo`).
    var wallEndMs: Int64 { endMs + Int64(endOffset) * 1000 }

    /// Its metadata as the metric records keep theirs (its device is its app's).
    var metadata: HealthConnectRecordMetadata {
        HealthConnectRecordMetadata(app: app, deviceID: app.deviceID, recordingMethod: recordingMethod,
                                    lastModifiedMs: lastModifiedMs, uuidHigh: uuidHigh, uuidLow: uuidLow, clientID: clientID)
    }
}
