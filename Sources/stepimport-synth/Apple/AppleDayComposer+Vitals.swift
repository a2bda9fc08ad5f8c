extension AppleDayComposer {
    /// Heart rate from the watch about every five minutes while it is worn, every
    /// few seconds during a workout, each with its motion-context metadata. This
    /// is the bulk of a real Watch owner's export.
    mutating func writeHeartRate(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 30)
        let bouts = plan.bouts
        var boutIndex = 0
        var at = plan.dayStart + random.int64(0...240)
        while at < plan.dayEnd {
            if !plan.watchOnWrist(at: at) {
                at = plan.charging.upperBound + random.int64(30...240)
                continue
            }
            while boutIndex < bouts.count && bouts[boutIndex].end <= at { boutIndex += 1 }
            let bpm: Int
            var context: StaticString = "0"
            var step = random.int64(270...360)
            if boutIndex < bouts.count && bouts[boutIndex].start <= at {
                let bout = bouts[boutIndex]
                switch bout.kind {
                case .run: bpm = random.int(145...172)
                case .walk: bpm = random.int(96...126)
                case .pottering: bpm = random.int(80...100)
                }
                if bout.isWorkout {
                    context = "2"
                    // Real sessions sample every few seconds; every 15-25 s keeps
                    // the committed sample small without changing the shape.
                    step = random.int64(15...25)
                } else {
                    step = random.int64(150...300)
                }
            } else if plan.asleep(at: at) {
                bpm = random.int(49...62)
                step = random.int64(420...660)
            } else {
                bpm = random.int(60...88)
                if random.chance(0.3) { context = "1" }
            }
            list.begin(at: at)
            openRecord("HKQuantityTypeIdentifierHeartRate", .watch, unit: "count/min",
                       created: syncTime(.watch, after: at), start: at, end: at)
            list.buffer.append(" value=\"")
            list.buffer.append(int: bpm)
            list.buffer.append("\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"")
            list.buffer.append(context)
            appendPendingControlCharacter()
            list.buffer.append("\"/>\n </Record>\n")
            list.end()
            noteMetric(.heartRate, .watch, start: at, end: at, value: Double(bpm))
            at += step
        }
    }

    /// Heart-rate variability (SDNN) a few times a day, each with the list of
    /// instantaneous beats per minute it was computed from.
    mutating func writeHeartRateVariability(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 31)
        for _ in 0..<random.int(2...4) {
            let start = random.int64(plan.dayStart...(plan.dayEnd - 120))
            guard plan.watchOnWrist(at: start) else { continue }
            let base = plan.asleep(at: start) ? random.int(50...60) : random.int(60...78)
            let end = start + 60
            list.begin(at: start)
            openRecord("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .watch, unit: "ms",
                       created: syncTime(.watch, after: end), start: start, end: end)
            list.buffer.append(" value=\"")
            let tenThousandthsOfMs = random.int(180_000...850_000)
            list.buffer.append(scaled: tenThousandthsOfMs, places: 4)
            list.buffer.append("\">\n  <HeartRateVariabilityMetadataList>\n")
            var beat = start * 100 + random.int64(0...99)
            while beat < end * 100 {
                let bpm = base + random.int(-4...4)
                list.buffer.append("   <InstantaneousBeatsPerMinute bpm=\"")
                list.buffer.append(int: bpm)
                list.buffer.append("\" time=\"")
                list.buffer.append(beatTime: floorDivide(beat, 100), hundredths: Int(beat - floorDivide(beat, 100) * 100))
                list.buffer.append("\"/>\n")
                beat += Int64(6000 / bpm)
            }
            list.buffer.append("  </HeartRateVariabilityMetadataList>\n </Record>\n")
            list.end()
            noteMetric(.heartRateVariability, .watch, start: start, end: end, value: Double(tenThousandthsOfMs) / 10_000)
        }
    }

    /// Active energy in short samples (a minute or two while walking, longer at
    /// rest) and basal energy in 10-25 minute samples, while the watch is worn.
    mutating func writeEnergy(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 32)
        let bouts = plan.bouts
        var boutIndex = 0
        var at = plan.dayStart + random.int64(0...120)
        while at < plan.dayEnd {
            if !plan.watchOnWrist(at: at) {
                at = plan.charging.upperBound
                continue
            }
            while boutIndex < bouts.count && bouts[boutIndex].end <= at { boutIndex += 1 }
            var end: Int64
            let kcalPerMinute: Double
            if boutIndex < bouts.count && bouts[boutIndex].start <= at {
                let bout = bouts[boutIndex]
                end = min(at + random.int64(120...240), bout.end)
                switch bout.kind {
                case .run: kcalPerMinute = random.double(9, 12.5)
                case .walk: kcalPerMinute = random.double(3.2, 4.8)
                case .pottering: kcalPerMinute = random.double(1.5, 2.5)
                }
            } else {
                let asleep = plan.asleep(at: at)
                end = at + (asleep ? random.int64(1800...3600) : random.int64(900...1800))
                if boutIndex < bouts.count { end = min(end, bouts[boutIndex].start) }
                kcalPerMinute = asleep ? random.double(0.0, 0.05) : random.double(0.05, 0.4)
            }
            if plan.charging.lowerBound > at { end = min(end, plan.charging.lowerBound) }
            end = min(end, plan.dayEnd)
            if end - at >= 20 {
                let millikcal = Int((kcalPerMinute * Double(end - at) / 60 * 1000).rounded())
                if millikcal > 0 {
                    activeEnergyMillikcal += millikcal
                    writeRecord("HKQuantityTypeIdentifierActiveEnergyBurned", .watch, unit: "kcal",
                                created: syncTime(.watch, after: end), start: at, end: end,
                                scaled: millikcal, places: 3)
                    noteMetric(.activeEnergy, .watch, start: at, end: end, value: Double(millikcal) / 1000)
                }
            }
            at = end
        }

        at = plan.dayStart + random.int64(0...300)
        while at < plan.dayEnd {
            if !plan.watchOnWrist(at: at) {
                at = plan.charging.upperBound
                continue
            }
            var end = min(at + random.int64(900...1800), plan.dayEnd)
            if plan.charging.lowerBound > at { end = min(end, plan.charging.lowerBound) }
            if end - at >= 20 {
                let millikcal = Int((random.double(0.95, 1.15) * Double(end - at) / 60 * 1000).rounded())
                writeRecord("HKQuantityTypeIdentifierBasalEnergyBurned", .watch, unit: "kcal",
                            created: syncTime(.watch, after: end), start: at, end: end,
                            scaled: millikcal, places: 3)
            }
            at = end
        }
    }

    /// Exercise minutes (one record per brisk minute) and stand hours (one per
    /// waking hour, stood or idle), both from the watch.
    mutating func writeExerciseAndStand(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 33)
        for bout in plan.bouts where bout.watchWorn {
            guard bout.isWorkout || (bout.kind == .walk && bout.duration >= 900 && bout.cadence >= 105) else {
                continue
            }
            var minute = bout.start
            while minute + 60 <= bout.end {
                writeRecord("HKQuantityTypeIdentifierAppleExerciseTime", .watch, unit: "min",
                            created: syncTime(.watch, after: minute + 60), start: minute, end: minute + 60, value: 1)
                noteMetric(.exercise, .watch, start: minute, end: minute + 60, value: 1)
                exerciseMinutes += 1
                minute += 60
            }
        }
        let firstHour = BerlinClock.secondsIntoDay(at: plan.wake) / 3600 + 1
        let lastHour = plan.sleepStart >= plan.dayEnd ? 23 : BerlinClock.secondsIntoDay(at: plan.sleepStart) / 3600 - 1
        guard firstHour <= lastHour else { return }
        for hour in firstHour...lastHour {
            let start = BerlinClock.instant(dayNumber: plan.dayNumber, secondsIntoDay: hour * 3600)
            let end = start + 3600
            guard plan.watchOnWrist(at: start) && plan.watchOnWrist(at: end - 1) else { continue }
            let moved = plan.bouts.contains { $0.start < end && $0.end > start }
            let stood = moved || random.chance(0.4)
            if stood { standHours += 1 }
            writeCategory("HKCategoryTypeIdentifierAppleStandHour", .watch,
                          created: syncTime(.watch, after: end), start: start, end: end,
                          value: stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle")
        }
    }

    /// Gait measurements the iPhone takes on longer walks in a pocket, and the
    /// flights of stairs it counts.
    mutating func writePhoneWalkingMetrics(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 34)
        for bout in plan.bouts where bout.phoneCarried && bout.kind == .walk && bout.duration >= 600 {
            for _ in 0..<random.int(1...2) {
                let start = random.int64(bout.start...(bout.end - 60))
                let end = start + random.int64(10...40)
                let created = syncTime(.phone, after: end)
                writeRecord("HKQuantityTypeIdentifierWalkingSpeed", .phone, unit: "km/hr",
                            created: created, start: start, end: end, scaled: random.int(420...580), places: 2)
                writeRecord("HKQuantityTypeIdentifierWalkingStepLength", .phone, unit: "cm",
                            created: created, start: start, end: end, value: random.int(66...78))
                writeRecord("HKQuantityTypeIdentifierWalkingDoubleSupportPercentage", .phone, unit: "%",
                            created: created, start: start, end: end, scaled: random.int(240...310), places: 3)
                writeRecord("HKQuantityTypeIdentifierWalkingAsymmetryPercentage", .phone, unit: "%",
                            created: created, start: start, end: end,
                            scaled: random.chance(0.8) ? 0 : random.int(1...60), places: 3)
            }
        }
        let carried = plan.bouts.filter(\.phoneCarried)
        guard !carried.isEmpty else { return }
        for _ in 0..<random.int(3...12) {
            let bout = carried[random.int(0...(carried.count - 1))]
            let start = random.int64(bout.start...(bout.end - 1))
            let end = start + random.int64(10...40)
            let flights = random.int(1...2)
            writeRecord("HKQuantityTypeIdentifierFlightsClimbed", .phone, unit: "count",
                        created: syncTime(.phone, after: end), start: start, end: end, value: flights)
            noteMetric(.flights, .phone, start: start, end: end, value: Double(flights))
        }
    }

    /// Environmental sound levels, measured by the watch in half-hour windows.
    mutating func writeAudioExposure(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 35)
        var at = plan.wake + random.int64(300...1800)
        while at < min(plan.sleepStart, plan.dayEnd) {
            let end = at + 1800
            if plan.watchOnWrist(at: at) && plan.watchOnWrist(at: end) {
                writeRecord("HKQuantityTypeIdentifierEnvironmentalAudioExposure", .watch, unit: "dBASPL",
                            created: syncTime(.watch, after: end), start: at, end: end,
                            scaled: random.int(420_000...760_000), places: 4)
            }
            at = end + random.int64(1800...3600)
        }
    }

    /// Resting and walking-average heart rate, one each per day.
    mutating func writeDailyHeartRateSummaries(_ plan: DayPlan) {
        guard !plan.watchForgotten else { return }
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 36)
        let start = plan.dayStart + random.int64(60...900)
        let end = min(plan.sleepStart, plan.dayEnd - 60)
        let created = end + random.int64(60...600)
        let resting = random.int(50...62)
        writeRecord("HKQuantityTypeIdentifierRestingHeartRate", .watch, unit: "count/min",
                    created: created, start: start, end: end, value: resting)
        noteMetric(.restingHeartRate, .watch, start: start, end: end, value: Double(resting))
        let walks = plan.bouts.filter { $0.kind == .walk && $0.watchWorn }
        if let first = walks.first, let last = walks.last {
            writeRecord("HKQuantityTypeIdentifierWalkingHeartRateAverage", .watch, unit: "count/min",
                        created: last.end + random.int64(600...3600), start: first.start, end: last.end,
                        value: random.int(96...114))
        }
    }

    /// The day's Activity rings, written last in the day.
    mutating func writeActivitySummary(_ plan: DayPlan) {
        list.begin(at: plan.dayEnd - 1)
        list.buffer.append(" <ActivitySummary dateComponents=\"")
        list.buffer.append(date: CivilDate(dayNumber: plan.dayNumber))
        list.buffer.append("\" activeEnergyBurned=\"")
        list.buffer.append(scaled: activeEnergyMillikcal, places: 3)
        list.buffer.append("\" activeEnergyBurnedGoal=\"450\" activeEnergyBurnedUnit=\"kcal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"")
        list.buffer.append(int: exerciseMinutes)
        list.buffer.append("\" appleExerciseTimeGoal=\"30\" appleStandHours=\"")
        list.buffer.append(int: standHours)
        list.buffer.append("\" appleStandHoursGoal=\"12\"/>\n")
        list.end()
    }
}
