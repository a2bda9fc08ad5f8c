import DisplayText
import BackendUpload
import ExportParsers
import Foundation
import HealthDays
import Outputs
import Platform

/// `stepimport apple` and `stepimport hc`: read an export and print its day totals.
///
/// The two differ only in the importer; the day rules, outputs and report are the same.
struct ReadCommand {
    /// `apple` or `hc` (with a forced `--input-format`).
    let choice: ExportChoice
    let path: String
    let options: ReadOptions
    let diagnostics: Diagnostics

    func run() throws(CommandError) {
        if case .zone(let zone) = options.zone, let caution = ZoneCaution(zone) {
            diagnostics.warn("--tz \(caution)")
        }
        // A missing token or URL fails before any parsing work.
        let post = try options.post.map { (postOptions) throws(CommandError) in
            try PostCommand.prepare(postOptions, zone: options.zone, diagnostics: diagnostics, quiet: options.quiet)
        }
        try post?.checkToken()
        // So does an output that cannot be made (-o in a folder that does not exist).
        let destination = try ResultsDestination(path: options.output, format: options.format, formatGiven: options.formatGiven,
                                                 color: options.color, diagnostics: diagnostics)
        // --explain names each source's values, as --by-source does; the database names each day's source.
        let withSources = options.bySource || options.explain != nil || options.format == .sqlite
        // --post with hc-priority or with another metric, and --metric beyond the metrics
        // hc-priority totals, were refused with the options.
        switch (options.rule == .hcPriority, options.metrics.isStepsOnly) {
        case (false, true): try read(by: HighestSourceSteps(zone: options.zone), post: post, to: destination)
        case (false, false): try read(by: HighestSourceMetrics(metrics: options.metrics, zone: options.zone,
                                                               withSources: withSources), post: post, to: destination)
        case (true, true): try read(by: PrioritySteps(zone: options.zone, priority: options.priority), post: post, to: destination)
        case (true, false): try read(by: PriorityMetrics(metrics: options.metrics, zone: options.zone, priority: options.priority,
                                                         withSources: withSources), post: post, to: destination)
        }
    }

    /// The one read pipeline: the export read into `rule`, its days, then the output (or `--post`),
    /// then the summary on stderr, its last line where the results went.
    func read<Rule: ReadRule>(by rule: Rule, post: PostCommand?, to destination: ResultsDestination) throws(CommandError) {
        let started = Date()
        let (result, exclusion, handEntries, recorder) = try importExport(filteringBefore: rule.sink) { () throws(ExportError) in
            try rule.finish()
        }
        let days = rule.days(in: DayRange(since: options.since, until: options.until).closedRange)
        let filtered = rule.filtered(days)
        // Without --tz, the one offset of an Apple export across a change of clocks (the days shown).
        let timeOffset = options.zone == .recordedOffset
            ? result.exportTimeOffset(rule.statistics, from: filtered.kept.first, to: filtered.kept.last) : nil
        if let recorder {
            let explanations = rule.explanations(of: rule.days(in: recorder.date...recorder.date), recorder,
                                                 excludedSources: options.excludedSources, excludeManual: options.excludeManual)
            let span = filtered.all.first.flatMap { first in filtered.all.last.map { first...$0 } }
            let explanation = Explanation(explanations, byMetric: !options.metrics.isStepsOnly,
                                          zoneWords: zoneDescription(rule.statistics), exportSpan: span)
            try destination.write { (writer, sink) throws(OutputError) in try writer.writeExplanation(explanation, to: sink) }
            rule.report(result, days, seconds: Date().timeIntervalSince(started), timeOffset: timeOffset, by: self)
            reportExcluded(exclusion)
            reportHandEntries(handEntries, formats: result.formats)
            reportWritten(destination.wrote("the explanation of \(recorder.date)"))
            return
        }
        if let post {
            // The options let --post through with the highest-source steps rule only, which gives steps.
            guard let steps = rule.steps(days) else {
                throw .upload(.configuration("--post sends steps, and this rule gives none"))
            }
            rule.report(result, days, seconds: Date().timeIntervalSince(started), timeOffset: timeOffset, by: self)
            reportExcluded(exclusion)
            reportHandEntries(handEntries, formats: result.formats)
            reportFiltered(all: filtered.all, kept: filtered.kept, with: filtered.what)
            try post.run(steps, to: destination)
            return
        }
        let layout = DayLayout(bySource: options.bySource,
                               zoneDescription: zoneDescription(rule.statistics) + (timeOffset.map(ExportTimeOffsetWords.footer) ?? ""),
                               priority: rule.priority,
                               enteredByHand: options.bySource ? handEntries.stepDays(within: filtered.kept) : [])
        let results = rule.results(days)
        // Everything is computed before the first byte is written: an error never leaves partial totals.
        try destination.writeDays(results, layout) {
            .singleRun(path: path, format: result.summary.format, zone: options.zone, rule: options.rule)
        }
        rule.report(result, days, seconds: Date().timeIntervalSince(started), timeOffset: timeOffset, by: self)
        reportExcluded(exclusion)
        reportHandEntries(handEntries, formats: result.formats)
        reportFiltered(all: filtered.all, kept: filtered.kept, with: filtered.what)
        if let steps = rule.steps(days) {
            reportRefusals(steps)
        }
        reportWritten(destination.wrote(Plural.count(results.dayCount, "day")))
    }

