/// Heart rate series, resting heart rate, HRV (RMSSD) and VO2max.
extension HealthConnectMetricComposer {
    /// The watch's series (every 10 minutes, every minute while walking or training, in one record
    /// an hour, now and then a record written twice and a reading of 0 or 255+ when it lost
    /// contact), the ring's night in one record, Fit's camera readings, the cuff's morning triple.
    mutating func composeHeartRate(_ context: Context) {
        var watch = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_48_57)  // "HCHW"
        var ring = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_48_4F)  // "HCHO"
        var fit = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_48_46)  // "HCHF"
        var cuff = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_48_42)  // "HCHB"

        if let night = context.night, context.watchAtNight {
            var samples: [HealthConnectHeartRateSeries.Sample] = []
            var time = night.bedMs + watch.int64(5 * Self.minute...15 * Self.minute)
            var rate = watch.double(52, 60)
            while time < night.wakeMs {
                rate = min(64, max(46, rate + watch.double(-2.5, 2.5)))
                samples.append(.init(epochMs: time, beatsPerMinute: watchReading(Int(rate.rounded()), &watch)))
                time += 10 * Self.minute + watch.int64(-20_000...20_000)
            }
            watchSeries(samples, context, &watch)
        }
        if context.watchWorn {
            var samples: [HealthConnectHeartRateSeries.Sample] = []
            var time = context.wakingDay.lowerBound + watch.int64(Self.minute...10 * Self.minute)
            var rate = watch.double(64, 76)
            var busy = context.walks.filter { $0.endMs - $0.startMs >= 10 * Self.minute }
                .map { ($0.startMs..<$0.endMs, HealthConnectExerciseSession.ExerciseType.walking) }
            if let training = context.training { busy.append((training.startMs..<training.endMs, training.type)) }
            while time < context.wakingDay.upperBound {
                let activity = busy.first { $0.0.contains(time) }?.1
                let target: ClosedRange<Double>
                switch activity {
                case .walking?: target = 94...116
                case .biking?: target = 118...148
                case .strengthTraining?: target = 96...132
                case .swimmingPool?: target = 112...142
                case nil: target = 62...84
                }
                rate = min(target.upperBound, max(target.lowerBound, rate + watch.double(-4, 4)))
                samples.append(.init(epochMs: time, beatsPerMinute: watchReading(Int(rate.rounded()), &watch)))
                time += activity == nil ? 10 * Self.minute + watch.int64(-15_000...15_000) : Self.minute
            }
            watchSeries(samples, context, &watch)
        }

        if let session = ringSession {
            var samples: [HealthConnectHeartRateSeries.Sample] = []
            var time = session.lowerBound + 150_000
            var rate = ring.double(50, 58)
            while time < session.upperBound {
                rate = min(62, max(44, rate + ring.double(-2, 2)))
                samples.append(.init(epochMs: time, beatsPerMinute: Int(rate.rounded())))
                time += 5 * Self.minute
            }
            if let first = samples.first, let last = samples.last {
                series(.oura, first.epochMs, last.epochMs + 1000, samples, context, modified: session.upperBound + 20 * Self.minute)
            }
        }

        let readings = fit.chance(0.35) ? (fit.chance(0.3) ? 2 : 1) : 0
        for _ in 0..<readings {
            // Measured with the phone's camera: 30 seconds, one value at the end.
            let span = context.wakingDay.upperBound - context.wakingDay.lowerBound - 30 * Self.minute
            let start = context.wakingDay.lowerBound + fit.int64(0...max(0, span))
            let sample = HealthConnectHeartRateSeries.Sample(epochMs: start + 30_000, beatsPerMinute: fit.int(62...92))
            series(.fit, start, start + 30_000, [sample], context, modified: start + 31_000, method: .activelyRecorded)
        }

        if cuff.chance(0.25) {
            // The blood-pressure cuff in the morning: three measurements a minute apart.
            let start = context.wakingDay.lowerBound + cuff.int64(20 * Self.minute...60 * Self.minute)
            let samples = (0..<3).map { HealthConnectHeartRateSeries.Sample(epochMs: start + Int64($0) * Self.minute + 45_000,
                                                                            beatsPerMinute: cuff.int(58...80)) }
            series(.withings, start, start + 3 * Self.minute, samples, context, modified: start + 5 * Self.minute,
                   deviceID: HealthConnectApp.bloodPressureCuffDeviceID, method: .activelyRecorded)
        }
    }

    /// Resting heart rate, HRV and VO2max.
    mutating func composeInstants(_ context: Context) {
        var watch = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_49_57)  // "HCIW"
        var ring = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_49_4F)  // "HCIO"
        var fit = SplitMix64(seed: seed, day: context.dayNumber, stream: 0x48_43_49_46)  // "HCIF"

        if let night = context.night, context.watchAtNight {
            // HRV a few times in the night (some written twice), resting heart rate in the morning.
            let count = watch.int(2...5)
            for index in 1...count {
                let time = night.bedMs + (night.wakeMs - night.bedMs) * Int64(index) / Int64(count + 1)
                var value = watch.int64(2000...7500)
                if watch.chance(0.02) { value = watch.chance(0.5) ? 0 : 35_000 }
                let record = instant(.heartRateVariability, .samsung, time, value, context)
                if watch.chance(0.05) {
                    var copy = record
                    copy.metadata = resynced(record.metadata)
                    append(copy)
                }
            }
            var resting = watch.int64(50...60) * 100
            if watch.chance(0.02) { resting = watch.chance(0.5) ? 0 : watch.int64(180...200) * 100 }
            instant(.restingHeartRate, .samsung, night.wakeMs + watch.int64(20 * Self.minute...90 * Self.minute), resting, context)
            if watch.chance(0.15) {
                // Worked out again in the evening.
                instant(.restingHeartRate, .samsung, context.wakingDay.upperBound - watch.int64(Self.hour...2 * Self.hour),
                        watch.int64(52...62) * 100, context)
            }
        }
        if let session = ringSession {
            instant(.restingHeartRate, .oura, session.upperBound, ring.int64(46...58) * 100, context)
            instant(.heartRateVariability, .oura, (session.lowerBound + session.upperBound) / 2, ring.int64(25...70) * 100, context)
        }
        if fit.chance(0.1) {
            instant(.restingHeartRate, .fit, context.instant(12 * 3600) + fit.int64(0...Self.hour), fit.int64(55...66) * 100, context)
        }

        // VO2max: the watch after a long walk or a ride, Fit's own estimate now and then.
        if context.watchWorn && watch.chance(0.5) {
            var after = context.walks.first { $0.endMs - $0.startMs >= 25 * Self.minute }?.endMs
            if let training = context.training, training.type == .biking { after = after ?? training.endMs }
            if let after {
                var value = watch.int64(410...450) * 10
                if watch.chance(0.03) { value = watch.chance(0.5) ? 0 : 12_000 }
                // Measured by the heart rate ratio method.
                instant(.vo2Max, .samsung, after + watch.int64(Self.minute...10 * Self.minute), value, context, method: 2)
            }
        }
        if fit.chance(0.06) {
            instant(.vo2Max, .fit, context.instant(12 * 3600 + 1800), fit.int64(3800...4400), context)
        }
    }

    // MARK: - Pieces

    /// A watch reading; one in about 300 is 0 or 255+ (lost contact).
    private func watchReading(_ rate: Int, _ random: inout SplitMix64) -> Int {
        guard random.chance(0.003) else { return rate }
        return random.chance(0.5) ? 0 : random.int(255...262)
    }

    /// The watch's samples in one record per wall-clock hour; now and then a record written twice.
    private mutating func watchSeries(_ samples: [HealthConnectHeartRateSeries.Sample], _ context: Context,
                                      _ random: inout SplitMix64) {
        var from = 0
        while from < samples.count {
            let hour = floorDivide(samples[from].epochMs + Int64(context.offset(samples[from].epochMs)) * 1000, Self.hour)
            var to = from + 1
            while to < samples.count,
                  floorDivide(samples[to].epochMs + Int64(context.offset(samples[to].epochMs)) * 1000, Self.hour) == hour {
                to += 1
            }
            let chunk = Array(samples[from..<to])
            let end = chunk.last!.epochMs + 1000
            let record = series(.samsung, chunk[0].epochMs, end, chunk, context,
                                modified: end + random.int64(5 * Self.minute...Self.hour))
            if random.chance(0.04) {
                var copy = record
                copy.metadata = resynced(record.metadata)
                append(copy)
            }
            from = to
        }
    }

    @discardableResult
    private mutating func series(_ app: HealthConnectApp, _ start: Int64, _ end: Int64,
                                 _ samples: [HealthConnectHeartRateSeries.Sample], _ context: Context, modified: Int64,
                                 deviceID: Int? = nil,
                                 method: HealthConnectRecord.RecordingMethod = .automaticallyRecorded) -> HealthConnectHeartRateSeries {
        let record = HealthConnectHeartRateSeries(
            metadata: metadata(app, modified: modified, deviceID: deviceID, method: method), startMs: start, endMs: end,
            startOffset: context.offset(start), endOffset: context.offset(end), samples: samples)
        append(record)
        return record
    }

    @discardableResult
    private mutating func instant(_ kind: HealthConnectInstantRecord.Kind, _ app: HealthConnectApp, _ time: Int64,
                                  _ hundredths: Int64, _ context: Context, method: Int = 0) -> HealthConnectInstantRecord {
        let record = HealthConnectInstantRecord(kind: kind, metadata: metadata(app, modified: time + 10 * Self.minute),
                                                timeMs: time, offset: context.offset(time), hundredths: hundredths,
                                                measurementMethod: method)
        append(record)
        return record
    }
}
