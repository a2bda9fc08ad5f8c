extension AppleDayComposer {
    /// On some nights the watch also writes an `AsleepUnspecified` interval over
    /// part of its own stages, sometimes starting a few minutes before the first
    /// one: the night's minutes are the union, never the sum.
    mutating func writeWatchUnspecifiedSleep(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 71)
        guard random.chance(0.2), let first = tonight.watchAsleep.first, let last = tonight.watchAsleep.last else {
            return
        }
        let start = first.lowerBound - (random.chance(0.5) ? random.int64(60...900) : -random.int64(0...1800))
        let end = min(last.upperBound, start + random.int64(5400...14_400))
        guard end > start else { return }
        writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .watch, created: plan.nextWake + random.int64(300...1800),
                      start: start, end: end, value: "HKCategoryValueSleepAnalysisAsleepUnspecified",
                      addresses: .added)
        noteSleep(.asleepUnspecified, .watch, start: start, end: end)
        tonight.watchAsleep.append(start..<end)
    }

    /// An iPhone sleep app on some nights: its session as one in-bed interval, and
    /// one whole-night `Asleep` interval (the value before iOS 16) over the
    /// watch's stages, sometimes longer than the watch's night (the app wins that
    /// morning) and sometimes shorter, by three minutes or more; now and then the
    /// same asleep record twice.
    mutating func writeSleepAppNight(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 72)
        guard random.chance(0.35), let phoneInBed = tonight.phoneInBed else { return }
        // The session starts when the alarm is set and ends when it is stopped: its
        // length differs from the phone's in-bed interval by 2.5 to 20 minutes.
        let startShift = random.int64(-600...600)
        let lengthChange = random.int64(150...1200) * (random.chance(0.5) ? 1 : -1)
        let inBedStart = phoneInBed.lowerBound + startShift
        let inBedEnd = phoneInBed.upperBound + startShift + lengthChange
        let watchSeconds = tonight.watchAsleepSeconds
        let asleepSeconds: Int64
        if watchSeconds > 0 {
            asleepSeconds = watchSeconds + random.int64(180...1500) * (random.chance(0.5) ? 1 : -1)
        } else {
            asleepSeconds = inBedEnd - inBedStart - random.int64(600...2400)
        }
        let asleepStart = inBedStart + max(60, (inBedEnd - inBedStart - asleepSeconds) / 2)
        let asleepEnd = asleepStart + asleepSeconds
        let created = max(inBedEnd, asleepEnd) + random.int64(20...600)
        let twice = random.chance(0.12)

        writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .sleepCycle, created: created,
                      start: inBedStart, end: inBedEnd, value: "HKCategoryValueSleepAnalysisInBed")
        noteSleep(.inBed, .sleepCycle, start: inBedStart, end: inBedEnd)
        for _ in 0..<(twice ? 2 : 1) {
            writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .sleepCycle, created: created,
                          start: asleepStart, end: asleepEnd, value: "HKCategoryValueSleepAnalysisAsleep")
            noteSleep(.asleep, .sleepCycle, start: asleepStart, end: asleepEnd)
        }
        tonight.sleepAppAsleep = asleepSeconds
    }

    /// A nap on some weekend afternoons, timed with the sleep app: its own sleep
    /// period on the same day as the night before, which adds to the app's minutes
    /// of the day when it also wrote that night. The nap never brings the app's
    /// day within three minutes of the watch's night.
    mutating func writeSleepAppNap(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 73)
        guard plan.isWeekend, random.chance(0.35) else { return }
        var length = random.int64(1200...5400)
        if let night = lastNight.sleepAppAsleep, abs(night + length - lastNight.watchAsleepSeconds) < 180 {
            length += 360
        }
        for _ in 0..<6 {
            let start = BerlinClock.instant(dayNumber: plan.dayNumber, secondsIntoDay: random.int64(46_800...59_400))
            let end = start + length
            // Not during a walk or a run, and well apart from the night before and the one after.
            let free = !plan.bouts.contains { $0.kind != .pottering && $0.start < end + 600 && $0.end > start - 600 }
            guard free && start >= plan.wake + 7200 && end <= plan.sleepStart - 7200 else { continue }
            writeCategory("HKCategoryTypeIdentifierSleepAnalysis", .sleepCycle, created: end + random.int64(20...300),
                          start: start, end: end, value: "HKCategoryValueSleepAnalysisAsleep")
            noteSleep(.asleep, .sleepCycle, start: start, end: end)
            return
        }
    }
}
