/// A day of metric records as a JSON shape writes them and an importer places them
/// (docs/domain.md, "Which zone"): the one transformation both `HealthConnectJSONWriter` and
/// `HealthConnectExpectedMetrics` take, so the file and the expected values cannot disagree.
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
        func by(_ offset: Int32) -> Int64 { wallClock ? Int64(offset) * 1000 : 0 }
        for index in quantities.indices {
            let shift = by(quantities[index].startOffset)
            quantities[index].startMs += shift
            quantities[index].endMs += shift
            quantities[index].startOffset = 0
            quantities[index].endOffset = 0
        }
        for index in heartRates.indices {
            let shift = by(heartRates[index].startOffset)
            heartRates[index].startMs += shift
            heartRates[index].endMs += shift
            for sample in heartRates[index].samples.indices { heartRates[index].samples[sample].epochMs += shift }
            heartRates[index].startOffset = 0
            heartRates[index].endOffset = 0
        }
        for index in instants.indices {
            instants[index].timeMs += by(instants[index].offset)
            instants[index].offset = 0
        }
        for index in sleepSessions.indices {
            let shift = by(sleepSessions[index].startOffset)
            sleepSessions[index].startMs += shift
            sleepSessions[index].endMs += shift
            for stage in sleepSessions[index].stages.indices {
                sleepSessions[index].stages[stage].startMs += shift
                sleepSessions[index].stages[stage].endMs += shift
            }
            sleepSessions[index].startOffset = 0
            sleepSessions[index].endOffset = 0
        }
        for index in exercises.indices {
            let shift = by(exercises[index].startOffset)
            exercises[index].startMs += shift
            exercises[index].endMs += shift
            exercises[index].startOffset = 0
            exercises[index].endOffset = 0
        }
    }
}

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
