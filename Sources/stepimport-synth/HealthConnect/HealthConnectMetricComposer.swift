/// Makes one day of the synthetic Health Connect user's records of the metrics beyond steps
/// (docs/metrics.md), around the walks the step composer made for that day.
///
/// A day here is the waking day of the calendar date plus the night that ends on its morning:
/// the night's sleep sessions and its heart rate, HRV and resting heart rate are written with
/// the day on which it ends. When the person goes to bed and gets up is a function of the seed
/// and the date alone (`night(seed:endingOn:dayNumber:)`), so the day before knows when its
/// waking day ends without depending on the records of any other day.
///
/// Who writes what (`HealthConnectApp`):
/// - the Samsung watch, on the days it is worn (the step composer's draw): distance, active and
///   total calories and floors in 10-minute bins of its wall clock, heart rate every 10 minutes
///   and every minute while walking or training, walks of 10 minutes or more as walking
///   workouts, the day's training, VO2max after a long walk; on the nights it is worn: the
///   sleep session with stages, heart rate, HRV, the morning's resting heart rate; weekend naps;
/// - Google Fit, from the phone: distance, calories and floors of the walks the phone is carried
///   on (its own record boundaries, a few exact duplicates from a resync, now and then a GPS jump
///   of hundreds of kilometres), hourly total calories, the walks of 15 minutes or more and the
///   bike rides it detects as workouts, a heart rate measured with the camera now and then, its
///   own resting heart rate and VO2max estimates on some days;
/// - Withings' blood-pressure cuff: three heart rates a minute apart on some mornings;
/// - the Oura ring, on the nights it is worn: the session with stages in 5-minute steps, heart
///   rate every 5 minutes, one HRV and one resting heart rate;
/// - Sleep as Android, on the nights its alarm is set: the session only, or on some nights with
///   its own stages (awake in bed, sleeping, unknown where it lost track, out of bed).
///
/// Every family of records draws from its own random streams, seeded from (seed, day, stream):
/// the step records do not depend on these records.
struct HealthConnectMetricComposer {
    let seed: UInt64
    /// The records of the last composed day.
    private(set) var day = HealthConnectMetricDay()
    /// The ids of the last composed day's records.
    var ids = SplitMix64(seed: 0)
    /// The ring's sleep session of the last composed day's night, for its heart rate and HRV.
    var ringSession: Range<Int64>?

    static let second: Int64 = 1000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000

    /// A night: from going to bed to getting up, UTC milliseconds.
    struct Night {
        var bedMs: Int64
        var wakeMs: Int64
    }

    /// A training that is not a walk (no steps): a bike ride, the gym, the pool.
    struct Training {
        var type: HealthConnectExerciseSession.ExerciseType
        var startMs: Int64
        var endMs: Int64
        /// Whether Fit recognises it too (bike rides with the phone in a pocket).
        var fitDetects: Bool
    }

    /// What the families of records share about the day being composed.
    struct Context {
        let dayIndex: Int
        let dayNumber: Int
        let zone: TravelZone
        let walks: [HealthConnectDayComposer.Walk]
        let watchWorn: Bool
        /// The night that ends this morning, if the person slept long enough to count it.
        let night: Night?
        /// From getting up to going to bed (the next night's bedtime).
        let wakingDay: Range<Int64>
        let training: Training?
        /// Who records the night: the watch, the ring, the sleep app (nothing without a night).
        let watchAtNight: Bool
        let ringAtNight: Bool
        let sleepAppAtNight: Bool

        /// The zone offset at `ms`, in seconds.
        func offset(_ ms: Int64) -> Int32 {
            Int32(zone.offset(at: floorDivide(ms, 1000)))
        }

        /// The instant (ms) of `secondsOfDay` on this day's wall clock.
        func instant(_ secondsOfDay: Int) -> Int64 {
            zone.instant(wallClock: Int64(dayNumber) * 86_400 + Int64(secondsOfDay)) * 1000
        }

        /// Whether the day is a Saturday or a Sunday.
        var isWeekend: Bool {
            CivilDate.weekday(ofDayNumber: dayNumber) >= 5
        }
    }

