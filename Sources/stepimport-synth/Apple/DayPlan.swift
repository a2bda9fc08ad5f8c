/// What the owner did on one Berlin calendar day: when they woke and went to
/// bed, when they walked, whether phone and watch were with them.
///
/// Everything the day's records say is derived from this plan, so step sources
/// disagree only in the ways real devices do (coverage, sample boundaries, a
/// few percent of bias), and heart rate, energy and workouts line up with the
/// walks. A plan is a pure function of (seed, day), so any day can be rebuilt
/// without generating the days before it.
struct DayPlan {
    /// Berlin date of the day, as days since 1970-01-01.
    let dayNumber: Int
    /// Instant of the local midnight that starts the day.
    let dayStart: Int64
    /// Instant of the next local midnight (23 or 25 hours later on DST days).
    let dayEnd: Int64
    /// This morning's wake-up (the previous night's sleep ends here).
    let wake: Int64
    /// Tonight's sleep onset (may fall after `dayEnd`).
    let sleepStart: Int64
    /// Tomorrow morning's wake-up, the end of tonight's sleep.
    let nextWake: Int64
    /// When the watch is off the wrist: on its charger, or all day and night
    /// when it was forgotten.
    let charging: Range<Int64>
    /// The phone stayed at home all day.
    let phoneForgotten: Bool
    /// The watch was not worn at all.
    let watchForgotten: Bool
    /// Saturday or Sunday.
    let isWeekend: Bool
    /// Non-overlapping bouts in start order.
    let bouts: [WalkingBout]
    /// Multiplier between true steps and what the phone counts.
    let phoneBias: Double
    /// Multiplier between true steps and what the watch counts.
    let watchBias: Double
    /// Multiplier for the Mi Fit band, or nil when the band was not worn today.
    let miFitBias: Double?

    /// Builds the plan of Berlin day `dayNumber` for `seed`.
    init(seed: UInt64, dayNumber: Int) {
        var random = SplitMix64(seed: seed, day: dayNumber, stream: 1)
        self.dayNumber = dayNumber
        dayStart = BerlinClock.midnight(dayNumber: dayNumber)
        dayEnd = BerlinClock.midnight(dayNumber: dayNumber + 1)
        wake = DayPlan.wake(seed: seed, dayNumber: dayNumber)
        nextWake = DayPlan.wake(seed: seed, dayNumber: dayNumber + 1)
        isWeekend = CivilDate.weekday(ofDayNumber: dayNumber) >= 5

        func clock(_ fromMinute: Int, _ toMinute: Int) -> Int64 {
            BerlinClock.instant(dayNumber: dayNumber,
                                secondsIntoDay: random.int64(Int64(fromMinute) * 60...Int64(toMinute) * 60))
        }
        func minutes(_ low: Int, _ high: Int, scale: Double = 1) -> Int64 {
            max(60, Int64(Double(random.int64(Int64(low) * 60...Int64(high) * 60)) * scale))
        }
        // A lazy or a busy day scales every walk.
        let activity = random.double(0.5, 1.45)
        phoneForgotten = random.chance(0.025)
        watchForgotten = !phoneForgotten && random.chance(0.03)

        // Candidates in priority order; a later one is dropped if it overlaps
        // one kept before it.
        var candidates: [WalkingBout] = []
        func add(_ start: Int64, _ length: Int64, _ kind: WalkingBout.Kind, _ cadence: Double) {
            candidates.append(WalkingBout(start: start, end: start + length, kind: kind,
                                          cadence: cadence, phoneCarried: true))
        }
        var eveningWalkStart: Int64 = -1
        if !isWeekend {
            add(clock(455, 490), minutes(8, 18, scale: activity), .walk, random.double(102, 118))
            if random.chance(0.7) {
                add(clock(720, 765), minutes(10, 30, scale: activity), .walk, random.double(95, 112))
            }
            add(clock(1020, 1100), minutes(8, 18, scale: activity), .walk, random.double(100, 116))
            if random.chance(0.16) {
                add(clock(1100, 1180), minutes(22, 50), .run, random.double(158, 176))
            }
            if random.chance(0.45) {
                eveningWalkStart = clock(1140, 1260)
                add(eveningWalkStart, minutes(20, 55, scale: activity), .walk, random.double(100, 120))
            }
        } else {
            if random.chance(0.3) {
                add(clock(540, 630), minutes(25, 55), .run, random.double(158, 176))
            }
            for _ in 0..<random.int(2...4) {
                add(clock(570, 1110), minutes(15, 80, scale: activity), .walk, random.double(96, 116))
            }
        }
        let lateWalk = DayPlan.lateWalk(seed: seed, dayNumber: dayNumber)
        if let lateWalk {
            candidates.append(lateWalk)
        }
        let potterCount = Int(Double(random.int(10...22)) * activity)
        let potterFrom = BerlinClock.secondsIntoDay(at: wake) / 60 + 5
        for _ in 0..<potterCount {
            add(clock(Int(potterFrom), 1350), random.int64(60...240), .pottering, random.double(25, 70))
        }

        var kept: [WalkingBout] = []
        for candidate in candidates {
            guard candidate.start >= wake + 300 else { continue }
            let clash = kept.contains { candidate.start < $0.end + 60 && $0.start < candidate.end + 60 }
            if !clash { kept.append(candidate) }
        }
        kept.sort { $0.start < $1.start }

        let lastEnd = kept.last?.end ?? dayStart
        sleepStart = max(clock(1360, 1430), lastEnd + random.int64(600...1500))

        if watchForgotten {
            charging = dayStart..<(dayEnd + 86_400)
        } else if random.chance(0.55) {
            let start = wake + random.int64(300...900)
            charging = start..<(start + random.int64(2100...3300))
        } else {
            let start = clock(1200, 1300)
            charging = start..<(start + random.int64(2400...4800))
        }

        for index in kept.indices {
            var bout = kept[index]
            switch bout.kind {
            case .pottering: bout.phoneCarried = random.chance(0.55)
            case .walk: bout.phoneCarried = random.chance(0.95)
            case .run: bout.phoneCarried = random.chance(0.5)
            }
            if bout.start == lateWalk?.start { bout.phoneCarried = true }
            if phoneForgotten { bout.phoneCarried = bout.kind == .pottering && random.chance(0.5) }
            bout.watchWorn = !(charging.contains(bout.start) || charging.contains(bout.end - 1)
                || (bout.start < charging.lowerBound && bout.end > charging.upperBound))
            bout.isWorkout = bout.watchWorn
                && (bout.kind == .run
                    || (bout.kind == .walk && bout.duration >= 1200
                        && (isWeekend || bout.start == eveningWalkStart) && random.chance(0.35)))
            kept[index] = bout
        }
        bouts = kept

        phoneBias = random.double(0.92, 1.06)
        watchBias = random.double(0.88, 1.02)

        // The band is worn for weeks at a time, not on isolated days. It is off
        // on the days a walk runs past midnight (today's or yesterday's), so on
        // every band day the phone and the band saw the same walks and the
        // band's duplicates always lift its raw sum above the phone's.
        var weekRandom = SplitMix64(seed: seed, day: Int(floorDivide(Int64(dayNumber), 7)), stream: 2)
        let bandWeek = weekRandom.chance(0.5)
        let bandOn = bandWeek && random.chance(0.85) && lateWalk == nil
            && DayPlan.lateWalk(seed: seed, dayNumber: dayNumber - 1) == nil
        miFitBias = bandOn ? random.double(0.62, 0.78) : nil
    }

