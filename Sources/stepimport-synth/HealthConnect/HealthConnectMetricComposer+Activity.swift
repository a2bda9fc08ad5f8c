/// Distance, calories, floors and workouts: what the watch and Fit make of the day's walks and
/// training.
extension HealthConnectMetricComposer {
    /// Distance, active calories and floors of the walks and the training; total calories by the
    /// hour. The watch's in 10-minute bins of its wall clock; Fit's in pieces of its own, with a few
    /// exact duplicates and, rarely, a GPS jump.
    mutating func composeQuantities(_ context: Context) {
        var watch = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_51_57)  // "HCQW"
        var fit = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_51_46)  // "HCQF"
        let stride = watch.double(0.72, 0.80)
        let calories = watch.double(40, 55)  // small calories per step

        if context.watchWorn {
            let factor = watch.double(0.97, 1.03)
            for bin in HealthConnectDayComposer.watchBins(context.walks, zone: context.zone) {
                let modified = bin.endMs + watch.int64(5 * Self.minute...40 * Self.minute)
                let distance = Int64((bin.steps * stride * factor * 1000).rounded())
                if distance > 0 {
                    quantity(.distance, .samsung, bin.startMs, bin.endMs, distance, modified, context)
                    quantity(.activeCalories, .samsung, bin.startMs, bin.endMs,
                             Int64((bin.steps * calories * factor).rounded()), modified, context)
                }
            }
            for walk in context.walks where watch.chance(0.35) {
                let length = walk.endMs - walk.startMs
                guard length >= 4 * Self.minute else { continue }
                let start = walk.startMs + watch.int64(0...length - 3 * Self.minute)
                quantity(.floors, .samsung, start, start + watch.int64(Self.minute...3 * Self.minute),
                         Int64(watch.int(1...4)) * 1000, start + 30 * Self.minute, context)
            }
            if let training = context.training {
                // The training in 10-minute pieces from its start.
                let (metresPerMs, caloriesPerMs) = HealthConnectMetricComposer.intensity(training.type, &watch)
                var from = training.startMs
                while from < training.endMs {
                    let to = min(training.endMs, from + 10 * Self.minute)
                    let modified = training.endMs + watch.int64(2 * Self.minute...20 * Self.minute)
                    if metresPerMs > 0 {
                        quantity(.distance, .samsung, from, to, Int64((Double(to - from) * metresPerMs * 1000).rounded()),
                                 modified, context)
                    }
                    quantity(.activeCalories, .samsung, from, to, Int64((Double(to - from) * caloriesPerMs).rounded()),
                             modified, context)
                    from = to
                }
            }
            hourlyTotals(.samsung, context, &watch)
        }

        let fitStride = stride * fit.double(0.96, 1.04)
        let fitCalories = calories * fit.double(0.85, 1.0)
        let first = day.quantities.count
        for walk in context.walks where walk.carriesPhone && !fit.chance(0.05) {
            var start = walk.startMs
            while start < walk.endMs {
                var end = min(walk.endMs, start + fit.int64(Self.minute...6 * Self.minute))
                if walk.endMs - end < 30_000 { end = walk.endMs }
                let steps = Double(end - start) * walk.stepsPerMs
                let modified = end + fit.int64(Self.minute...90 * Self.minute)
                quantity(.distance, .fit, start, end, Int64((steps * fitStride * 1000).rounded()), modified, context)
                quantity(.activeCalories, .fit, start, end, Int64((steps * fitCalories).rounded()), modified, context)
                start = end
            }
            let length = walk.endMs - walk.startMs
            if length >= 4 * Self.minute && fit.chance(0.3) {
                let start = walk.startMs + fit.int64(0...length - 2 * Self.minute)
                quantity(.floors, .fit, start, start + 2 * Self.minute, Int64(fit.int(1...3)) * 1000,
                         start + 2 * Self.hour, context)
            }
        }
        if let training = context.training, training.fitDetects {
            let (metresPerMs, caloriesPerMs) = HealthConnectMetricComposer.intensity(training.type, &fit)
            let (start, end) = fitRideBoundaries(training, context)
            var from = start
            while from < end {
                let to = min(end, from + 5 * Self.minute)
                let modified = end + fit.int64(Self.minute...30 * Self.minute)
                quantity(.distance, .fit, from, to, Int64((Double(to - from) * metresPerMs * 1000).rounded()), modified, context)
                quantity(.activeCalories, .fit, from, to, Int64((Double(to - from) * caloriesPerMs).rounded()), modified, context)
                from = to
            }
        }
        // A resync writes a few of Fit's records again, under new client ids: exact duplicates.
        let last = day.quantities.count
        for index in first..<last where fit.chance(0.03) {
            var copy = day.quantities[index]
            copy.metadata = resynced(copy.metadata)
            append(copy)
        }
        if fit.chance(0.012) {
            // A GPS jump: hundreds of kilometres in two minutes, more than a day's plausible 350 km.
            let start = context.wakingDay.lowerBound + fit.int64(0...(context.wakingDay.upperBound - context.wakingDay.lowerBound) / 2)
            quantity(.distance, .fit, start, start + 2 * Self.minute, fit.int64(380_000...460_000) * 1000,
                     start + 10 * Self.minute, context)
        }
        hourlyTotals(.fit, context, &fit)
    }

    /// Walks of 10 minutes or more as the watch's walking workouts, the training; Fit's walks of
    /// 15 minutes or more and the bike rides it detects, with titles in the phone's language.
    mutating func composeExercise(_ context: Context) {
        var watch = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_45_57)  // "HCEW"
        var fit = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_45_46)  // "HCEF"
        if context.watchWorn {
            for walk in context.walks where walk.endMs - walk.startMs >= 10 * Self.minute {
                exercise(.samsung, walk.startMs / 1000 * 1000, walk.endMs / 1000 * 1000, .walking, title: nil,
                         route: false, method: .automaticallyRecorded, context, &watch)
            }
            if let training = context.training {
                exercise(.samsung, training.startMs, training.endMs, training.type, title: nil, route: false,
                         method: .activelyRecorded, context, &watch)
            }
        }
        for walk in context.walks where walk.carriesPhone && walk.endMs - walk.startMs >= 15 * Self.minute && fit.chance(0.85) {
            let start = (walk.startMs + fit.int64(30_000...150_000)) / 1000 * 1000
            let end = (walk.endMs - fit.int64(0...90_000)) / 1000 * 1000
            let hour = HealthConnectMetricComposer.wallHour(start, context)
            let title = hour < 12 ? "Morgenspaziergang" : hour < 18 ? "Spaziergang am Nachmittag" : "Abendspaziergang"
            exercise(.fit, start, end, .walking, title: title, route: true, method: .automaticallyRecorded, context, &fit)
        }
        if let training = context.training, training.fitDetects {
            let (start, end) = fitRideBoundaries(training, context)
            let hour = HealthConnectMetricComposer.wallHour(start, context)
            let title = hour < 11 ? "Radfahrt am Morgen" : hour < 14 ? "Radfahrt über Mittag" : "Radfahrt am Abend"
            exercise(.fit, start, end, .biking, title: title, route: true, method: .automaticallyRecorded, context, &fit)
        }
    }

    // MARK: - Pieces


    /// Metres and small calories per millisecond of a training.
    static func intensity(_ type: HealthConnectExerciseSession.ExerciseType, _ random: inout SplitMix64) -> (Double, Double) {
        switch type {
        case .biking: return (random.double(4.5, 6.5) / 1000, random.double(7000, 10_000) / 60_000)
        case .swimmingPool: return (random.double(0.45, 0.6) / 1000, random.double(8000, 11_000) / 60_000)
        case .strengthTraining: return (0, random.double(4500, 7000) / 60_000)
        case .walking: return (random.double(1.2, 1.5) / 1000, random.double(3500, 5000) / 60_000)
        }
    }

    /// Fit's ride, for its workout and its distance alike (a stream of its own): it notices a
    /// minute or three late and stops a little early.
    private func fitRideBoundaries(_ training: Training, _ context: Context) -> (Int64, Int64) {
        var ride = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_52_44)  // "HCRD"
        let start = training.startMs + ride.int64(1...3) * Self.minute
        let end = training.endMs - ride.int64(0...2) * Self.minute
        return (start, end)
    }

    /// The hour (0-23) of `ms` on the day's wall clock.
    static func wallHour(_ ms: Int64, _ context: Context) -> Int {
        let local = floorDivide(ms, 1000) + Int64(context.offset(ms))
        return Int(floorDivide(local, 3600) % 24)
    }

    /// Total calories by the hour over the day's 24 wall-clock hours: the basal rate, more while awake.
    private mutating func hourlyTotals(_ app: HealthConnectApp, _ context: Context, _ random: inout SplitMix64) {
        let basal = random.double(68_000, 74_000)
        for hour in 0..<24 {
            let start = context.instant(hour * 3600)
            let end = context.instant((hour + 1) * 3600)
            let awake = context.wakingDay.contains(start)
            let energy = Int64((basal * Double(end - start) / Double(Self.hour) + (awake ? random.double(0, 60_000) : 0)).rounded())
            quantity(.totalCalories, app, start, end, energy, end + random.int64(Self.minute...Self.hour), context)
        }
    }

    private mutating func quantity(_ kind: HealthConnectQuantityRecord.Kind, _ app: HealthConnectApp, _ start: Int64,
                                   _ end: Int64, _ thousandths: Int64, _ modified: Int64, _ context: Context) {
        append(HealthConnectQuantityRecord(kind: kind, metadata: metadata(app, modified: modified), startMs: start, endMs: end,
                                           startOffset: context.offset(start), endOffset: context.offset(end),
                                           thousandths: thousandths))
    }

    private mutating func exercise(_ app: HealthConnectApp, _ start: Int64, _ end: Int64,
                                   _ type: HealthConnectExerciseSession.ExerciseType, title: String?, route: Bool,
                                   method: HealthConnectRecord.RecordingMethod, _ context: Context,
                                   _ random: inout SplitMix64) {
        let session = HealthConnectExerciseSession(
            metadata: metadata(app, modified: end + random.int64(Self.minute...Self.hour), method: method),
            startMs: start, endMs: end, startOffset: context.offset(start), endOffset: context.offset(end),
            type: type, title: title, notes: nil, hasRoute: route)
        append(session)
        if app == .samsung && random.chance(0.06) {
            // Written again by a resync: an exact duplicate.
            var copy = session
            copy.metadata = resynced(session.metadata)
            append(copy)
        }
    }
}