    /// The summary's last line: where the results went (`-o`); nothing for standard output.
    func reportWritten(_ line: String?) {
        guard let line, !options.quiet else { return }
        diagnostics.note(line)
    }

    /// Reads the export into `sink`, behind `HandEntries` (`--exclude-manual`), a `SourceExclusion`
    /// when `--exclude-source` is given, and first a `DaySampleRecorder` with `--explain` (all
    /// returned for the summary and the explanation), then runs `finish`.
    func importExport(filteringBefore sink: RecordSink, finish: () throws(ExportError) -> Void)
        throws(CommandError) -> (ImportResult, SourceExclusion?, HandEntries, DaySampleRecorder?) {
        let handEntries = HandEntries(excludes: options.excludeManual, zone: options.zone, next: sink)
        let exclusion = options.excludedSources.isEmpty ? nil
            : SourceExclusion(patterns: options.excludedSources, next: handEntries)
        let filters: RecordSink = exclusion.map { $0 as RecordSink } ?? handEntries
        let recorder = options.explain.map { DaySampleRecorder(date: $0, zone: options.zone, metrics: options.metrics, next: filters) }
        let result = try importExport(into: recorder.map { $0 as RecordSink } ?? filters, finish: finish)
        return (result, exclusion, handEntries, recorder)
    }

    /// Reads the export into `sink` (with the progress meter when it shows), then runs `finish`.
    func importExport(into sink: RecordSink, finish: () throws(ExportError) -> Void) throws(CommandError) -> ImportResult {
        let meter = diagnostics.showsProgress && options.progress && !options.quiet ? ProgressMeter(width: diagnostics.width) : nil
        let progress = meter.map { meter in { (done: Int64, total: Int64?) in meter.update(done: done, total: total) } }
        let tuning = Tuning(environment: ProcessInfo.processInfo.environment)
        let importOptions = ImportOptions(invalidRecords: options.skipInvalid ? .skip : .fail,
                                          parseWorkers: tuning.parseWorkers, pieceSize: tuning.pieceSize, progress: progress,
                                          metrics: options.metrics, strictXML: options.strictXML)
        do throws(ExportError) {
            defer { meter?.clear() }
            let result = try ExportImporter.open(path: path, as: choice).read(into: sink, options: importOptions)
            try finish()
            return result
        } catch {
            throw .export(error)
        }
    }

