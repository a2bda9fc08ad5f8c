/// Renders every top-level element of one day of the synthetic export.
///
/// Each record family has its own pass (and its own random stream, so adding
/// or changing one family never shifts another's numbers); the passes append to
/// a `DayRecordList`, which puts the day in chronological order afterwards.
/// The passes live in extensions by family: steps, vitals, sleep, workouts, and
/// the families added for the metrics beyond steps (VO2max, the sleep app and
/// the watch's extra sleep interval, the running app, the band's heart rate,
/// implausible readings), each in a stream numbered from 70 on.
struct AppleDayComposer {
    /// The elements of the day being composed (plus any carried over).
    var list = DayRecordList()
    /// Notes of every top-level step record written, when `collectsNotes`.
    var writtenSteps: [WrittenStepSample] = []
    /// Notes of every top-level record of another metric written, when `collectsNotes`.
    var writtenMetrics: [WrittenMetricSample] = []
    /// Number of `Record` elements written (top level and nested).
    var recordCount = 0
    /// Number of top-level step `Record` elements written.
    var stepRecordCount = 0

    let seed: UInt64
    /// Whether to keep notes of the records written, for the expected totals.
    let collectsNotes: Bool
    let insertsControlCharacters: Bool

    var sources: [SourceAttributes] = ExportSource.allCases.map { SourceAttributes(source: $0) }
    /// Watch step totals per bout of the current day, for workout statistics.
    var watchStepsPerBout: [Int] = []
    /// Running totals for the day's `ActivitySummary`.
    var activeEnergyMillikcal = 0
    var exerciseMinutes = 0
    var standHours = 0
    /// Whether today's stray control character is still to be written.
    var controlCharacterPending = false
    /// Tonight's sleep as `writeSleep` wrote it, for the sleep app that writes the
    /// same night: the watch's asleep stages and the phone's in-bed interval.
    var tonight = NightRecord()
    /// The night that ended this morning (yesterday's `tonight`), for the sleep app's naps.
    var lastNight = NightRecord()

    init(seed: UInt64, collectsNotes: Bool, insertsControlCharacters: Bool) {
        self.seed = seed
        self.collectsNotes = collectsNotes
        self.insertsControlCharacters = insertsControlCharacters
    }

    /// Renders the day `plan` describes; `dayIndex` counts days from the first.
    mutating func compose(_ plan: DayPlan, dayIndex: Int) {
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 10)
        for index in sources.indices {
            sources[index].prepare(dayNumber: plan.dayNumber, random: &random)
        }
        activeEnergyMillikcal = 0
        exerciseMinutes = 0
        standHours = 0
        // A few per file, at spread-out days, whatever the length of the run.
        controlCharacterPending = insertsControlCharacters && [1, 4, 16, 64, 256, 1024, 4096].contains(dayIndex)

        lastNight = tonight
        tonight = NightRecord()

        writeStepSamples(plan)
        writeHeartRate(plan)
        writeHeartRateVariability(plan)
        writeEnergy(plan)
        writeExerciseAndStand(plan)
        writePhoneWalkingMetrics(plan)
        writeAudioExposure(plan)
        writeDailyHeartRateSummaries(plan)
        writeSleep(plan)
        writeWorkouts(plan)
        writeBloodPressureCorrelation(plan)
        writeActivitySummary(plan)

