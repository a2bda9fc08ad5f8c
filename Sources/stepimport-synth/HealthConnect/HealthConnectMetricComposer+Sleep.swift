/// Sleep sessions: the night that ends this morning, as the watch, the ring and the sleep app
/// each write it, and the watch's weekend naps.
extension HealthConnectMetricComposer {
    private typealias Stage = HealthConnectSleepSession.Stage

    mutating func composeSleep(_ context: Context) {
        var watch = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_53_57)  // "HCSW"
        var ring = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_53_4F)  // "HCSO"
        var app = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_53_41)  // "HCSA"

        if let night = context.night, context.watchAtNight {
            let start = night.bedMs + watch.int64(5 * Self.minute...25 * Self.minute)
            let end = night.wakeMs - watch.int64(0...5 * Self.minute)
            let kind = watch.unit()
            if kind < 0.01 {
                // Left on the charger, the watch took a whole day and night for sleep: over 24
                // hours on one day, left out.
                let start = night.wakeMs - 26 * Self.hour
                session(.samsung, start, end, stages: [Stage(startMs: start, endMs: end, type: .sleeping)], context, &watch)
            } else if kind < 0.1 {
                // Older firmware: no stages detected, one stage for the whole night.
                session(.samsung, start, end, stages: [Stage(startMs: start, endMs: end, type: .sleeping)], context, &watch)
            } else if kind < 0.16, let stages = HealthConnectMetricComposer.brokenNight(start, end, midnight: context.instant(0), &watch) {
                session(.samsung, start, end, stages: stages, context, &watch)
            } else {
                let stages = HealthConnectMetricComposer.cycles(start, end, epoch: Self.minute, awakenings: true,
                                                                outOfBed: watch.chance(0.1), &watch)
                session(.samsung, start, end, stages: stages, context, &watch)
            }
        }

        if let night = context.night, context.ringAtNight {
            let start = night.bedMs + ring.int64(0...10 * Self.minute)
            let end = night.wakeMs + ring.int64(0...8 * Self.minute)
            // Five-minute epochs: awake while falling asleep, the cycles, awake at the end.
            let latency = ring.int64(1...4) * 5 * Self.minute
            let tail = ring.int64(0...2) * 5 * Self.minute
            var stages = [Stage(startMs: start, endMs: start + latency, type: .awake)]
            stages += HealthConnectMetricComposer.cycles(start + latency, end - tail, epoch: 5 * Self.minute,
                                                         awakenings: true, outOfBed: false, &ring)
            if tail > 0 { stages.append(Stage(startMs: end - tail, endMs: end, type: .awake)) }
            session(.oura, start, end, stages: stages, context, &ring)
            ringSession = start..<end
        }

        if let night = context.night, context.sleepAppAtNight {
            let start = night.bedMs + app.int64(0...3 * Self.minute)
            let end = night.wakeMs + app.int64(0...2 * Self.minute)
            var stages: [Stage] = []
            if app.chance(0.3) {
                // Its own tracking: awake in bed, then sleeping with stretches where it lost track
                // (unknown) and, on some nights, a few minutes out of bed.
                var from = start + app.int64(5 * Self.minute...20 * Self.minute)
                stages.append(Stage(startMs: start, endMs: from, type: .awakeInBed))
                var outOfBed = app.chance(0.3)
                while from < end {
                    let to = min(end, from + app.int64(40 * Self.minute...120 * Self.minute))
                    stages.append(Stage(startMs: from, endMs: to, type: .sleeping))
                    from = to
                    guard end - from > 30 * Self.minute else {
                        if from < end { stages[stages.count - 1].endMs = end }
                        break
                    }
                    let gap = app.int64(5 * Self.minute...15 * Self.minute)
                    stages.append(Stage(startMs: from, endMs: from + gap, type: outOfBed ? .outOfBed : .unknown))
                    outOfBed = false
                    from += gap
                }
            }
            let notes = context.zone == .berlin ? "#home" : "#travel"
            append(HealthConnectSleepSession(
                metadata: metadata(.sleepAsAndroid, modified: end + app.int64(Self.minute...10 * Self.minute),
                                   method: .activelyRecorded),
                startMs: start, endMs: end, startOffset: context.offset(start), endOffset: context.offset(end),
                notes: notes, title: nil, stages: stages))
        }

        if context.isWeekend && context.watchWorn && watch.chance(0.4) {
            // An afternoon nap between the walks.
            let length = watch.int64(20...70) * Self.minute
            let from = context.instant(13 * 3600)
            let to = context.instant(17 * 3600 + 1800)
            var free: [Range<Int64>] = []
            var cursor = from
            var busy = context.walks.map { $0.startMs..<$0.endMs }
            if let training = context.training { busy.append(training.startMs..<training.endMs) }
            for interval in busy.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                let until = min(to, interval.lowerBound - 15 * Self.minute)
                if until > cursor { free.append(cursor..<until) }
                cursor = max(cursor, interval.upperBound + 15 * Self.minute)
            }
            if to > cursor { free.append(cursor..<to) }
            let fitting = free.filter { $0.upperBound - $0.lowerBound >= length }
            if !fitting.isEmpty {
                let stretch = fitting[watch.int(0...fitting.count - 1)]
                let start = stretch.lowerBound + watch.int64(0...stretch.upperBound - stretch.lowerBound - length)
                session(.samsung, start, start + length, stages: [Stage(startMs: start, endMs: start + length, type: .light)],
                        context, &watch)
            }
        }
    }

    /// A night with an hour or more awake in the middle: two sleep periods. The first ends at
    /// local midnight exactly on some nights (it then counts on the new day), and the awake stretch
    /// is exactly an hour on some (an hour starts a new period). Nil when the night is too short.
    private static func brokenNight(_ start: Int64, _ end: Int64, midnight: Int64, _ random: inout SplitMix64) -> [Stage]? {
        let awakeStart: Int64
        if start < midnight - 40 * minute && random.chance(0.5) {
            awakeStart = midnight
        } else {
            awakeStart = start + random.int64(80 * minute...150 * minute)
        }
        let awake = random.chance(0.3) ? hour : random.int64(61 * minute...85 * minute)
        guard awakeStart + awake + hour < end else { return nil }
        var stages = cycles(start, awakeStart, epoch: minute, awakenings: false, outOfBed: false, &random)
        stages.append(Stage(startMs: awakeStart, endMs: awakeStart + awake, type: .awake))
        stages += cycles(awakeStart + awake, end, epoch: minute, awakenings: true, outOfBed: false, &random)
        return stages
    }

    /// Sleep cycles from `start` to `end`: light, deep (less towards morning), light, REM (more
    /// towards morning), with a few minutes awake between some cycles and, when `outOfBed`, once
    /// a few minutes out of bed; stage lengths in whole `epoch`s. The stages cover the span.
    private static func cycles(_ start: Int64, _ end: Int64, epoch: Int64, awakenings: Bool, outOfBed: Bool,
                               _ random: inout SplitMix64) -> [Stage] {
        var stages: [Stage] = []
        var from = start
        var cycle: Int64 = 0
        var outOfBedLeft = outOfBed
        func add(_ type: HealthConnectSleepSession.StageType, _ minutes: ClosedRange<Int64>, _ random: inout SplitMix64) {
            guard from < end else { return }
            let length = max(1, (random.int64(minutes) * minute + epoch / 2) / epoch) * epoch
            var to = min(end, from + length)
            // No sliver: a remainder under two epochs joins this stage.
            if end - to < 2 * epoch { to = end }
            stages.append(Stage(startMs: from, endMs: to, type: type))
            from = to
        }
        while from < end {
            add(.light, 20...40, &random)
            add(.deep, max(5, 30 - 8 * cycle)...max(10, 45 - 10 * cycle), &random)
            add(.light, 10...20, &random)
            add(.rem, (10 + 5 * cycle)...(20 + 8 * cycle), &random)
            if awakenings && random.chance(0.5) { add(.awake, 1...5, &random) }
            if outOfBedLeft && cycle == 1 {
                add(.outOfBed, 3...10, &random)
                outOfBedLeft = false
            }
            cycle += 1
        }
        return stages
    }

    /// A session of `app` over `start..<end` with `stages`; the watch's are now and then written
    /// twice by a resync (exact duplicates).
    private mutating func session(_ app: HealthConnectApp, _ start: Int64, _ end: Int64, stages: [Stage],
                                  _ context: Context, _ random: inout SplitMix64) {
        let record = HealthConnectSleepSession(
            metadata: metadata(app, modified: end + random.int64(Self.minute...Self.hour)),
            startMs: start, endMs: end, startOffset: context.offset(start), endOffset: context.offset(end),
            notes: nil, title: nil, stages: stages)
        append(record)
        if app == .samsung && random.chance(0.05) {
            var copy = record
            copy.metadata = resynced(record.metadata)
            append(copy)
        }
    }
}
