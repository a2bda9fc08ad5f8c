import ExportParsers
import Foundation

/// `stepimport apple`: read an Apple Health export and print its day totals.
struct AppleCommand {
    let path: String
    let options: ReadOptions
    let diagnostics: Diagnostics

    func run() throws(ExportError) {
        let aggregator = DayAggregator(rule: options.zone)
        let meter = diagnostics.showsProgress && options.progress ? ProgressMeter() : nil
        let started = Date()
        let summary: AppleImportSummary
        do throws(ExportError) {
            summary = try AppleHealthImport.read(
                path: path, into: aggregator,
                invalidRecords: options.skipInvalid ? .skip : .fail,
                progress: meter.map { meter in { done, total in meter.update(done: done, total: total) } })
            meter?.clear()
        } catch {
            meter?.clear()
            throw error
        }
        let range = DayRange(since: options.since, until: options.until)
        let days = aggregator.dayTotals(in: range.closedRange)
        let statistics = aggregator.statistics
        let renderer = DayTotalsRenderer(format: options.format, bySource: options.bySource,
                                         zoneDescription: zoneDescription(statistics))
        // Everything is computed before the first byte goes to stdout: an error never leaves partial totals.
        FileHandle.standardOutput.write(Data(renderer.render(days).utf8))
        report(summary, statistics, days: days, seconds: Date().timeIntervalSince(started))
    }

    private func zoneDescription(_ statistics: AggregationStats) -> String {
        switch options.zone {
        case .zone:
            return options.zone.summary
        case .recordedOffset:
            let offsets = statistics.offsets.prefix(4).map(OffsetText.format).joined(separator: ", ")
            let more = statistics.offsets.count > 4 ? ", ..." : ""
            return statistics.offsets.isEmpty ? options.zone.summary : "\(options.zone.summary) (\(offsets)\(more))"
        }
    }

    private func report(_ summary: AppleImportSummary, _ statistics: AggregationStats, days: [DayTotal], seconds: Double) {
        let parse = summary.parse
        if parse.skippedRecords > 0 {
            // Skipped data is always reported, even with --quiet.
            diagnostics.warn("skipped \(Plural.count(parse.skippedRecords, "invalid step record")) (--skip-invalid); the totals of their days are low:")
            for example in parse.skippedExamples {
                diagnostics.warn("  \(summary.location):\(example.line):\(example.column): \(example.problem)")
            }
            if parse.skippedRecords > parse.skippedExamples.count {
                diagnostics.warn("  ... and \(parse.skippedRecords - parse.skippedExamples.count) more")
            }
        }
        guard !options.quiet else { return }
        let rate = seconds > 0 ? ", \(ByteCount.format(Int64(Double(summary.bytesRead) / seconds)))/s" : ""
        diagnostics.note("read \(summary.location) (\(ByteCount.format(summary.bytesRead)) of XML in \(String(format: "%.2f", seconds)) s\(rate))")
        if parse.stepRecords == 0 {
            let others = parse.records - parse.skippedRecords
            diagnostics.note("no step records to total in this export (\(Plural.count(others, "record")) of other types)")
            return
        }
        var line = Plural.count(parse.stepRecords, "step record")
        line += ", \(Plural.count(statistics.duplicates, "exact duplicate")) counted once"
        line += ", \(statistics.crossingMidnight) split across midnight"
        if parse.nestedStepRecords > 0 {
            line += ", \(parse.nestedStepRecords) inside Correlation elements left out (they repeat top-level records)"
        }
        diagnostics.note(line)
        if summary.skippedDoctype || summary.droppedControlCharacters > 0 {
            var repairs: [String] = []
            if summary.skippedDoctype { repairs.append("the internal DTD was skipped") }
            if summary.droppedControlCharacters > 0 {
                repairs.append("\(Plural.count(summary.droppedControlCharacters, "stray control character")) dropped")
            }
            diagnostics.note(repairs.joined(separator: "; "))
        }
        if case .recordedOffset = options.zone {
            if statistics.offsets.count == 1, let span = spanInDays(days), span > 60 {
                diagnostics.note("every sample carries the offset \(OffsetText.format(statistics.offsets[0])), Apple's offset at export time; if the trainee's zone has daylight saving time, --tz Area/City gives the days the phone showed")
            }
        }
    }

    private func spanInDays(_ days: [DayTotal]) -> Int? {
        guard let first = days.first, let last = days.last else { return nil }
        return Int(last.date.daysSinceEpoch - first.date.daysSinceEpoch)
    }
}

/// `--since` and `--until` as a range of days.
struct DayRange {
    let since: LocalDate?
    let until: LocalDate?

    var closedRange: ClosedRange<LocalDate>? {
        guard since != nil || until != nil else { return nil }
        return (since ?? LocalDate(daysSinceEpoch: Int32.min))...(until ?? LocalDate(daysSinceEpoch: Int32.max))
    }
}

/// UTC offsets as Apple writes them: +0100, -0430.
enum OffsetText {
    static func format(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(Int(seconds)) / 60
        return sign + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }
}

/// "1 record", "2 records".
enum Plural {
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
