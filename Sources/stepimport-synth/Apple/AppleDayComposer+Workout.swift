extension AppleDayComposer {
    /// A `Workout` for every bout the watch tracked as one, with the metadata,
    /// events and statistics iOS 17 writes.
    ///
    /// Its `WorkoutStatistics` of type StepCount carries a `sum` that must not
    /// be counted: only top-level step `Record`s are samples.
    mutating func writeWorkouts(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 50)
        for (index, bout) in plan.bouts.enumerated() where bout.isWorkout {
            let start = bout.start
            let end = bout.end
            let minutes = Double(end - start) / 60
            let steps = watchStepsPerBout[index]
            let running = bout.kind == .run
            let activeKcal = minutes * (running ? random.double(9.5, 12) : random.double(3.6, 4.6))
            let basalKcal = minutes * random.double(0.95, 1.15)
            let kilometres = Double(steps) * (running ? 1.12 : 0.74) / 1000

            list.begin(at: start)
            list.buffer.append(running
                ? " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\""
                : " <Workout workoutActivityType=\"HKWorkoutActivityTypeWalking\" duration=\"")
            // HealthKit writes the duration as a double in minutes with all its digits.
            let durationMillis = (end - start) * 1000 + random.int64(0...999)
            let hundredBillionthsOfMinute = Int(durationMillis * 10_000_000 / 6)
            list.buffer.append(scaled: hundredBillionthsOfMinute, places: 11)
            noteMetric(.workout, .watch, start: start, end: end, value: Double(hundredBillionthsOfMinute) / 100_000_000_000)
            list.buffer.append("\" durationUnit=\"min\"")
            sources[ExportSource.watch.rawValue].append(to: &list.buffer)
            appendDates(created: end + random.int64(2...90), start: start, end: end)
            list.buffer.append(">\n")
            appendMetadata("HKIndoorWorkout", "0")
            list.buffer.append("  <MetadataEntry key=\"HKAverageMETs\" value=\"")
            list.buffer.append(scaled: running ? random.int(900_000...1_150_000) : random.int(330_000...450_000), places: 5)
            list.buffer.append(" kcal/hr\u{00B7}kg\"/>\n")
            list.buffer.append("  <MetadataEntry key=\"HKWeatherTemperature\" value=\"")
            list.buffer.append(scaled: random.int(280...860), places: 1)
            list.buffer.append(" degF\"/>\n  <MetadataEntry key=\"HKWeatherHumidity\" value=\"")
            list.buffer.append(int: random.int(35...95) * 100)
            list.buffer.append(" %\"/>\n")
            appendMetadata("HKTimeZone", "Europe/Berlin")
            list.buffer.append("  <MetadataEntry key=\"HKElevationAscended\" value=\"")
            list.buffer.append(int: random.int(300...6000))
            list.buffer.append(" cm\"/>\n")

            // One segment event per kilometre, and now and then a pause.
            let segments = max(1, Int(kilometres))
            let segmentSeconds = (end - start) / Int64(segments)
            for segment in 0..<segments {
                list.buffer.append("  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"")
                list.buffer.append(appleTimestamp: start + Int64(segment) * segmentSeconds)
                list.buffer.append("\" duration=\"")
                list.buffer.append(scaled: Int(segmentSeconds) * 1_000_000 / 60, places: 6)
                list.buffer.append("\" durationUnit=\"min\"/>\n")
            }
            if random.chance(0.3) {
                let pause = random.int64(start + 60...max(start + 60, end - 180))
                list.buffer.append("  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"")
                list.buffer.append(appleTimestamp: pause)
                list.buffer.append("\"/>\n  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"")
                list.buffer.append(appleTimestamp: pause + random.int64(20...120))
                list.buffer.append("\"/>\n")
            }

            appendStatistics("HKQuantityTypeIdentifierActiveEnergyBurned", start, end)
            list.buffer.append(" sum=\"")
            list.buffer.append(scaled: Int(activeKcal * 10_000), places: 4)
            list.buffer.append("\" unit=\"kcal\"/>\n")
            appendStatistics("HKQuantityTypeIdentifierBasalEnergyBurned", start, end)
            list.buffer.append(" sum=\"")
            list.buffer.append(scaled: Int(basalKcal * 10_000), places: 4)
            list.buffer.append("\" unit=\"kcal\"/>\n")
            appendStatistics("HKQuantityTypeIdentifierDistanceWalkingRunning", start, end)
            list.buffer.append(" sum=\"")
            list.buffer.append(scaled: Int(kilometres * 100_000), places: 5)
            list.buffer.append("\" unit=\"km\"/>\n")
            let low = running ? random.int(118...135) : random.int(82...95)
            let high = running ? random.int(170...186) : random.int(118...134)
            appendStatistics("HKQuantityTypeIdentifierHeartRate", start, end)
            list.buffer.append(" average=\"")
            list.buffer.append(scaled: random.int(low * 100...high * 100), places: 2)
            list.buffer.append("\" minimum=\"")
            list.buffer.append(int: low)
            list.buffer.append("\" maximum=\"")
            list.buffer.append(int: high)
            list.buffer.append("\" unit=\"count/min\"/>\n")
            appendStatistics("HKQuantityTypeIdentifierStepCount", start, end)
            list.buffer.append(" sum=\"")
            list.buffer.append(int: steps)
            list.buffer.append("\" unit=\"count\"/>\n </Workout>\n")
            list.end()
        }
    }

    /// `<WorkoutStatistics type=".." startDate=".." endDate=".."`, left open.
    private mutating func appendStatistics(_ type: StaticString, _ start: Int64, _ end: Int64) {
        list.buffer.append("  <WorkoutStatistics type=\"")
        list.buffer.append(type)
        list.buffer.append("\" startDate=\"")
        list.buffer.append(appleTimestamp: start)
        list.buffer.append("\" endDate=\"")
        list.buffer.append(appleTimestamp: end)
        list.buffer.append(UInt8(ascii: "\""))
    }
}
