/// Makes one day of the synthetic Health Connect user's step records.
///
/// The person walks on the clock of the zone they are in that day (`Itinerary`). The phone
/// counts the walks it is carried on, in records of 2 to 8 minutes; Google Fit reads the same
/// sensor in records of 1 to 4 minutes, misses a walk now and then, writes a few records twice
/// (a resync under new client ids: exact duplicates), an instant record and, rarely, a manual
/// entry; the Samsung watch, when worn, counts every walk in 10-minute bins of its wall clock,
/// usually a few percent below the phone and on some days above it. Now and then a walk runs
/// past midnight. Every stream of randomness is seeded from (seed, day, stream), so a day's
/// records never depend on the days before it.
struct HealthConnectDayComposer {
    let seed: UInt64
    /// The first day (index) on which the phone's counter writes under its new package name.
    let renameDayIndex: Int
    /// The records of the last composed day, in the order they are written.
    private(set) var records: [HealthConnectRecord] = []
    /// The walks of the last composed day (the metric records follow them).
    private(set) var walks: [Walk] = []
    /// Whether the watch was worn on the last composed day.
    private(set) var watchWorn = false

    private static let minute: Int64 = 60_000

    /// A walk: an interval and its true steps per millisecond.
    struct Walk {
        var startMs: Int64
        var endMs: Int64
        var stepsPerMs: Double
        var carriesPhone: Bool
    }

    init(seed: UInt64, renameDayIndex: Int) {
        self.seed = seed
        self.renameDayIndex = renameDayIndex
        records.reserveCapacity(512)
    }