        // The families added for the metrics beyond steps, each in its own stream.
        writeCardioFitness(plan)
        writeWatchUnspecifiedSleep(plan)
        writeSleepAppNight(plan)
        writeSleepAppNap(plan)
        writeRunningApp(plan)
        writeBandHeartRate(plan)
        writeImplausibleReadings(plan)
    }

    // MARK: - Element helpers

    /// The creationDate of a sample that ended at `instant`: devices hand their
    /// samples to HealthKit in batches (the watch every 10 minutes, the phone
    /// every 20), so consecutive records share a creationDate, as in real files.
    @inline(__always)
    func syncTime(_ source: ExportSource, after instant: Int64) -> Int64 {
        let period: Int64 = source == .watch ? 600 : 1200
        let batch = floorDivide(instant, period)
        var jitter = SplitMix64(seed: seed ^ (UInt64(bitPattern: batch) &* 0xA24B_AED4_963E_E407))
        return (batch + 1) * period + Int64(jitter.next() % 120)
    }

    /// Opens a `<Record` and writes everything up to and including `endDate`;
    /// the caller adds ` value=".."` and closes it.
    @inline(__always)
    mutating func openRecord(_ type: StaticString, _ source: ExportSource, unit: StaticString?,
                             created: Int64, start: Int64, end: Int64, nested: Bool = false,
                             addresses: SourceAttributes.AddressCounter = .original) {
        list.buffer.append(nested ? "  <Record type=\"" : " <Record type=\"")
        list.buffer.append(type)
        list.buffer.append(UInt8(ascii: "\""))
        sources[source.rawValue].append(to: &list.buffer, counter: addresses)
        if let unit {
            list.buffer.append(" unit=\"")
            list.buffer.append(unit)
            list.buffer.append(UInt8(ascii: "\""))
        }
        appendDates(created: created, start: start, end: end)
        recordCount += 1
    }

    /// ` creationDate=".." startDate=".." endDate=".."`.
    @inline(__always)
    mutating func appendDates(created: Int64, start: Int64, end: Int64) {
        list.buffer.append(" creationDate=\"")
        list.buffer.append(appleTimestamp: created)
        list.buffer.append("\" startDate=\"")
        list.buffer.append(appleTimestamp: start)
        list.buffer.append("\" endDate=\"")
        list.buffer.append(appleTimestamp: end)
        list.buffer.append(UInt8(ascii: "\""))
    }

    /// A complete quantity record with an integer value and no children.
    @inline(__always)
    mutating func writeRecord(_ type: StaticString, _ source: ExportSource, unit: StaticString,
                              created: Int64, start: Int64, end: Int64, value: Int,
                              addresses: SourceAttributes.AddressCounter = .original) {
        list.begin(at: start)
        openRecord(type, source, unit: unit, created: created, start: start, end: end, addresses: addresses)
        list.buffer.append(" value=\"")
        list.buffer.append(int: value)
        list.buffer.append("\"/>\n")
        list.end()
    }

    /// A complete quantity record with a decimal value (`scaled / 10^places`).
    @inline(__always)
    mutating func writeRecord(_ type: StaticString, _ source: ExportSource, unit: StaticString,
                              created: Int64, start: Int64, end: Int64, scaled: Int, places: Int,
                              addresses: SourceAttributes.AddressCounter = .original) {
        list.begin(at: start)
        openRecord(type, source, unit: unit, created: created, start: start, end: end, addresses: addresses)
        list.buffer.append(" value=\"")
        list.buffer.append(scaled: scaled, places: places)
        list.buffer.append("\"/>\n")
        list.end()
    }

    /// A complete category record (no unit, a symbolic value).
    @inline(__always)
    mutating func writeCategory(_ type: StaticString, _ source: ExportSource,
                                created: Int64, start: Int64, end: Int64, value: StaticString,
                                addresses: SourceAttributes.AddressCounter = .original) {
        list.begin(at: start)
        openRecord(type, source, unit: nil, created: created, start: start, end: end, addresses: addresses)
        list.buffer.append(" value=\"")
        list.buffer.append(value)
        list.buffer.append("\"/>\n")
        list.end()
    }

    /// Keeps the note of a top-level metric record just written, when asked.
    @inline(__always)
    mutating func noteMetric(_ metric: WrittenMetricSample.Metric, _ source: ExportSource,
                             start: Int64, end: Int64, value: Double) {
        if collectsNotes {
            writtenMetrics.append(WrittenMetricSample(metric: metric, source: source, start: start, end: end,
                                                      value: value, stage: nil))
        }
    }

    /// Keeps the note of a top-level `SleepAnalysis` record just written, when asked.
    mutating func noteSleep(_ stage: WrittenMetricSample.SleepStage, _ source: ExportSource, start: Int64, end: Int64) {
        if collectsNotes {
            writtenMetrics.append(WrittenMetricSample(metric: .sleep, source: source, start: start, end: end,
                                                      value: 0, stage: stage))
        }
    }

    /// `<MetadataEntry key=".." value=".."/>` as a child (two-space indent).
    @inline(__always)
    mutating func appendMetadata(_ key: StaticString, _ value: StaticString) {
        list.buffer.append("  <MetadataEntry key=\"")
        list.buffer.append(key)
        list.buffer.append("\" value=\"")
        list.buffer.append(value)
        list.buffer.append("\"/>\n")
    }

    /// Writes today's stray `\x0b` into the value being written, once, when
    /// `--control-chars` asked for it. Real exports carry such bytes in text
    /// that apps stored, and every XML parser stops at them.
    @inline(__always)
    mutating func appendPendingControlCharacter() {
        if controlCharacterPending {
            list.buffer.append(0x0B)
            controlCharacterPending = false
        }
    }
}
