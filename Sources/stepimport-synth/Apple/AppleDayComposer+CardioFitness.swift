import Glibc

extension AppleDayComposer {
    /// VO2max (Cardio Fitness), which the watch estimates after most outdoor walk and
    /// run workouts of twenty minutes or more and now and then after a long walk
    /// without one: a few a week, 35-48 mL/(kg·min), as an instantaneous sample a
    /// few minutes after the walk or run, in Apple's unit with a middle dot
    /// (`mL/min·kg`, U+00B7) and the test-type metadata Apple writes.
    mutating func writeCardioFitness(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 70)
        // Fitness drifts over the seasons: a slow wave around 41.
        let base = 41 + 3 * sin(Double(plan.dayNumber) * 2 * Double.pi / 190)
        for bout in plan.bouts where bout.watchWorn && bout.kind != .pottering && bout.duration >= 1200 {
            let estimated = random.chance(bout.isWorkout ? 0.6 : 0.08)
            let at = bout.end + random.int64(60...900)
            let estimate = base + (bout.kind == .run ? 1.2 : 0) + random.double(-1.8, 1.8)
            guard estimated && plan.watchOnWrist(at: at) else { continue }
            let tenThousandths = Int((min(48, max(35, estimate)) * 10_000).rounded())
            list.begin(at: at)
            openRecord("HKQuantityTypeIdentifierVO2Max", .watch, unit: "mL/min\u{00B7}kg",
                       created: at + random.int64(5...120), start: at, end: at, addresses: .added)
            list.buffer.append(" value=\"")
            list.buffer.append(scaled: tenThousandths, places: 4)
            list.buffer.append("\">\n")
            appendMetadata("HKVO2MaxTestType", "2")
            list.buffer.append(" </Record>\n")
            list.end()
            noteMetric(.vo2Max, .watch, start: at, end: at, value: Double(tenThousandths) / 10_000)
        }
    }
}
