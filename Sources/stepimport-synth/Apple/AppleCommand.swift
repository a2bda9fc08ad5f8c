import CommandLineKit
import Foundation

/// `stepimport-synth apple`: its table, and writing the export (bare XML or zip) and the
/// expected totals.
enum AppleCommand {
    /// `stepimport-synth apple`'s table.
    static let table = Command<AppleExportOptions>(
        "apple",
        abstract: "Apple Health export (export.xml or export.zip).",
        overview: "Write a deterministic, realistic synthetic Apple Health export.",
        discussion: """
            Models an iPhone and an Apple Watch owner in Europe/Berlin: both devices
            count the same walks, Mi Fit writes its samples 2 to 17 times, manual
            entries, fractional counts, walks across midnight, a monthly Correlation,
            and the bulk of a real export (heart rate, energy, sleep, workouts, HRV).
            For the other metrics: VO2max, a sleep app over the watch's nights and
            naps, a running app's workouts in miles and kJ, the band's heart rate,
            and now and then an implausible reading.
            Every timestamp carries the export-time offset +0100, so summer samples are
            an hour off on the owner's clock, as in real exports.
            """,
        options: [
            .output(help: .asWritten("""
                Output file. A name ending in .zip gets Apple's layout
                (apple_health_export/export.xml and export_cda.xml,
                deflated, Zip64 when needed); anything else the bare XML.
                """)),
            .days(default: AppleExportOptions.defaultDays),
            .size(help: .asWritten("""
                Generate until the XML reaches this size, e.g. 500K, 100M,
                1G (binary multiples), finishing the day that crosses it.
                """)),
            .seed,
            .start(help: "First day, on the owner's Berlin calendar (or today-N: N days ago).", default: AppleExportOptions.defaultStart,
                   years: 1900...2999, requirement: "a date as YYYY-MM-DD"),
            .value("--dtd", value: "MODE", help: .asWritten("""
                normal: internal DTD (export version 13); broken: iOS 16's
                unclosed <!ATTLIST VisionPrescription; none: no DOCTYPE.
                """)) { (options, text) throws(Rejection) in
                guard let parsed = AppleExportDTD(rawValue: text) else {
                    throw Rejection("'--dtd' must be normal, broken or none, got '\(text)'")
                }
                options.dtd = parsed
            }.defaultValue(AppleExportDTD.normal.rawValue).synopsisValue("normal|broken|none"),
            .flag("--control-chars", help: "Put a stray \\x0b byte in a few metadata values.") { $0.controlCharacters = true },
            .expected(help: .asWritten("""
                Also write the day totals an importer must find (JSON):
                by the file's offset, per source, and for
                --tz Europe/Berlin; and the day values of every
                metric (--metric all) under both rules.
                """)),
        ],
        rules: [.required("--out"), .exclusive("--days", "--size", reason: nil)],
        sections: [
            .synthExitStatus,
            HelpSection("EXAMPLES", body: .asWritten("""
                stepimport-synth apple --out samples/export.zip --days 45 --start 2024-03-15 \\
                    --expected samples/export.expected.json
                stepimport-synth apple --out /tmp/bench.xml --size 1G --seed 7
                """)),
        ],
        finish: { (options: inout AppleExportOptions) throws(Rejection) in try options.finish() })

    /// Runs the subcommand with the arguments after `apple`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        Subcommand.run(table, arguments, startingFrom: .defaults, generate: generate)
    }

    private static func generate(_ options: AppleExportOptions) throws(SynthError) {
        let generator = AppleExportGenerator(options: options)
        let result: AppleExportGenerator.Result
        if options.writesZip {
            // Stream the XML through a temporary file next to the archive, so a
            // multi-gigabyte export never sits in memory and stays on one disk.
            let temporary = temporaryPath(near: options.outputPath)
            defer { unlink(temporary) }
            do {
                result = try generator.writeXML(to: temporary)
            } catch .cannotCreate(_, let reason) {
                // The temporary file is an implementation detail: name the archive.
                throw SynthError.cannotCreate(path: options.outputPath, reason: reason)
            }
            try AppleZipArchive.write(
                archivePath: options.outputPath, xmlPath: temporary,
                clinical: ClinicalDocument.bytes(exportInstant: result.exportInstant,
                                                 firstDay: result.firstDay, lastDay: result.lastDay),
                modified: result.exportInstant)
        } else {
            result = try generator.writeXML(to: options.outputPath)
        }

        if let expectedPath = options.expectedPath {
            let totals = ExpectedTotals(samples: result.writtenSteps)
            let metrics = ExpectedMetrics(samples: result.writtenMetrics, steps: totals.fileOffsetDays,
                                          placement: .fileOffset)
            let zoned = ExpectedMetrics(samples: result.writtenMetrics, steps: totals.berlinDays,
                                        placement: .zone(ExpectedTotals.zoneIdentifier))
            let sections = [
                metrics.jsonSection(key: "metrics", heading: "\"rule\": \"file-offset\""),
                zoned.jsonSection(key: "metrics_tz", heading: "\"zone\": \"\(ExpectedTotals.zoneIdentifier)\""),
            ]
            var file = try OutputFile(path: expectedPath)
            try file.write(Array(totals.json(appending: sections).utf8))
            try file.finish()
        }

        let megabytes = Double(result.bytes) / 1_048_576
        printError("wrote \(options.outputPath): \(result.dayCount) days \(CivilDate(dayNumber: result.firstDay).text) to \(CivilDate(dayNumber: result.lastDay).text), XML \(result.bytes) bytes (\(String(format: "%.1f", megabytes)) MiB), \(result.recordCount) records, \(result.stepRecordCount) top-level step records", prefixed: false)
    }

    /// A hidden file name in the folder of `path`, unique to this process.
    private static func temporaryPath(near path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = ".\((path as NSString).lastPathComponent).\(getpid()).xml.tmp"
        return folder.isEmpty ? name : folder + "/" + name
    }
}
