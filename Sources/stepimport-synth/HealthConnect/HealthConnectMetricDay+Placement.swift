/// A day of metric records as a JSON shape writes them and an importer places them
/// (docs/rules.md, *The highest-source rule*, rule 5): the one transformation both
/// `HealthConnectJSONWriter` and `HealthConnectExpectedMetrics` take, so the file and the
/// expected values cannot disagree.
extension HealthConnectMetricDay {
    /// The records `shape` writes (Flutter `health` has no VO2max on Android), placed by its rule:
    /// in their own offsets; in UTC (no offsets written: offsets zero); or on the wall clock (each
    /// record's times shifted by its start offset, one offset for all of them so that no interval
    /// turns round at a change of offset, then offsets zero).
    func placed(for shape: HealthConnectJSONShape) -> HealthConnectMetricDay {
        var day = self
        if shape == .flutter || shape == .flutterSnake {
            day.instants.removeAll { $0.kind == .vo2Max }
        }
        switch shape.placement {
        case .ownOffset, .dayTotal:
            return day
        case .utc:
            day.shift(wallClock: false)
        case .wallClock:
            day.shift(wallClock: true)
        }
        return day
    }

    /// Sets every offset to zero, first adding each record's start offset to its times when
    /// `wallClock`.
    private mutating func shift(wallClock: Bool) {
        for index in quantities.indices { quantities[index].shift(wallClock: wallClock) }
        for index in heartRates.indices {
            let shift = heartRates[index].shift(wallClock: wallClock)
            for sample in heartRates[index].samples.indices { heartRates[index].samples[sample].epochMs += shift }
        }
        for index in instants.indices {
            instants[index].timeMs += wallClock ? Int64(instants[index].offset) * 1000 : 0
            instants[index].offset = 0
        }
        for index in sleepSessions.indices {
            let shift = sleepSessions[index].shift(wallClock: wallClock)
            for stage in sleepSessions[index].stages.indices {
                sleepSessions[index].stages[stage].startMs += shift
                sleepSessions[index].stages[stage].endMs += shift
            }
        }
        for index in exercises.indices { exercises[index].shift(wallClock: wallClock) }
    }
}

/// A record with a start and an end, each with its zone offset.
protocol HealthConnectIntervalRecord {
    var startMs: Int64 { get set }
    var endMs: Int64 { get set }
    var startOffset: Int32 { get set }
    var endOffset: Int32 { get set }
}

extension HealthConnectIntervalRecord {
    /// Sets the offsets to zero, first adding the start offset to both times when `wallClock`;
    /// returns what was added (for the times inside the record).
    @discardableResult
    mutating func shift(wallClock: Bool) -> Int64 {
        let shift = wallClock ? Int64(startOffset) * 1000 : 0
        startMs += shift
        endMs += shift
        startOffset = 0
        endOffset = 0
        return shift
    }
}

extension HealthConnectQuantityRecord: HealthConnectIntervalRecord {}
extension HealthConnectHeartRateSeries: HealthConnectIntervalRecord {}
extension HealthConnectSleepSession: HealthConnectIntervalRecord {}
extension HealthConnectExerciseSession: HealthConnectIntervalRecord {}

extension HealthConnectMetricDay {
    /// Records of the day (a series or a session counts once).
    var recordCount: Int {
        quantities.count + heartRates.count + instants.count + sleepSessions.count + exercises.count
    }

    /// Records of the day in `section`.
    func recordCount(in section: HealthConnectJSONWriter.MetricSection) -> Int {
        switch section {
        case .heartRate: heartRates.count
        case .sleep: sleepSessions.count
        case .exercise: exercises.count
        default:
            quantities.count { HealthConnectJSONWriter.MetricSection($0.kind) == section }
                + instants.count { HealthConnectJSONWriter.MetricSection($0.kind) == section }
        }
    }
}
