import CommandLineKit
import Foundation

/// `stepimport-synth hc-json`: its table, and writing a JSON dump of Health Connect step records
/// in one of the shapes apps write, streaming, and the expected totals.
enum HealthConnectJSONCommand {
    /// `stepimport-synth hc-json`'s table.
    static let table = Command<HealthConnectOptions>(
        "hc-json",
        abstract: .asWritten("JSON dumps of Health Connect step records in apps' shapes."),
        overview: "Write a deterministic synthetic JSON dump of Health Connect step records.",
        discussion: """
            The same user and apps as `hc-db` (the phone's counter under both names, Google
            Fit with a few exact duplicates, a Samsung watch; Berlin with trips to New York
            and Kolkata), written in the shape one app or library dumps them. Written as it
            is generated, so a gigabyte takes seconds and little memory.
            """,
        options: [
            .shape,
            .output(help: "Output file."),
            .days(default: HealthConnectOptions.defaultDays(.json)),
            .size(help: .asWritten("""
                Generate until the file reaches this size, e.g. 500K, 100M,
                1G (binary multiples), finishing the day that crosses it.
                """)),
            .seed,
            .start,
            .metrics,
            .expected(help: .asWritten("""
                Also write the day totals an importer must find (JSON):
                records with an offset placed in it, the others taken as
                UTC (wall times: the date written).
                """)),
        ],
        rules: [.required("--out"), .required("--shape"), .exclusive("--days", "--size", reason: nil)],
        sections: [
            HelpSection("SHAPES", placement: .beforeOptions, body: .asWritten("""
                react-native            react-native-health-connect readRecords('Steps'):
                                        {"records":[...],"pageToken":null}, zone offset objects.
                react-native-no-offsets The same as dumped before 2026: no zone offsets.
                hcgateway               HCGateway: [{"_id","id","data":{"count"},"app","start","end"}].
                capacitor               Capacitor: {"records":[{"type":"Steps","startZoneOffset":"+02:00",..}]}.
                flutter                 Flutter health: [{"value":{"numericValue"},"dateFrom",..}],
                                        local wall times without an offset.
                flutter-snake           Older Flutter health: date_from, date_to, source_name, ...
                day-totals              A small exporter's day totals: [{"date","steps"}], no origin.
                """)),
            .synthExitStatus,
            HelpSection("EXAMPLES", body: .asWritten("""
                stepimport-synth hc-json --shape react-native --out samples/hc-react-native.json \\
                    --expected samples/hc-react-native.expected.json
                stepimport-synth hc-json --shape flutter --out /tmp/bench.json --size 1G
                """)),
        ],
        finish: { (options: inout HealthConnectOptions) throws(Rejection) in try options.finish(for: .json) })

    /// Runs the subcommand with the arguments after `hc-json`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        Subcommand.run(table, arguments, startingFrom: .defaults, generate: generate)
    }

    private static func generate(_ options: HealthConnectOptions) throws(SynthError) {
        var file = try OutputFile(path: options.outputPath)
        var writer = HealthConnectJSONWriter(shape: options.shape, metrics: options.metrics)
        var buffer = ByteBuffer(capacity: 2 << 20)
        writer.appendHead(to: &buffer)

        var composer = HealthConnectDayComposer(seed: options.seed, renameDayIndex: options.renameDayIndex)
        var metricComposer = HealthConnectMetricComposer(seed: options.seed)
        var expectedMetrics = HealthConnectExpectedMetrics()
        var metricRecords = 0
        var expected = HealthConnectExpectedTotals()
        let collects = options.expectedPath != nil
        let sources = HealthConnectApp.allCases.map { expected.sourceID($0.source) }
        let unknown = expected.sourceID("(unknown)")
        var records = 0
        var dayIndex = 0
        while true {
            if let days = options.days, dayIndex >= days { break }
            if let limit = options.sizeLimit, file.bytesWritten + buffer.count >= limit { break }
            let dayNumber = options.startDay + dayIndex
            composer.compose(dayIndex: dayIndex, dayNumber: dayNumber)
            if collects { expected.beginDay() }
            if options.shape == .dayTotals {
                // The exporter's total is the phone's: its records of the day, summed.
                let steps = composer.records.reduce(0) { $0 + ($1.app.source == HealthConnectApp.phoneLegacy.packageName ? $1.count : 0) }
                writer.appendDayTotal(dayNumber: dayNumber, steps: steps, to: &buffer)
                records += 1
                if collects { expected.addDayTotal(source: unknown, dayNumber: dayNumber, steps: Double(steps)) }
            } else {
                for record in composer.records {
                    writer.append(record, to: &buffer)
                    records += 1
                    guard collects else { continue }
                    let source = sources[record.app.rawValue]
                    let value = Double(record.count)
                    switch options.shape.placement {
                    case .ownOffset:
                        expected.add(source: source, startMs: record.startMs, endMs: record.endMs,
                                     offsetSeconds: Int64(record.startOffset), value: value)
                    case .utc:
                        expected.add(source: source, startMs: record.startMs, endMs: record.endMs, offsetSeconds: 0, value: value)
                    case .wallClock:
                        expected.add(source: source, startMs: record.wallStartMs, endMs: record.wallEndMs, offsetSeconds: 0, value: value)
                    case .dayTotal:
                        break
                    }
                }
            }
            if options.metrics {
                metricComposer.compose(dayIndex: dayIndex, dayNumber: dayNumber, steps: composer)
                let day = metricComposer.day.placed(for: options.shape)
                if collects { expectedMetrics.add(day) }
                if !writer.sections {
                    writer.appendMetrics(day, section: nil, to: &buffer)
                    metricRecords += day.recordCount
                }
            }
            if buffer.count >= 1 << 20 {
                try file.write(buffer.bytes)
                buffer.removeAll()
            }
            dayIndex += 1
        }
        if writer.sections {
            // Each record type under its own member: the days again, one type at a time (the
            // composers are deterministic per day, so memory stays flat however long the dump).
            for section in HealthConnectJSONWriter.MetricSection.allCases {
                writer.beginSection(section, to: &buffer)
                for index in 0..<dayIndex {
                    composer.compose(dayIndex: index, dayNumber: options.startDay + index)
                    metricComposer.compose(dayIndex: index, dayNumber: options.startDay + index, steps: composer)
                    let day = metricComposer.day.placed(for: options.shape)
                    let before = buffer.count
                    writer.appendMetrics(day, section: section, to: &buffer)
                    if buffer.count > before { metricRecords += day.recordCount(in: section) }
                    if buffer.count >= 1 << 20 {
                        try file.write(buffer.bytes)
                        buffer.removeAll()
                    }
                }
            }
        }
        writer.appendTail(to: &buffer)
        try file.write(buffer.bytes)
        let bytes = file.bytesWritten
        try file.finish()

        if let expectedPath = options.expectedPath {
            var totals = try OutputFile(path: expectedPath)
            try totals.write(options.metrics ? expected.json(appending: [expectedMetrics.jsonSection(steps: expected.days())])
                                 : expected.json())
            try totals.finish()
        }
        let lastDay = options.startDay + dayIndex - 1
        printError("wrote \(options.outputPath): \(options.shape.rawValue), \(dayIndex) days \(CivilDate(dayNumber: options.startDay).text) to \(CivilDate(dayNumber: lastDay).text), \(records) \(options.shape == .dayTotals ? "day totals" : "step records")\(options.metrics ? ", \(metricRecords) metric records" : ""), \(bytes) bytes (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB)", prefixed: false)
    }
}