    /// What `--exclude-source` left out; a warning for a pattern that matched nothing (a typo
    /// would otherwise leave the source in without a word).
    func reportExcluded(_ exclusion: SourceExclusion?) {
        guard let exclusion else { return }
        if !options.quiet {
            for left in exclusion.excluded {
                let how = left.pattern.text == left.source ? "" : " (matched \(left.pattern.text.escapingControlCharacters()))"
                diagnostics.note("--exclude-source left out \(Plural.count(left.records, "record")) of "
                                 + "\(left.source.escapingControlCharacters())\(how)")
            }
        }
        for pattern in exclusion.unmatchedPatterns {
            diagnostics.warn(SourceWords.unmatched(pattern, among: exclusion.sourcesSeen))
        }
    }

    /// Records typed in by hand: what `--exclude-manual` left out, or that it could leave none
    /// out; without it, that they count and how to leave them out.
    func reportHandEntries(_ handEntries: HandEntries, formats: [ExportFormat]) {
        let sources = handEntries.sources
        guard options.excludeManual else {
            let steps = sources.filter { $0.stepRecords > 0 }
            guard !options.quiet, !steps.isEmpty, options.metrics.contains(.steps) else { return }
            diagnostics.note(HandEntryWords.counted(steps))
            return
        }
        if sources.isEmpty {
            diagnostics.warn(HandEntryWords.noneLeftOut(formats: formats))
        } else if !options.quiet {
            for source in sources { diagnostics.note(HandEntryWords.leftOut(source)) }
        }
    }

    /// What `--since`/`--until` left out; a warning when they left nothing. `all` and `kept` are
    /// the dates of days with a value before and after, in order; `what` says what they have.
    func reportFiltered(all: [LocalDate], kept: [LocalDate], with what: String = "steps") {
        let leftOut = all.count - kept.count
        guard options.since != nil || options.until != nil, leftOut > 0 else { return }
        let before = all.filter { date in options.since.map { date < $0 } ?? false }
        let after = all.filter { date in options.until.map { date > $0 } ?? false }
        var parts: [String] = []
        if let since = options.since, let first = before.first, let last = before.last {
            parts.append("\(Plural.count(before.count, "day")) before \(since) (\(first) to \(last))")
        }
        if let until = options.until, let first = after.first, let last = after.last {
            parts.append("\(Plural.count(after.count, "day")) after \(until) (\(first) to \(last))")
        }
        let message = "--since/--until left out \(Plural.count(leftOut, "day")) with \(what) of \(all.count): "
            + parts.joined(separator: " and ")
        if kept.isEmpty {
            diagnostics.warn(message)
        } else if !options.quiet {
            diagnostics.note(message)
        }
    }

    /// Days the server would refuse or that cannot be true: kept in the output, listed on stderr
    /// (`--post` holds them and says so itself).
    func reportRefusals(_ days: [DayTotal]) {
        let zone: TimeZone
        if case .zone(let given) = options.zone { zone = given } else { zone = TimeZone.current }
        let today = UploadRules.today(in: zone)
        let refused = days.compactMap { day in UploadRules.refusal(of: day, today: today).map { (day, $0) } }
        guard !refused.isEmpty else { return }
        diagnostics.warn("\(Plural.count(refused.count, "day")) the server would refuse or that cannot be true "
                         + "(kept in the output; --post does not send \(refused.count == 1 ? "it" : "them")):")
        // A listing, not a dump: an export with a clock set decades ahead refuses thousands of days.
        for (day, refusal) in refused.prefix(Self.refusalsListed) {
            diagnostics.write("  \(day.date) (\(day.steps) steps): \(refusal.words(for: day))\n")
        }
        if refused.count > Self.refusalsListed, let first = refused.dropFirst(Self.refusalsListed).first, let last = refused.last {
            diagnostics.write("  ... and \(refused.count - Self.refusalsListed) more, \(first.0.date) to \(last.0.date)\n")
        }
    }

    /// Refused days named one by one; the rest are counted.
    static let refusalsListed = 20