    /// The walk home around midnight that some evenings end with, whose samples
    /// cross midnight; a pure function of (seed, day) so the next day can ask.
    ///
    /// In summer the file's midnight (+0100) is 01:00 on the owner's clock, so
    /// the walk starts later for its samples to cross that midnight too.
    static func lateWalk(seed: UInt64, dayNumber: Int) -> WalkingBout? {
        var random = SplitMix64(seed: seed, day: dayNumber, stream: 4)
        guard random.chance(0.12) else { return nil }
        let summer = BerlinClock.offset(at: BerlinClock.midnight(dayNumber: dayNumber + 1)) == 7200
        let startMinute = summer ? random.int64(1420...1495) : random.int64(1400...1438)
        let start = BerlinClock.instant(dayNumber: dayNumber, secondsIntoDay: startMinute * 60 + random.int64(0...59))
        let length = random.int64(25 * 60...(summer ? 60 : 90) * 60)
        return WalkingBout(start: start, end: start + length, kind: .walk,
                           cadence: random.double(96, 110), phoneCarried: true)
    }

    /// The wake-up time of `dayNumber`, a pure function so that a night's sleep
    /// (generated with the evening) and the next morning agree on it.
    static func wake(seed: UInt64, dayNumber: Int) -> Int64 {
        var random = SplitMix64(seed: seed, day: dayNumber, stream: 3)
        let weekend = CivilDate.weekday(ofDayNumber: dayNumber) >= 5
        let seconds = weekend ? random.int64(26_400...33_600) : random.int64(21_900...25_200)
        return BerlinClock.instant(dayNumber: dayNumber, secondsIntoDay: seconds)
    }

    /// Whether the watch is on the wrist at `instant`.
    @inline(__always)
    func watchOnWrist(at instant: Int64) -> Bool {
        !charging.contains(instant)
    }

    /// Whether the owner is asleep at `instant` (last night or tonight).
    @inline(__always)
    func asleep(at instant: Int64) -> Bool {
        instant < wake || instant >= sleepStart
    }
}
