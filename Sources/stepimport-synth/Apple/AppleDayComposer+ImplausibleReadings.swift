extension AppleDayComposer {
    /// Readings no body produces, as sensors write them now and then: a heart rate
    /// of 0 or of 255 and more, an HRV of 0 ms, a resting heart rate of 200. Each is
    /// written once, beside the day's real readings; the importer leaves them out
    /// (docs/metrics.md, plausible ranges) and counts them.
    mutating func writeImplausibleReadings(_ plan: DayPlan) {
        guard !plan.watchForgotten else { return }
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 76)
        func onWrist(_ random: inout SplitMix64) -> Int64? {
            let at = random.int64(plan.wake + 1800...max(plan.wake + 1800, min(plan.sleepStart, plan.dayEnd) - 1800))
            return plan.watchOnWrist(at: at) ? at : nil
        }
        if random.chance(0.07), let at = onWrist(&random) {
            let bpm = random.chance(0.4) ? 0 : random.int(255...320)
            writeRecord("HKQuantityTypeIdentifierHeartRate", .watch, unit: "count/min",
                        created: syncTime(.watch, after: at), start: at, end: at, value: bpm, addresses: .added)
            noteMetric(.heartRate, .watch, start: at, end: at, value: Double(bpm))
        }
        if random.chance(0.05), let at = onWrist(&random) {
            writeRecord("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", .watch, unit: "ms",
                        created: syncTime(.watch, after: at + 60), start: at, end: at + 60, value: 0, addresses: .added)
            noteMetric(.heartRateVariability, .watch, start: at, end: at + 60, value: 0)
        }
        if random.chance(0.04), let at = onWrist(&random) {
            let end = at + random.int64(600...3600)
            writeRecord("HKQuantityTypeIdentifierRestingHeartRate", .watch, unit: "count/min",
                        created: end + random.int64(60...600), start: at, end: end, value: 200, addresses: .added)
            noteMetric(.restingHeartRate, .watch, start: at, end: end, value: 200)
        }
    }
}
