extension AppleDayComposer {
    /// On the days the Mi Fit band is worn, its heart rate: a reading every ten
    /// minutes while the owner is up (a few missed), written like its steps, once
    /// per re-sync of its three-hour batch (one to three copies, exact duplicates).
    /// A watch day has more readings, so the watch's samples make the day, except
    /// when the watch stayed home; counted without collapsing the copies, the band
    /// would win some days. Now and then the band loses contact and writes 0.
    mutating func writeBandHeartRate(_ plan: DayPlan) {
        guard plan.miFitBias != nil else { return }
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 75)
        let bouts = plan.bouts
        var boutIndex = 0
        var batch: Int64 = .min
        var copies = 1
        var syncs: [Int64] = []
        var at = (floorDivide(plan.wake, 600) + 2) * 600
        let last = min(plan.sleepStart, plan.dayEnd)
        while at < last {
            let readingBatch = floorDivide(at, 10_800)
            if readingBatch != batch {
                batch = readingBatch
                copies = random.int(1...3)
                var sync = (readingBatch + 1) * 10_800 + random.int64(300...3600)
                syncs = []
                for _ in 0..<copies {
                    syncs.append(sync)
                    sync += random.int64(600...5400)
                }
            }
            while boutIndex < bouts.count && bouts[boutIndex].end <= at { boutIndex += 1 }
            let bpm: Int
            if boutIndex < bouts.count && bouts[boutIndex].start <= at {
                switch bouts[boutIndex].kind {
                case .run: bpm = random.int(140...168)
                case .walk: bpm = random.int(92...122)
                case .pottering: bpm = random.int(78...98)
                }
            } else {
                bpm = random.int(58...84)
            }
            if random.chance(0.9) {
                for created in syncs {
                    writeRecord("HKQuantityTypeIdentifierHeartRate", .miFit, unit: "count/min",
                                created: created, start: at, end: at, value: bpm)
                    noteMetric(.heartRate, .miFit, start: at, end: at, value: Double(bpm))
                }
            }
            at += 600
        }
        if random.chance(0.25) {
            // A lost contact, synced once on its own, between two readings.
            let instant = random.int64(plan.wake + 3600...max(plan.wake + 3600, last - 3600)) / 600 * 600 + 300
            writeRecord("HKQuantityTypeIdentifierHeartRate", .miFit, unit: "count/min",
                        created: instant + random.int64(600...7200), start: instant, end: instant, value: 0)
            noteMetric(.heartRate, .miFit, start: instant, end: instant, value: 0)
        }
    }
}
