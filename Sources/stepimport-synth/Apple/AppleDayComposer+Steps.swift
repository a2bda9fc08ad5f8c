extension AppleDayComposer {
    /// All of the day's top-level step records, with the distance records that
    /// Apple devices write alongside them.
    mutating func writeStepSamples(_ plan: DayPlan) {
        writePhoneSteps(plan)
        writeWatchSteps(plan)
        writeMiFitSteps(plan)
        writeManualSteps(plan)
        writeFractionalSteps(plan)
    }

    /// The iPhone's samples: contiguous 1-10 minute pieces of each bout it was
    /// carried on, plus now and then a zero-length sample (start == end).
    private mutating func writePhoneSteps(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 21)
        for bout in plan.bouts where bout.phoneCarried {
            var start = bout.start
            while start < bout.end {
                var end = min(start + random.int64(60...360), bout.end)
                if bout.end - end < 60 { end = bout.end }
                let steps = Int((bout.steps(from: start, to: end) * plan.phoneBias * random.double(0.96, 1.04)).rounded())
                if steps > 0 {
                    let created = syncTime(.phone, after: end)
                    writeStep(.phone, created: created, start: start, end: end, value: steps)
                    writeDistance(.phone, created: created, start: start, end: end, steps: steps,
                                  stride: stride(of: bout) * random.double(0.97, 1.03))
                }
                start = end
            }
        }
        if !plan.phoneForgotten && random.chance(0.35) {
            for _ in 0..<random.int(1...2) {
                let at = random.int64(plan.wake + 3600...max(plan.wake + 3600, plan.sleepStart - 3600))
                writeStep(.phone, created: at + random.int64(5...300), start: at, end: at, value: random.int(1...9))
            }
        }
    }

    /// The watch's samples of the same bouts: it starts and stops a few seconds
    /// apart from the phone, cuts shorter pieces, and has its own bias, so
    /// sometimes the phone's day total is higher and sometimes the watch's.
    private mutating func writeWatchSteps(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 22)
        watchStepsPerBout = Array(repeating: 0, count: plan.bouts.count)
        for (index, bout) in plan.bouts.enumerated() where bout.watchWorn {
            let first = bout.start + random.int64(0...25)
            let last = max(first + 30, bout.end - random.int64(0...25))
            var start = first
            while start < last {
                var end = min(start + random.int64(60...240), last)
                if last - end < 60 { end = last }
                let steps = Int((bout.steps(from: start, to: end) * plan.watchBias * random.double(0.95, 1.05)).rounded())
                if steps > 0 {
                    let created = syncTime(.watch, after: end)
                    writeStep(.watch, created: created, start: start, end: end, value: steps)
                    writeDistance(.watch, created: created, start: start, end: end, steps: steps,
                                  stride: stride(of: bout) * random.double(0.97, 1.03))
                    watchStepsPerBout[index] += steps
                }
                start = end
            }
        }
        if !plan.watchForgotten && random.chance(0.15) {
            let at = random.int64(plan.wake + 3600...max(plan.wake + 3600, plan.sleepStart - 3600))
            if plan.watchOnWrist(at: at) {
                writeStep(.watch, created: at + random.int64(5...300), start: at, end: at, value: random.int(1...6))
            }
        }
    }

    /// Mi Fit's 10-minute samples (`hh:m0:00` to `hh:m9:59`), each written 2 to
    /// 17 times with a different creationDate, once per re-sync of its batch.
    ///
    /// The band only sees the bouts the phone also saw and undercounts them, so
    /// its de-duplicated total stays below the phone's while its raw sum, with at
    /// least two copies of everything, is above it: a parser that skips the
    /// duplicate collapse picks the wrong source.
    private mutating func writeMiFitSteps(_ plan: DayPlan) {
        guard let bias = plan.miFitBias else { return }
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 23)
        var bucketStarts: [Int64] = []
        var bucketSteps: [Double] = []
        // The band is off for a walk that runs past midnight, so the band's
        // days and the phone's days cover the same walks.
        for bout in plan.bouts where bout.phoneCarried && bout.end <= plan.dayEnd {
            var bucket = floorDivide(bout.start, 600) * 600
            while bucket < bout.end {
                let steps = bout.steps(from: bucket, to: bucket + 600)
                if bucketStarts.last == bucket {
                    bucketSteps[bucketSteps.count - 1] += steps
                } else {
                    bucketStarts.append(bucket)
                    bucketSteps.append(steps)
                }
                bucket += 600
            }
        }
        var index = 0
        while index < bucketStarts.count {
            // The app syncs in batches of three hours; each re-sync rewrites the batch.
            let batchEnd = (floorDivide(bucketStarts[index], 10_800) + 1) * 10_800
            var next = index
            while next < bucketStarts.count && bucketStarts[next] < batchEnd { next += 1 }
            let u = random.unit()
            let copies = 2 + min(15, Int(16 * u * u * u * u))
            var syncs: [Int64] = []
            var sync = max(batchEnd, bucketStarts[next - 1] + 600) + random.int64(300...5400)
            for _ in 0..<copies {
                syncs.append(sync)
                sync += random.int64(180...2400)
            }
            for bucket in index..<next {
                let value = Int((bucketSteps[bucket] * bias).rounded())
                guard value > 0 else { continue }
                for created in syncs {
                    writeStep(.miFit, created: created, start: bucketStarts[bucket],
                              end: bucketStarts[bucket] + 599, value: value)
                }
            }
            index = next
        }
    }

    /// Steps typed into the Health app by hand, always on days the phone stayed
    /// home (where they win) and once in a while otherwise.
    private mutating func writeManualSteps(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 24)
        guard plan.phoneForgotten || random.chance(0.07) else { return }
        let startMinute = random.int(20...38) * 30
        let start = BerlinClock.instant(dayNumber: plan.dayNumber, secondsIntoDay: Int64(startMinute) * 60)
        let end = start + random.int64(2...6) * 900
        let value = plan.phoneForgotten ? random.int(4000...9000) : random.int(300...2500)
        let typedAt = BerlinClock.instant(dayNumber: plan.dayNumber, secondsIntoDay: random.int64(72_000...81_000))
        let created = max(typedAt, end + 600)

        list.begin(at: start)
        openRecord("HKQuantityTypeIdentifierStepCount", .healthApp, unit: "count",
                   created: created, start: start, end: end)
        list.buffer.append(" value=\"")
        list.buffer.append(int: value)
        list.buffer.append("\">\n")
        appendMetadata("HKWasUserEntered", "1")
        list.buffer.append(" </Record>\n")
        list.end()
        noteStep(.healthApp, start: start, end: end, value: Double(value))
    }

    /// A third-party app that writes quarter-step fractions ("12.5", "37.75")
    /// in 15-minute windows; its sums hit exact halves, which tests the
    /// half-away-from-zero rounding.
    private mutating func writeFractionalSteps(_ plan: DayPlan) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 25)
        guard random.chance(0.18) else { return }
        var slot = random.int(32...40)
        for _ in 0..<random.int(3...8) {
            guard slot <= 83 else { break }
            let start = BerlinClock.instant(dayNumber: plan.dayNumber, secondsIntoDay: Int64(slot) * 900)
            let end = start + 900
            let quarters = random.int(20...1600)
            list.begin(at: start)
            openRecord("HKQuantityTypeIdentifierStepCount", .stepBridge, unit: "count",
                       created: end + random.int64(60...3600), start: start, end: end)
            list.buffer.append(" value=\"")
            list.buffer.append(scaled: quarters * 25, places: 2)
            list.buffer.append("\"/>\n")
            list.end()
            noteStep(.stepBridge, start: start, end: end, value: Double(quarters) / 4)
            slot += random.int(1...6)
        }
    }

    /// A complete top-level step record with an integer count, noted for the
    /// expected totals.
    mutating func writeStep(_ source: ExportSource, created: Int64, start: Int64, end: Int64, value: Int) {
        writeRecord("HKQuantityTypeIdentifierStepCount", source, unit: "count",
                    created: created, start: start, end: end, value: value)
        noteStep(source, start: start, end: end, value: Double(value))
    }

    /// Counts a top-level step record just written and, when asked, keeps its
    /// note. Nested records (inside a Correlation) are never noted.
    mutating func noteStep(_ source: ExportSource, start: Int64, end: Int64, value: Double) {
        stepRecordCount += 1
        if collectsNotes {
            writtenSteps.append(WrittenStepSample(source: source, start: start, end: end, value: value))
        }
    }

    /// The distance record an Apple device writes for the same interval as a
    /// step sample.
    private mutating func writeDistance(_ source: ExportSource, created: Int64, start: Int64, end: Int64,
                                        steps: Int, stride: Double) {
        let hundredThousandthsOfKm = Int((Double(steps) * stride * 100).rounded())
        guard hundredThousandthsOfKm > 0 else { return }
        writeRecord("HKQuantityTypeIdentifierDistanceWalkingRunning", source, unit: "km",
                    created: created, start: start, end: end, scaled: hundredThousandthsOfKm, places: 5)
        noteMetric(.distance, source, start: start, end: end, value: Double(hundredThousandthsOfKm) / 100_000 * 1000)
    }

    /// Metres per step for a kind of bout.
    func stride(of bout: WalkingBout) -> Double {
        switch bout.kind {
        case .pottering: return 0.6
        case .walk: return 0.74
        case .run: return 1.12
        }
    }
}