    /// Makes the records of day `dayIndex`, the calendar date `dayNumber` on the day's zone.
    mutating func compose(dayIndex: Int, dayNumber: Int) {
        records.removeAll(keepingCapacity: true)
        let zone = Itinerary.zone(dayIndex: dayIndex)
        var plan = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_50_4C)  // "HCPL"
        var ids = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_49_44)  // "HCID"
        walks = HealthConnectDayComposer.walks(&plan, zone: zone, dayNumber: dayNumber)

        let phoneApp: HealthConnectApp = dayIndex < renameDayIndex ? .phoneLegacy : .phone
        var phone = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_50_48)  // "HCPH"
        let phoneFactor = phone.double(0.97, 1.0)
        for walk in walks where walk.carriesPhone {
            split(walk, pieces: 2 * HealthConnectDayComposer.minute...8 * HealthConnectDayComposer.minute,
                  factor: phoneFactor, app: phoneApp, zone: zone, delay: 30_000...300_000, &phone, &ids)
        }

        var fit = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_46_54)  // "HCFT"
        let fitFactor = fit.double(0.95, 1.0)
        let fitStart = records.count
        for walk in walks where walk.carriesPhone && !fit.chance(0.05) {
            split(walk, pieces: HealthConnectDayComposer.minute...4 * HealthConnectDayComposer.minute,
                  factor: fitFactor, app: .fit, zone: zone, delay: 60_000...3_600_000, &fit, &ids)
        }
        if fit.chance(0.15), let walk = walks.last {
            // An instant record: start equals end.
            let instant = walk.endMs + fit.int64(60_000...1_800_000)
            append(.fit, instant, instant, count: fit.int(1...40), method: .automaticallyRecorded, zone: zone,
                   modified: instant + 120_000, &ids)
        }
        if fit.chance(0.03) {
            // A walk typed in by hand: an hour on a treadmill without the phone.
            let start = zone.instant(wallClock: Int64(dayNumber) * 86_400 + Int64(fit.int(18 * 3600...20 * 3600))) * 1000
            let end = start + fit.int64(30 * HealthConnectDayComposer.minute...60 * HealthConnectDayComposer.minute)
            append(.fit, start, end, count: fit.int(2000...5000), method: .manualEntry, zone: zone,
                   modified: end + fit.int64(3_600_000...36_000_000), &ids)
        }
        // A resync writes some of the day's records again, under new client ids.
        let fitEnd = records.count
        for index in fitStart..<fitEnd where records[index].recordingMethod != .manualEntry && fit.chance(0.025) {
            var copy = records[index]
            copy.uuidHigh = ids.next()
            copy.uuidLow = ids.next()
            copy.clientID = ids.next() | 1
            copy.lastModifiedMs += 86_400_000
            records.append(copy)
        }

        var watch = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_57_41)  // "HCWA"
        watchWorn = watch.chance(0.75)
        if watchWorn {
            let factor = watch.chance(0.25) ? watch.double(1.03, 1.10) : watch.double(0.90, 0.98)
            binned(walks, factor: factor, zone: zone, &watch, &ids)
        }
    }

    // MARK: - The day's walks

    /// The walks of day `dayIndex` (calendar date `dayNumber`), as `compose` makes them: for the
    /// metric records of the neighbouring days (when the night before starts, when it ends).
    static func walks(seed: UInt64, dayIndex: Int, dayNumber: Int) -> [Walk] {
        var plan = SplitMix64(seed: seed, day: dayNumber, stream: 0x48_43_50_4C)  // "HCPL"
        return walks(&plan, zone: Itinerary.zone(dayIndex: dayIndex), dayNumber: dayNumber)
    }

    private static func walks(_ random: inout SplitMix64, zone: TravelZone, dayNumber: Int) -> [Walk] {
        let kind = random.unit()
        let count = kind < 0.06 ? random.int(1...2) : kind < 0.35 ? random.int(3...5) : random.int(5...9)
        var planned: [(start: Int, length: Int, cadence: Double)] = []
        for _ in 0..<count {
            let start = random.int(6 * 3600...(22 * 3600 + 1800))
            let shape = random.unit()
            let length = shape < 0.55 ? random.int(120...480) : shape < 0.9 ? random.int(480...1500) : random.int(1500...3600)
            planned.append((start, length, random.double(88, 118)))
        }
        planned.sort { $0.start < $1.start }
        if random.chance(0.08) {
            // A late walk home that runs past midnight.
            planned.append((random.int(23 * 3600 + 1800...23 * 3600 + 3300), random.int(900...2700), random.double(90, 110)))
        }
        var walks: [Walk] = []
        var earliest = 0
        for walk in planned {
            let start = max(walk.start, earliest)
            // Keep the morning hours of DST changes (02:00-03:00) free: no walk starts after 23:58.
            guard start <= 23 * 3600 + 3480 else { continue }
            earliest = start + walk.length + 120
            let startMs = zone.instant(wallClock: Int64(dayNumber) * 86_400 + Int64(start)) * 1000 + random.int64(0...999)
            let endMs = startMs + Int64(walk.length) * 1000 + random.int64(0...999)
            walks.append(Walk(startMs: startMs, endMs: endMs, stepsPerMs: walk.cadence / 60_000,
                              carriesPhone: !random.chance(0.1)))
        }
        return walks
    }

    // MARK: - Records

    /// Cuts a walk into records of random lengths in `pieces`.
    private mutating func split(_ walk: Walk, pieces: ClosedRange<Int64>, factor: Double, app: HealthConnectApp,
                                zone: TravelZone, delay: ClosedRange<Int64>, _ random: inout SplitMix64,
                                _ ids: inout SplitMix64) {
        var start = walk.startMs
        while start < walk.endMs {
            var end = min(walk.endMs, start + random.int64(pieces))
            // No sliver at the end: a remainder under half a minute joins this record.
            if walk.endMs - end < 30_000 { end = walk.endMs }
            let steps = max(1, Int((Double(end - start) * walk.stepsPerMs * factor).rounded()))
            append(app, start, end, count: steps, method: .automaticallyRecorded, zone: zone,
                   modified: end + random.int64(delay), &ids)
            start = end
        }
    }

    /// The watch's records: steps of all walks summed in 10-minute bins of its wall clock.
    private mutating func binned(_ walks: [Walk], factor: Double, zone: TravelZone, _ random: inout SplitMix64,
                                 _ ids: inout SplitMix64) {
        for bin in Self.watchBins(walks, zone: zone) {
            let steps = Int((bin.steps * factor).rounded())
            guard steps > 0 else { continue }
            append(.samsung, bin.startMs, bin.endMs, count: steps, method: .automaticallyRecorded, zone: zone,
                   modified: bin.endMs + random.int64(300_000...1_800_000), &ids)
        }
    }

    /// The watch's 10-minute bins of its wall clock over the walks: start, end, steps (its step
    /// records, and the metric composer's distance and calories over the same bins).
    static func watchBins(_ walks: [Walk], zone: TravelZone) -> [(startMs: Int64, endMs: Int64, steps: Double)] {
        let bin: Int64 = 600_000
        var bins: [(index: Int64, steps: Double, offset: Int64)] = []
        for walk in walks {
            let offset = zone.offset(at: floorDivide(walk.startMs, 1000)) * 1000
            var from = walk.startMs
            while from < walk.endMs {
                let index = floorDivide(from + offset, bin)
                let to = min(walk.endMs, (index + 1) * bin - offset)
                let steps = Double(to - from) * walk.stepsPerMs
                if let last = bins.last, last.index == index {
                    bins[bins.count - 1].steps += steps
                } else {
                    bins.append((index, steps, offset))
                }
                from = to
            }
        }
        return bins.map { ($0.index * bin - $0.offset, ($0.index + 1) * bin - $0.offset, $0.steps) }
    }

    private mutating func append(_ app: HealthConnectApp, _ start: Int64, _ end: Int64, count: Int,
                                 method: HealthConnectRecord.RecordingMethod, zone: TravelZone, modified: Int64,
                                 _ ids: inout SplitMix64) {
        let startOffset = Int32(zone.offset(at: floorDivide(start, 1000)))
        let endOffset = Int32(zone.offset(at: floorDivide(end, 1000)))
        records.append(HealthConnectRecord(
            app: app, startMs: start, endMs: end, startOffset: startOffset, endOffset: endOffset, count: count,
            recordingMethod: method, lastModifiedMs: modified, uuidHigh: ids.next(), uuidLow: ids.next(),
            clientID: app.writesClientIDs ? ids.next() | 1 : 0))
    }
}
