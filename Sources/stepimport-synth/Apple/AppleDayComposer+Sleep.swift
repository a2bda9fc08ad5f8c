extension AppleDayComposer {
    /// Tonight's sleep: the phone's in-bed interval from the sleep schedule, the
    /// watch's sleep stages, and the breathing rate and blood oxygen it measures
    /// meanwhile. Most of it falls after midnight and is carried into the next
    /// day's list.
    mutating func writeSleep(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 40)
        let inBedStart = plan.sleepStart - random.int64(300...1200)
        let inBedEnd = plan.nextWake + random.int64(120...600)
        let morning = plan.nextWake + random.int64(300...1800)
        writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .phone, created: morning,
                      start: inBedStart, end: inBedEnd, value: "HKCategoryValueSleepAnalysisInBed")
        noteSleep(.inBed, .phone, start: inBedStart, end: inBedEnd)
        tonight.phoneInBed = inBedStart..<inBedEnd

        guard plan.watchOnWrist(at: plan.sleepStart) && plan.watchOnWrist(at: plan.nextWake - 1) else { return }
        var at = plan.sleepStart + random.int64(300...1500)
        var cycle = 0
        while at < plan.nextWake {
            // One sleep cycle: core, deep (more early in the night), core, REM
            // (more towards morning), sometimes a short awakening.
            let early = cycle < 2
            let stages: [(StaticString, WrittenMetricSample.SleepStage, ClosedRange<Int64>)] = [
                ("HKCategoryValueSleepAnalysisAsleepCore", .asleepCore, 900...2100),
                ("HKCategoryValueSleepAnalysisAsleepDeep", .asleepDeep, early ? 1200...2100 : 300...900),
                ("HKCategoryValueSleepAnalysisAsleepCore", .asleepCore, 600...1500),
                ("HKCategoryValueSleepAnalysisAsleepREM", .asleepREM, early ? 480...1200 : 900...2100),
            ]
            for (stage, noted, length) in stages where at < plan.nextWake {
                let end = min(at + random.int64(length), plan.nextWake)
                writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .watch, created: morning,
                              start: at, end: end, value: stage)
                noteSleep(noted, .watch, start: at, end: end)
                tonight.watchAsleep.append(at..<end)
                at = end
            }
            if at < plan.nextWake && random.chance(0.35) {
                let end = min(at + random.int64(60...240), plan.nextWake)
                writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .watch, created: morning,
                              start: at, end: end, value: "HKCategoryValueSleepAnalysisAwake")
                noteSleep(.awake, .watch, start: at, end: end)
                at = end
            }
            cycle += 1
        }

        at = plan.sleepStart + random.int64(600...2400)
        while at < plan.nextWake - 600 {
            let end = at + random.int64(60...300)
            writeRecord("HKQuantityTypeIdentifierRespiratoryRate", .watch, unit: "count/min",
                        created: morning, start: at, end: end, scaled: random.int(24...35) * 5, places: 1)
            at = end + random.int64(1500...2700)
        }
        for _ in 0..<random.int(3...6) {
            let at = random.int64(plan.sleepStart...(plan.nextWake - 60))
            writeRecord("HKQuantityTypeIdentifierOxygenSaturation", .watch, unit: "%",
                        created: at + random.int64(30...900), start: at, end: at, scaled: random.int(94...99), places: 2)
        }
    }
}
