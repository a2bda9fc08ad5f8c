/// The files of a generated Samsung Health export (docs/samsung.md), written day by day as text,
/// and the totals an importer must find, noted from what is written (`HealthConnectExpectedTotals`
/// holds the rule: each source's day summed, the highest source a day).
///
/// `step_daily_trend` has a row per day and source (the combined one and each device);
/// `tracker.pedometer_step_count` one-minute bins per device, for the last `binDays` days (every
/// day under `--no-trend`, when they are what is read); `tracker.pedometer_day_summary` and
/// `activity.day_summary` the same steps again, and a heart-rate file, never read.
struct SamsungExportWriter {
    let options: SamsungOptions
    private(set) var trend = ""
    private(set) var bins = ""
    private(set) var pedometerDaySummary = ""
    private(set) var activityDaySummary = ""
    private(set) var heartRate = ""
    private(set) var googleFit = "Date,Move Minutes count,Step count\n"
    /// `jsons/`: one small file a trend row, named by its `binning_data`.
    private(set) var jsons: [(name: String, text: String)] = []
    /// Rows of step_daily_trend and minute bins written.
    private(set) var trendRows = 0
    private(set) var binRows = 0
    /// The steps and the distance (metres) an importer must find.
    var expectedSteps = HealthConnectExpectedTotals()
    var expectedDistance = HealthConnectExpectedTotals()

    static let trendColumns = ["binning_data", "update_time", "create_time", "source_pkg_name", "source_type", "count",
                               "speed", "distance", "calorie", "deviceuuid", "pkg_name", "datauuid", "day_time"]
    static let binColumns = ["duration", "version_code", "run_step", "walk_step", "start_time", "sample_position_type",
                             "custom", "update_time", "create_time", "count", "speed", "distance", "calorie", "time_offset",
                             "deviceuuid", "pkg_name", "end_time", "datauuid"]
    static let app = "com.sec.android.app.shealth"

    init(options: SamsungOptions) {
        self.options = options
        trend = "com.samsung.shealth.step_daily_trend,6307003,6\n" + header(Self.trendColumns, prefix: "com.samsung.shealth.step_daily_trend.",
                                                                            appPrefixedFrom: nil)
        bins = "com.samsung.shealth.tracker.pedometer_step_count,6307003,2\n"
            + header(Self.binColumns, prefix: "com.samsung.health.step_count.", appPrefixedFrom: 4)
        pedometerDaySummary = "com.samsung.shealth.tracker.pedometer_day_summary,6307003,7\n"
            + "create_sh_ver,step_count,active_time,run_step_count,walk_step_count,distance,deviceuuid,pkg_name,datauuid,day_time\n"
        activityDaySummary = "com.samsung.shealth.activity.day_summary,6307003,6\n"
            + "step_count,floor_count,exercise_time,calorie,distance,deviceuuid,pkg_name,datauuid,day_time\n"
        heartRate = "com.samsung.health.heart_rate,6307003,3\n"
            + "com.samsung.health.heart_rate.start_time,com.samsung.health.heart_rate.heart_rate,"
            + "com.samsung.health.heart_rate.time_offset,com.samsung.health.heart_rate.deviceuuid\n"
    }

    /// A header as `--headers` asks: the app prefixes the columns from `appPrefixedFrom` on (nil: none).
    private func header(_ columns: [String], prefix: String, appPrefixedFrom first: Int?) -> String {
        columns.enumerated().map { index, name in
            switch options.headers {
            case .bare: name
            case .prefixed: prefix + name
            case .app: first.map { index >= $0 } == true ? prefix + name : name
            }
        }.joined(separator: ",") + "\n"
    }

    /// A data row: the fields and the trailing comma every row of the export has.
    private static func row(_ fields: [String]) -> String {
        fields.joined(separator: ",") + ",\n"
    }

    /// The name of a source, as docs/samsung.md gives it.
    static func source(of device: SamsungDay.Device?) -> String {
        guard let device else { return "Samsung Health" }
        return "Samsung Health (\(device.type == 0 ? "phone" : "watch"), \(device.id))"
    }

