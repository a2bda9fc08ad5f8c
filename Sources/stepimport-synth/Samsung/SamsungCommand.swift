import CommandLineKit
import Foundation

/// `stepimport-synth samsung`: its table, and writing a Samsung Health "Download personal data"
/// export (its folder, zip, or step CSV alone) in the variants real ones come in, with the
/// expected totals.
enum SamsungCommand {
    static let table = Command<SamsungOptions>(
        "samsung",
        abstract: .asWritten("Samsung Health's Download personal data export."),
        overview: "Write a deterministic synthetic Samsung Health export (docs/samsung.md).",
        discussion: """
            A phone (and a second one from halfway with --phone-change) and a watch worn most
            days, with Samsung Health's combined total of each day, never below a device's:
            step_daily_trend, a day total per source; tracker.pedometer_step_count, one-minute
            bins per device at the --time-offset; tracker.pedometer_day_summary and
            activity.day_summary, the same steps again; a heart-rate file. --out names a
            folder, a .zip (the folder zipped) or a .csv (the step CSV alone: step_daily_trend,
            or the bins under --no-trend).
            """,
        options: [
            .output(help: "Output folder, .zip or .csv."),
            .days(default: SamsungOptions.defaultDays),
            .seed,
            .start,
            .expected(help: .asWritten("""
                Also write what an importer must find (JSON): the day
                totals with their source, and the distance of each day.
                """)),
            .flag("--devices-only", help: "No combined (source_type -2) rows: each day is its highest device.") {
                $0.devicesOnly = true
            },
            .flag("--phone-change", help: "A second phone (source_type 0, another deviceuuid) from halfway on.") {
                $0.phoneChange = true
            },
            .flag("--text-day-time", help: "day_time as text (2018-11-28 00:00:00.000), as older exports.") {
                $0.textDayTime = true
            },
            .encoding,
            .headers,
            .flag("--blank-rows", help: "Empty rows after the last of each file.") { $0.blankRows = true },
            .timeOffset,
            .binDays,
            .flag("--no-trend", help: "No step_daily_trend: the minute bins, of every day, are what is read.") {
                $0.noTrend = true
            },
            .flag("--renamed", help: "The files named as people rename them (Step Daily Trend.csv).") { $0.renamed = true },
            .flag("--jsons", help: "The jsons/ folder that the trend's binning_data names.") { $0.jsons = true },
            .flag("--with-google-fit", help: "A Google Fit Takeout daily summary beside the export.") {
                $0.withGoogleFit = true
            },
        ],
        rules: [.required("--out")],
        sections: [
            .synthExitStatus,
            HelpSection("EXAMPLES", body: """
                stepimport-synth samsung --out /tmp/samsunghealth.zip --days 90 --expected /tmp/expected.json
                stepimport-synth samsung --out /tmp/trend.csv --encoding utf16le --text-day-time
                stepimport-synth samsung --out /tmp/export --no-trend --time-offset UTC+0530
                """),
        ],
        finish: { (options: inout SamsungOptions) throws(Rejection) in try options.finish() })

    /// Runs the subcommand with the arguments after `samsung`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        Subcommand.run(table, arguments, startingFrom: .defaults, generate: generate)
    }

    private static func generate(_ options: SamsungOptions) throws(SynthError) {
        let days = options.days ?? SamsungOptions.defaultDays
        let composer = SamsungDayComposer(options: options)
        var writer = SamsungExportWriter(options: options)
        for index in 0..<days {
            writer.append(composer.day(index: index))
        }
        let lastDay = options.startDay + days - 1
        let stamp = CivilDate(dayNumber: lastDay).text.replacingOccurrences(of: "-", with: "") + "221761"
        let files = Self.files(of: writer, stamp: stamp)
        if options.writesCSVAlone {
            var file = try OutputFile(path: options.outputPath)
            try file.write(files[0].bytes)
            try file.finish()
        } else if options.writesZip {
            let zip = try DeterministicZipWriter(path: options.outputPath, modified: Int64(lastDay) * 86_400)
            let folder = "samsunghealth_synth_\(stamp)/"
            for file in files {
                try zip.addBytes(file.name.hasPrefix("Takeout/") ? file.name : folder + file.name, file.bytes)
            }
            try zip.close()
        } else {
            for file in files {
                let path = options.outputPath + "/" + file.name
                do {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                } catch {
                    throw SynthError.cannotCreate(path: path, reason: "\(error)")
                }
                var output = try OutputFile(path: path)
                try output.write(file.bytes)
                try output.finish()
            }
        }
        if let expectedPath = options.expectedPath {
            var expected = try OutputFile(path: expectedPath)
            try expected.write(writer.expectedSteps.json(appending: [distanceSection(writer.expectedDistance)]))
            try expected.finish()
        }
        printError("wrote \(options.outputPath): Samsung Health export, \(days) days \(CivilDate(dayNumber: options.startDay).text) "
                   + "to \(CivilDate(dayNumber: lastDay).text), \(writer.trendRows) step_daily_trend rows, "
                   + "\(writer.binRows) minute bins", prefixed: false)
    }

    /// The files to write, the step CSV read first (the one a `.csv` output holds).
    private static func files(of writer: SamsungExportWriter, stamp: String) -> [(name: String, bytes: [UInt8])] {
        let options = writer.options
        func name(_ type: String, _ renamed: String) -> String {
            options.renamed ? renamed + ".csv" : "\(type).\(stamp).csv"
        }
        func text(_ body: String, columns: Int) -> [UInt8] {
            encoded(body + (options.blankRows ? SamsungExportWriter.blankRows(columns: columns) : ""), options.encoding)
        }
        let trend = (name("com.samsung.shealth.step_daily_trend", "Step Daily Trend"),
                     text(writer.trend, columns: SamsungExportWriter.trendColumns.count))
        let bins = (name("com.samsung.shealth.tracker.pedometer_step_count", "Pedometer Step Count"),
                    text(writer.bins, columns: SamsungExportWriter.binColumns.count))
        var files = options.noTrend ? [bins] : [trend, bins]
        files += [
            (name("com.samsung.shealth.tracker.pedometer_day_summary", "Pedometer Day Summary"),
             text(writer.pedometerDaySummary, columns: 10)),
            (name("com.samsung.shealth.activity.day_summary", "Activity Day Summary"), text(writer.activityDaySummary, columns: 9)),
            (name("com.samsung.health.heart_rate", "Heart Rate"), text(writer.heartRate, columns: 4)),
        ]
        files += writer.jsons.map { ($0.name, Array($0.text.utf8)) }
        if options.withGoogleFit {
            files.append(("Takeout/Fit/Daily activity metrics/Daily activity metrics.csv", Array(writer.googleFit.utf8)))
        }
        return files
    }

    /// The text with its byte-order mark, in the encoding asked for.
    private static func encoded(_ text: String, _ encoding: SamsungOptions.Encoding) -> [UInt8] {
        switch encoding {
        case .utf8:
            return [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        case .utf16le:
            return [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16be:
            return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    /// `"distance": [{"date": .., "metres": ..}]`: the highest source's distance each day, in whole metres.
    private static func distanceSection(_ distance: HealthConnectExpectedTotals) -> String {
        let days = distance.days().map { "    {\"date\": \"\(CivilDate(dayNumber: $0.dayNumber).text)\", \"metres\": \($0.steps)}" }
        return "  \"distance\": [\n" + days.joined(separator: ",\n") + "\n  ]"
    }
}