    init(seed: UInt64) {
        self.seed = seed
    }

    /// Makes the metric records of day `dayIndex`, the calendar date `dayNumber`, around the
    /// walks of `steps`, which has just composed the same day.
    mutating func compose(dayIndex: Int, dayNumber: Int, steps: HealthConnectDayComposer) {
        day.removeAll()
        ringSession = nil
        ids = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_4D_49)  // "HCMI"
        let zone = Itinerary.zone(dayIndex: dayIndex)
        let night = HealthConnectMetricComposer.night(seed: seed, endingOn: dayIndex, dayNumber: dayNumber)
        let nextNight = HealthConnectMetricComposer.night(seed: seed, endingOn: dayIndex + 1, dayNumber: dayNumber + 1)
        let morning = zone.instant(wallClock: Int64(dayNumber) * 86_400 + 7 * 3600) * 1000
        let evening = max(zone.instant(wallClock: Int64(dayNumber) * 86_400 + 23 * 3600) * 1000,
                          (steps.walks.last?.endMs ?? 0) + 20 * HealthConnectMetricComposer.minute)
        let start = night?.wakeMs ?? min(morning, steps.walks.first?.startMs ?? morning)
        let wakingDay = start..<max(start + HealthConnectMetricComposer.hour, nextNight?.bedMs ?? evening)
        var plan = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_54_52)  // "HCTR"
        let training = HealthConnectMetricComposer.training(&plan, zone: zone, dayNumber: dayNumber,
                                                            walks: steps.walks, wakingDay: wakingDay)
        var wear = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_4E_57)  // "HCNW"
        let watchAtNight = wear.chance(0.7)
        let ringAtNight = wear.chance(0.45)
        let sleepAppAtNight = wear.chance(0.35)
        let context = Context(dayIndex: dayIndex, dayNumber: dayNumber, zone: zone, walks: steps.walks,
                              watchWorn: steps.watchWorn, night: night, wakingDay: wakingDay, training: training,
                              watchAtNight: night != nil && watchAtNight, ringAtNight: night != nil && ringAtNight,
                              sleepAppAtNight: night != nil && sleepAppAtNight)

        composeQuantities(context)
        composeExercise(context)
        composeSleep(context)
        composeHeartRate(context)
        composeInstants(context)
    }

    // MARK: - Nights and trainings

    /// The night that ends on the morning of day `dayIndex` (date `dayNumber`), or nil when it was
    /// too short to sleep (an overnight flight east). Bed after the evening's last walk (which may
    /// run past midnight), at about 22:00 to 00:30 on the wall clock of the day's zone, later on
    /// Friday and Saturday nights; up at about 06:15 to 07:45, later at weekends, and before the
    /// morning's first walk.
    static func night(seed: UInt64, endingOn dayIndex: Int, dayNumber: Int) -> Night? {
        var random = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_4E_54)  // "HCNT"
        let zone = Itinerary.zone(dayIndex: dayIndex)
        let weekend = CivilDate.weekday(ofDayNumber: dayNumber) >= 5
        let midnight = Int64(dayNumber) * 86_400
        let bedWall = midnight + Int64(random.int(-7200...1800)) + (weekend ? Int64(random.int(0...3600)) : 0)
        let wakeWall = midnight + Int64(random.int(6 * 3600 + 900...7 * 3600 + 2700))
            + (weekend ? Int64(random.int(1800...5400)) : 0)
        let afterLastWalk = random.int64(10 * minute...45 * minute)
        let beforeFirstWalk = random.int64(5 * minute...25 * minute)
        var bed = zone.instant(wallClock: bedWall) * 1000 + random.int64(0...59_999)
        var wake = zone.instant(wallClock: wakeWall) * 1000 + random.int64(0...59_999)
        let before = HealthConnectDayComposer.walks(seed: seed, dayIndex: dayIndex - 1, dayNumber: dayNumber - 1)
        if let last = before.last {
            bed = max(bed, last.endMs + afterLastWalk)
        }
        let after = HealthConnectDayComposer.walks(seed: seed, dayIndex: dayIndex, dayNumber: dayNumber)
        if let first = after.first {
            wake = min(wake, first.startMs - beforeFirstWalk)
        }
        return wake - bed >= 3 * hour ? Night(bedMs: bed, wakeMs: wake) : nil
    }

    /// On some days a training that is not a walk, in a free stretch of the day between 07:00 and
    /// 21:30 on its wall clock, away from the walks.
    private static func training(_ random: inout SplitMix64, zone: TravelZone, dayNumber: Int,
                                 walks: [HealthConnectDayComposer.Walk], wakingDay: Range<Int64>) -> Training? {
        guard random.chance(0.35) else { return nil }
        let kind = random.unit()
        let type: HealthConnectExerciseSession.ExerciseType = kind < 0.45 ? .biking : kind < 0.8 ? .strengthTraining : .swimmingPool
        let length: Int64
        switch type {
        case .biking: length = random.int64(25 * 60...75 * 60) * 1000
        case .strengthTraining: length = random.int64(40 * 60...70 * 60) * 1000
        default: length = random.int64(30 * 60...50 * 60) * 1000
        }
        let fitDetects = type == .biking && random.chance(0.7)
        let margin = 20 * minute
        let earliest = max(wakingDay.lowerBound + 30 * minute, zone.instant(wallClock: Int64(dayNumber) * 86_400 + 7 * 3600) * 1000)
        let latest = min(wakingDay.upperBound - hour, zone.instant(wallClock: Int64(dayNumber) * 86_400 + 21 * 3600 + 1800) * 1000)
        // The free stretches between the walks, each shortened by the margins.
        var free: [Range<Int64>] = []
        var from = earliest
        for walk in walks {
            let until = min(latest, walk.startMs - margin)
            if until > from { free.append(from..<until) }
            from = max(from, walk.endMs + margin)
        }
        if latest > from { free.append(from..<latest) }
        let fitting = free.filter { $0.upperBound - $0.lowerBound >= length }
        guard !fitting.isEmpty else { return nil }
        let stretch = fitting[random.int(0...fitting.count - 1)]
        let slack = stretch.upperBound - stretch.lowerBound - length
        // Started and stopped by hand: whole seconds.
        let start = (stretch.lowerBound + random.int64(0...slack)) / 1000 * 1000
        return Training(type: type, startMs: start, endMs: start + length, fitDetects: fitDetects)
    }

    // MARK: - Records

    /// The metadata of a new record of `app`, with fresh ids.
    mutating func metadata(_ app: HealthConnectApp, modified: Int64, deviceID: Int? = nil,
                           method: HealthConnectRecord.RecordingMethod = .automaticallyRecorded) -> HealthConnectRecordMetadata {
        HealthConnectRecordMetadata(app: app, deviceID: deviceID ?? app.deviceID, recordingMethod: method,
                                    lastModifiedMs: modified, uuidHigh: ids.next(), uuidLow: ids.next(),
                                    clientID: app.writesClientIDs ? ids.next() | 1 : 0)
    }

    /// The metadata of a copy an app writes again in a resync: new ids, written a day later.
    mutating func resynced(_ metadata: HealthConnectRecordMetadata) -> HealthConnectRecordMetadata {
        var copy = metadata
        copy.uuidHigh = ids.next()
        copy.uuidLow = ids.next()
        if copy.clientID != 0 { copy.clientID = ids.next() | 1 }
        copy.lastModifiedMs += 86_400_000
        return copy
    }

    mutating func append(_ record: HealthConnectQuantityRecord) { day.quantities.append(record) }
    mutating func append(_ record: HealthConnectHeartRateSeries) { day.heartRates.append(record) }
    mutating func append(_ record: HealthConnectInstantRecord) { day.instants.append(record) }
    mutating func append(_ record: HealthConnectSleepSession) { day.sleepSessions.append(record) }
    mutating func append(_ record: HealthConnectExerciseSession) { day.exercises.append(record) }
}