    mutating func append(_ day: SamsungDay) {
        var random = SplitMix64(seed: options.seed, day: day.dayNumber, stream: 0x5B)
        let date = CivilDate(dayNumber: day.dayNumber).text
        let dayTime = options.textDayTime ? date + " 00:00:00.000" : String(Int64(day.dayNumber) * 86_400_000)
        let updated = date + " 23:5\(random.int(0...9)):0\(random.int(0...9)).\(random.int(100...999))"
        expectedSteps.beginDay()
        expectedDistance.beginDay()
        if !options.noTrend {
            var sources: [(device: SamsungDay.Device?, type: Int, steps: Int, centimetres: Int)] = []
            if let combined = day.combined { sources.append((nil, -2, combined.steps, combined.centimetres)) }
            sources += day.devices.map { ($0, $0.type, $0.steps, $0.centimetres) }
            for source in sources {
                let id = Self.uuid(&random)
                trend += Self.row([id + ".binning_data.json", updated, updated, Self.app, String(source.type), String(source.steps),
                                   "1.3\(random.int(0...9))", Self.metres(source.centimetres), String(source.steps / 25),
                                   source.device?.id ?? SamsungDayComposer.combinedDevice, Self.app, id, dayTime])
                trendRows += 1
                let name = Self.source(of: source.device)
                expectedSteps.addDayTotal(source: expectedSteps.sourceID(name), dayNumber: day.dayNumber, steps: Double(source.steps))
                expectedDistance.addDayTotal(source: expectedDistance.sourceID(name), dayNumber: day.dayNumber,
                                             steps: Double(source.centimetres) / 100)
                if options.jsons {
                    jsons.append(("jsons/com.samsung.shealth.step_daily_trend/\(id.prefix(1))/\(id).binning_data.json",
                                  "[{\"mStepCount\":\(source.steps),\"mDistance\":\(Self.metres(source.centimetres))}]\n"))
                }
            }
        }
        let total = options.days ?? 0
        if options.noTrend || day.index >= total - options.binDays {
            for device in day.devices where device.steps > 0 {
                appendBins(of: device, day: day, random: &random)
            }
        }
        for device in day.devices {
            pedometerDaySummary += Self.row(["63060070", String(device.steps), String(device.steps * 400), "0", String(device.steps),
                                             Self.metres(device.centimetres), device.id, Self.app, Self.uuid(&random), dayTime])
        }
        if let combined = day.combined {
            activityDaySummary += Self.row([String(combined.steps), "3.0", "0", "100.5", Self.metres(combined.centimetres),
                                            SamsungDayComposer.combinedDevice, Self.app, Self.uuid(&random), date + " 00:00:00.000"])
            heartRate += Self.row([date + " 12:00:00.000", String(random.int(55...90)), options.offsetText, SamsungDayComposer.watch])
        }
        if let steps = day.googleFitSteps {
            googleFit += "\(date),\(random.int(10...90)),\(steps)\n"
            expectedSteps.addDayTotal(source: expectedSteps.sourceID("Google Fit"), dayNumber: day.dayNumber, steps: Double(steps))
        }
    }

    /// One device's steps of the day in one-minute bins at local minutes, written in UTC with
    /// the offset beside them; each bin is noted at its own instant and offset.
    private mutating func appendBins(of device: SamsungDay.Device, day: SamsungDay, random: inout SplitMix64) {
        let count = min(device.steps, random.int(8...30))
        let first = random.int(360...1_000)
        let offsetMs = Int64(options.offsetMinutes) * 60_000
        let source = "Samsung Health (device \(device.id))"
        for bin in 0..<count {
            let steps = device.steps / count + (bin == count - 1 ? device.steps % count : 0)
            let centimetres = device.centimetres / count + (bin == count - 1 ? device.centimetres % count : 0)
            let localStart = Int64(day.dayNumber) * 86_400_000 + Int64(first + bin * 13) * 60_000
            let start = localStart - offsetMs
            let run = random.int(0...steps)
            let id = Self.uuid(&random)
            bins += Self.row(["\(random.int(1_000...59_000))", "4", String(run), String(steps - run), Self.utcText(start), "", "",
                              Self.utcText(start + 59_000), Self.utcText(start + 59_000), String(steps), "1.5",
                              Self.metres(centimetres), "0.5", options.offsetText, device.id, Self.app,
                              Self.utcText(start + 60_000), id])
            binRows += 1
            guard options.noTrend else { continue }
            let offset = Int64(options.offsetMinutes) * 60
            expectedSteps.add(source: expectedSteps.sourceID(source), startMs: start, endMs: start + 60_000, offsetSeconds: offset,
                              value: Double(steps))
            expectedDistance.add(source: expectedDistance.sourceID(source), startMs: start, endMs: start + 60_000,
                                 offsetSeconds: offset, value: Double(centimetres) / 100)
        }
    }

    /// `2025-12-04 19:54:00.000`, a UTC time as the export writes it.
    static func utcText(_ ms: Int64) -> String {
        let day = Int(floorDivide(ms, 86_400_000))
        let second = Int((ms - Int64(day) * 86_400_000) / 1000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return CivilDate(dayNumber: day).text + " \(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)).000"
    }

    /// Centimetres as metres with two decimals.
    static func metres(_ centimetres: Int) -> String {
        "\(centimetres / 100).\(centimetres % 100 < 10 ? "0" : "")\(centimetres % 100)"
    }

    /// A UUID's text, from the generator.
    static func uuid(_ random: inout SplitMix64) -> String {
        let digits = Array("0123456789abcdef")
        let text = String((0..<32).map { _ in digits[random.int(0...15)] })
        return [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4),
                text.dropFirst(20)].joined(separator: "-")
    }

    /// Empty rows after the last, as `--blank-rows` asks: a blank line and a row of commas.
    static func blankRows(columns: Int) -> String {
        "\n" + String(repeating: ",", count: columns) + "\n"
    }
}