    /// Which rule placed the values on days, for the table's footer. Day totals (Takeout's daily
    /// summary, day-total CSV) carry their date: no zone places them, and the footer says so
    /// rather than naming an offset no value had.
    func zoneDescription(_ statistics: AggregationStats) -> String {
        guard statistics.placedSamples > 0 || statistics.dayTotals == 0 else {
            let given = if case .zone = options.zone { "; --tz changes nothing for them" } else { "" }
            return "not needed (every value is a day total, counted on its own date\(given))"
        }
        var words = options.zone.words
        if case .recordedOffset = options.zone {
            var parts: [String] = statistics.offsets.prefix(4).map(OffsetText.format)
            if statistics.offsets.count > 4 { parts.append("...") }
            if statistics.withoutOffset > 0 { parts.append("UTC where none") }
            if !parts.isEmpty { words += " (\(parts.joined(separator: ", ")))" }
        }
        if statistics.dayTotals > 0 { words += "; day totals on their own dates" }
        return words
    }

    /// What was read and the reader's notes: the summary's first lines. The size and speed, and
    /// the notes a user cannot act on, only with `-v`.
    func reportRead(_ summary: ImportSummary, seconds: Double) {
        diagnostics.reportRead(summary, seconds: seconds, given: path, verbose: options.verbose) { note in
            // Under hc-priority the rule's own line names the list it followed.
            if case .activityPriority = note, options.rule == .hcPriority { return false }
            return true
        }
    }

    /// The summary on stderr. `days` are those shown, `allDays` those before `--since`/`--until`
    /// (the sources line speaks of the whole export, as the record counts do).
    func report(_ result: ImportResult, _ statistics: AggregationStats, days: [DayTotal], allDays: [DayTotal],
                        seconds: Double, timeOffset: ExportTimeOffset?) {
        let summary = result.summary
        diagnostics.warnSkipped(summary, consequence: "; the totals of their days are low")
        guard !options.quiet else { return }
        reportRead(summary, seconds: seconds)
        if summary.stepRecords == 0 {
            let others = summary.otherRecords > 0 ? " (\(Plural.count(summary.otherRecords, "record")) of other types)" : ""
            diagnostics.note("no step records to total in this export\(others)")
            return
        }
        // Counts of nothing are left out: "0 exact duplicates counted once" says nothing.
        var parts = [Plural.count(summary.stepRecords, statistics.dayTotals == summary.stepRecords ? "day total" : "step record")]
        if statistics.duplicates > 0 {
            parts.append("\(Plural.count(statistics.duplicates, "exact duplicate")) counted once")
        }
        if statistics.crossingMidnight > 0 {
            parts.append("\(statistics.crossingMidnight) split across midnight")
        }
        diagnostics.note(parts.joined(separator: ", "))
        if let sources = SourceSummary.line(statistics.sources, days: allDays) {
            diagnostics.note(sources)
        }
        // Health Connect's app totals the apps by its priority list, which can give more than the
        // highest single app on a day several apps counted: say so where a trainee will compare.
        let healthConnect = result.formats.contains { $0.id == .healthConnectDatabase || $0.id == .appDumpJSON }
        let shared = allDays.filter { $0.sources.count > 1 }.count
        if healthConnect && shared > 0 {
            let database = result.formats.contains { $0.id == .healthConnectDatabase }
            diagnostics.note("on \(Plural.count(shared, "day")) several apps counted steps: each day here is the highest "
                             + "single app; Health Connect's own app combines apps by its priority list and may show more "
                             + "(--rule hc-priority gives its number\(database ? "" : ", with --priority app1,app2,..."))")
        }
        switch options.zone {
        case .recordedOffset:
            if statistics.withoutOffset > 0 {
                let count = statistics.withoutOffset
                diagnostics.note("\(Plural.count(count, "record")) \(count == 1 ? "carries" : "carry") no UTC offset and \(count == 1 ? "was" : "were") taken as UTC; --tz Area/City places \(count == 1 ? "it" : "them") in the trainee's zone")
            }
            if let timeOffset {
                diagnostics.note(ExportTimeOffsetWords.hint(timeOffset))
            }
        case .zone(let zone):
            if statistics.wallClockInZone > 0 {
                diagnostics.note("\(Plural.count(statistics.wallClockInZone, "record")) with a wall-clock time and no offset read as \(zone.identifier) local time")
            }
        }
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
