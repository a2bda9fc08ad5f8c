extension AppleDayComposer {
    /// A running app on the phone, started for some of the runs the watch also
    /// tracked and for some walks home around midnight. For each it writes its own
    /// `Workout` (the duration in minutes, moving time) and one distance and one
    /// active-energy record over the session, in its own units: miles, and kJ (an
    /// older version's `Cal` now and then). The walk home crosses midnight, so its
    /// distance and energy are split across two days.
    ///
    /// The app's session starts and stops at least a minute and a half apart from
    /// the watch's, so its workout minutes differ from the watch's by more than a
    /// minute: sometimes longer (the app's copy wins the day), sometimes shorter.
    mutating func writeRunningApp(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 74)
        let lateWalkStart = DayPlan.lateWalk(seed: seed, dayNumber: plan.dayNumber)?.start
        for bout in plan.bouts {
            let recorded: Bool
            if bout.start == lateWalkStart {
                recorded = random.chance(0.6)
            } else if bout.kind == .run && bout.isWorkout && bout.phoneCarried {
                recorded = random.chance(0.7)
            } else {
                continue
            }
            let longer = random.chance(0.5)
            let lead = random.int64(45...240)
            let tail = random.int64(45...240)
            let pause = random.int64(0...60)
            let sessionStart = longer ? bout.start - lead : bout.start + lead
            let sessionEnd = longer ? bout.end + tail : bout.end - tail
            let movingSeconds = sessionEnd - sessionStart - (longer ? 0 : pause)
            let running = bout.kind == .run
            let metres = bout.steps(from: sessionStart, to: sessionEnd) * stride(of: bout) * random.double(0.97, 1.03)
            let kcal = Double(movingSeconds) / 60 * (running ? random.double(10, 12.5) : random.double(3.5, 4.8))
            let writesCalories = random.chance(0.2)
            let created = sessionEnd + random.int64(30...900)
            guard recorded && movingSeconds > 600 else { continue }

            let hundredThousandthsOfMile = Int((metres / 1609.344 * 100_000).rounded())
            writeRecord("HKQuantityTypeIdentifierDistanceWalkingRunning", .strava, unit: "mi", created: created,
                        start: sessionStart, end: sessionEnd, scaled: hundredThousandthsOfMile, places: 5)
            noteMetric(.distance, .strava, start: sessionStart, end: sessionEnd,
                       value: Double(hundredThousandthsOfMile) / 100_000 * 1609.344)
            let energyText: (scaled: Int, places: Int)
            if writesCalories {
                let thousandths = Int((kcal * 1000).rounded())
                writeRecord("HKQuantityTypeIdentifierActiveEnergyBurned", .strava, unit: "Cal", created: created,
                            start: sessionStart, end: sessionEnd, scaled: thousandths, places: 3)
                noteMetric(.activeEnergy, .strava, start: sessionStart, end: sessionEnd, value: Double(thousandths) / 1000)
                energyText = (thousandths, 3)
            } else {
                let tenthsOfKJ = Int((kcal * 4.184 * 10).rounded())
                writeRecord("HKQuantityTypeIdentifierActiveEnergyBurned", .strava, unit: "kJ", created: created,
                            start: sessionStart, end: sessionEnd, scaled: tenthsOfKJ, places: 1)
                noteMetric(.activeEnergy, .strava, start: sessionStart, end: sessionEnd, value: Double(tenthsOfKJ) / 10 / 4.184)
                energyText = (tenthsOfKJ, 1)
            }

            let hundredBillionthsOfMinute = Int(movingSeconds * 100_000_000_000 / 60)
            list.begin(at: sessionStart)
            list.buffer.append(running
                ? " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\""
                : " <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" duration=\"")
            list.buffer.append(scaled: hundredBillionthsOfMinute, places: 11)
            list.buffer.append("\" durationUnit=\"min\"")
            sources[ExportSource.strava.rawValue].append(to: &list.buffer)
            appendDates(created: created, start: sessionStart, end: sessionEnd)
            list.buffer.append(">\n")
            appendMetadata("HKIndoorWorkout", "0")
            // The statistics repeat the records above: they must not count a second time.
            list.buffer.append("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" startDate=\"")
            list.buffer.append(appleTimestamp: sessionStart)
            list.buffer.append("\" endDate=\"")
            list.buffer.append(appleTimestamp: sessionEnd)
            list.buffer.append("\" sum=\"")
            list.buffer.append(scaled: hundredThousandthsOfMile, places: 5)
            list.buffer.append("\" unit=\"mi\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" startDate=\"")
            list.buffer.append(appleTimestamp: sessionStart)
            list.buffer.append("\" endDate=\"")
            list.buffer.append(appleTimestamp: sessionEnd)
            list.buffer.append("\" sum=\"")
            list.buffer.append(scaled: energyText.scaled, places: energyText.places)
            list.buffer.append(writesCalories ? "\" unit=\"Cal\"/>\n </Workout>\n" : "\" unit=\"kJ\"/>\n </Workout>\n")
            list.end()
            noteMetric(.workout, .strava, start: sessionStart, end: sessionEnd,
                       value: Double(hundredBillionthsOfMinute) / 100_000_000_000)
        }
    }
}
