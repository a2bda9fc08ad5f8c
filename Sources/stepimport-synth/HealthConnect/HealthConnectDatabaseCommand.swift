import CommandLineKit
import Foundation

/// `stepimport-synth hc-db`: its table, and writing a Health Connect export database (bare or
/// zipped) and the expected totals.
enum HealthConnectDatabaseCommand {
    /// `stepimport-synth hc-db`'s table.
    static let table = Command<HealthConnectOptions>(
        "hc-db",
        abstract: .asWritten("Health Connect's own export database (.db or Health Connect.zip)."),
        overview: "Write a deterministic synthetic Health Connect export database.",
        discussion: """
            The schema is exactly Health Connect's (steps_record_table with its generated
            columns, application_info_table, device_info_table,
            health_data_category_priority_table, PRAGMA user_version). The user lives in
            Europe/Berlin (DST included) and in every 90 days spends a week in
            America/New_York and four days in Asia/Kolkata (+05:30); times are UTC
            milliseconds with each record's own offset in seconds. The phone's counter
            writes as `android`, then (halfway, at most 30 days in) as
            `com.android.healthconnect.phone.steps`: one source. Google Fit reads the same
            walks and writes a few exact duplicates; a Samsung watch counts them in 10-minute
            bins, on some days higher. Walks run past midnight now and then.

            Unless --steps-only, it also writes the metric tables (docs/metrics.md):
            distance (metres), active and total calories (small calories),
            floors, heart rate with its series, resting heart rate, HRV (RMSSD),
            VO2max, sleep sessions with their stages and exercise sessions, from
            the watch, Fit, an Oura ring, Sleep as Android and a Withings cuff
            (several apps write the same walks and nights; a few readings are
            implausible); --expected then adds their day values ("metrics").
            With --rows the metric tables follow the days written.
            """,
        options: [
            .output(help: .asWritten("""
                Output file. A name ending in .zip gets the backup's layout
                (one deflated entry, health_connect_export.db), e.g.
                "Health Connect.zip"; anything else the bare database.
                """)).synopsisValue("PATH(.db|.zip)"),
            .days(default: HealthConnectOptions.defaultDays(.database)),
            .rows,
            .seed,
            .start,
            .userVersion,
            .stepsOnly,
            .expected(help: .asWritten("""
                Also write the day totals an importer must find (JSON),
                each record placed in its own offset.
                """)),
            .expectedPriority,
        ],
        rules: [.required("--out"), .exclusive("--days", "--rows", reason: nil)],
        sections: [
            .synthExitStatus,
            HelpSection("EXAMPLES", body: .asWritten("""
                stepimport-synth hc-db --out "samples/Health Connect.zip" --days 60 \\
                    --expected samples/hc-health-connect.expected.json
                stepimport-synth hc-db --out /tmp/bench.db --rows 5000000 --steps-only
                """)),
        ],
        finish: { (options: inout HealthConnectOptions) throws(Rejection) in try options.finish(for: .database) })

    /// Runs the subcommand with the arguments after `hc-db`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        Subcommand.run(table, arguments, startingFrom: .defaults, generate: generate)
    }

    private static func generate(_ options: HealthConnectOptions) throws(SynthError) {
        // Built under a hidden name beside the output, then renamed (a bare database) or zipped:
        // SQLite never writes into an older file, and no half-written output is left.
        let temporary = temporaryPath(near: options.outputPath)
        defer { unlink(temporary) }
        let writer: HealthConnectDatabaseWriter
        do {
            writer = try HealthConnectDatabaseWriter(path: temporary, userVersion: options.userVersion)
        } catch .cannotCreate(_, let reason) {
            throw SynthError.cannotCreate(path: options.outputPath, reason: reason)
        }
        try writer.writeReferenceTables()
        let metricWriter = options.stepsOnly ? nil : try HealthConnectMetricTableWriter(into: writer)

        var composer = HealthConnectDayComposer(seed: options.seed, renameDayIndex: options.renameDayIndex)
        var metricComposer = HealthConnectMetricComposer(seed: options.seed)
        var expected = HealthConnectExpectedTotals()
        var expectedMetrics = HealthConnectExpectedMetrics()
        let collects = options.expectedPath != nil
        var expectedPriority = options.expectedPriorityPath.map { _ in HealthConnectExpectedPriority() }
        let sources = HealthConnectApp.allCases.map { expected.sourceID($0.source) }
        var dayIndex = 0
        while true {
            if let days = options.days, dayIndex >= days { break }
            if let rows = options.rows, writer.rows >= rows { break }
            composer.compose(dayIndex: dayIndex, dayNumber: options.startDay + dayIndex)
            if collects { expected.beginDay() }
            for record in composer.records {
                if let rows = options.rows, writer.rows >= rows { break }
                try writer.write(record)
                expectedPriority?.add(record)
                if collects {
                    expected.add(source: sources[record.app.rawValue], startMs: record.startMs, endMs: record.endMs,
                                 offsetSeconds: Int64(record.startOffset), value: Double(record.count))
                }
            }
            if let metricWriter {
                metricComposer.compose(dayIndex: dayIndex, dayNumber: options.startDay + dayIndex, steps: composer)
                try metricWriter.write(metricComposer.day)
                if collects { expectedMetrics.add(metricComposer.day) }
            }
            dayIndex += 1
        }
        metricWriter?.finalize()
        try writer.finish()

        let lastDay = options.startDay + dayIndex - 1
        let databaseBytes = fileSize(temporary)
        var written = "database \(databaseBytes) bytes (\(String(format: "%.1f", Double(databaseBytes) / 1_048_576)) MiB)"
        if options.writesZip {
            // The backup runs in the night after the last day.
            let exportInstant = Int64(lastDay + 1) * 86_400 + 2 * 3600 + 17 * 60
            try HealthConnectZipArchive.write(archivePath: options.outputPath, databasePath: temporary, modified: exportInstant)
            written += ", zip \(fileSize(options.outputPath)) bytes"
        } else if rename(temporary, options.outputPath) != 0 {
            throw SynthError.cannotCreate(path: options.outputPath, reason: String(cString: strerror(errno)))
        }

        if let expectedPath = options.expectedPath {
            var file = try OutputFile(path: expectedPath)
            let sections = metricWriter == nil ? [] : [expectedMetrics.jsonSection(steps: expected.days())]
            try file.write(expected.json(appending: sections))
            try file.finish()
        }
        if let path = options.expectedPriorityPath, let expectedPriority {
            var file = try OutputFile(path: path)
            try file.write(expectedPriority.json())
            try file.finish()
        }
        printError("wrote \(options.outputPath): \(dayIndex) days \(CivilDate(dayNumber: options.startDay).text) to \(CivilDate(dayNumber: lastDay).text), \(writer.rows) step rows\(metricWriter.map { ", \($0.rows) metric rows" } ?? ""), user_version \(options.userVersion), \(written)", prefixed: false)
    }

    /// A hidden file name in the folder of `path`, unique to this process.
    static func temporaryPath(near path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = ".\((path as NSString).lastPathComponent).\(getpid()).db.tmp"
        return folder.isEmpty ? name : folder + "/" + name
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
