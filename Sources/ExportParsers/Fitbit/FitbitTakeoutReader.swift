import ExportInput
import HealthDays

extension ExportFormatID {
    public static let fitbitTakeout = ExportFormatID(rawValue: "fitbitTakeout")
}

/// Fitbit's part of a Google Takeout: per-minute steps, distance and calories, heart-rate readings
/// and sleep logs (`steps-YYYY-MM-DD.json` and so on), read as the files `--metric` asks for
/// (`FitbitPlan`), or one such file given alone.
enum FitbitTakeoutReader: ExportReader {
    static let format = ExportFormat(id: .fitbitTakeout, name: "Fitbit Takeout", service: "Fitbit", family: .android,
                                     metrics: MetricSet(FitbitMinuteParser.Kind.allCases.flatMap(\.metrics)),
                                     forcedBy: "json",
                                     accepted: "Fitbit Takeout (zip, folder, steps-YYYY-MM-DD.json)")

    /// Fitbit's per-minute array, or its array of sleep logs in a file named like one.
    static func recognises(head: [UInt8], name: String?) -> Bool {
        FitbitMinuteParser.looksLikeMinuteArray(head)
            || (name.flatMap(FitbitMinuteParser.kind(ofFileNamed:)) == .sleep && FitbitSleepParser.looksLikeSleepLogs(head))
    }

    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        var rows: [FitbitMinuteParser.Kind: Int] = [:]
        try readFile(input.stream, name: input.name, head: input.head, rows: &rows, in: &session)
        noteMinutes(files: [input.name ?? ""], rows: rows, accountZone: nil, in: &session)
    }

    /// Reads a Fitbit export's files of the kinds asked for, and the account's zone from its profile.
    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool {
        let members = container.members
        let kinds = Set(session.metrics.metrics.compactMap(FitbitMinuteParser.Kind.init(giving:)))
        guard let plan = FitbitPlan.choose(members.map(\.name), kinds: kinds) else { return false }
        // Its files of every kind, those not asked for too, and the profile.
        session.claim(members.map(\.name).filter { FitbitMinuteParser.kind(ofFileNamed: $0) != nil || FitbitPlan.isProfile($0) })
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var accountZone: String?
        if let name = plan.profile, let profile = byName[name] {
            accountZone = FitbitPlan.accountZone(inProfileHead: try profile.head(profileHeadLength))
        }
        let files = plan.files.compactMap { byName[$0] }
        session.plannedTotal = (session.plannedTotal ?? 0) + files.reduce(0) { $0 + $1.size }
        var rows: [FitbitMinuteParser.Kind: Int] = [:]
        for member in files {
            try readFile(try member.open(), name: member.name, head: try member.head(ReadSession.headLength), rows: &rows,
                         in: &session)
        }
        noteMinutes(files: files.map(\.name), rows: rows, accountZone: accountZone, in: &session)
        return true
    }

    /// How much of a profile is read for its zone: the real one is a header and one row.
    static var profileHeadLength: Int { 64 * 1024 }

    /// Reads one Fitbit file whose first bytes are `head`; its name says what it holds. A file of
    /// a kind not asked for is refused.
    private static func readFile(_ stream: ByteStream, name: String?, head: [UInt8], rows: inout [FitbitMinuteParser.Kind: Int],
                                 in session: inout ReadSession) throws(ExportError) {
        let named = name.flatMap(FitbitMinuteParser.kind(ofFileNamed:))
        if named == .sleep {
            guard FitbitSleepParser.looksLikeSleepLogs(head) else {
                throw ExportError.notAnExport(stream.location, expected: .android,
                                              found: "it is named like a Fitbit sleep file but does not start as Fitbit's "
                                                  + "array of sleep logs (\"\(ContentHead.start(head))\")",
                                              remedy: .useAcceptedFormat)
            }
        } else if !FitbitMinuteParser.looksLikeMinuteArray(head) {
            throw ExportError.notAnExport(stream.location, expected: .android,
                                          found: "it is named like a Fitbit step file but does not start as Fitbit's "
                                              + "per-minute array (\"\(ContentHead.start(head))\")",
                                          remedy: .useAcceptedFormat)
        }
        guard let kind = named else {
            let names = FitbitMinuteParser.Kind.allCases.map(\.fileNamePrefix).joined(separator: ", ")
            throw ExportError.notAnExport(stream.location, expected: .android,
                                          found: "it is Fitbit's per-minute array, but only its name says what it counts, "
                                              + "and the name is not one of \(names) then YYYY-MM-DD.json",
                                          remedy: .useAcceptedFormat)
        }
        guard kind.metrics.contains(where: session.metrics.contains) else {
            throw ExportError.notAnExport(stream.location, expected: .android,
                                          found: "it is Fitbit's \(kind.metric.name) (\(kind.fileNamePrefix)YYYY-MM-DD.json), "
                                              + "and --metric does not ask for \(kind.metric.name)",
                                          remedy: nil)
        }
        if kind == .sleep {
            let parser = FitbitSleepParser(sink: session.sink, invalidRecords: session.policy)
            try session.pump(stream, through: parser, grammar: "JSON")
            rows[kind, default: 0] += parser.statistics.logsRead
        } else {
            let parser = FitbitMinuteParser(sink: session.sink, kind: kind, invalidRecords: session.policy)
            try session.pump(stream, through: parser, grammar: "JSON")
            rows[kind, default: 0] += parser.statistics.minutes
        }
    }

    /// Says once, for all the Fitbit files read, how their wall-clock minutes were dated; and which
    /// metrics asked for Fitbit's files do not give.
    private static func noteMinutes(files: [String], rows fitbitRows: [FitbitMinuteParser.Kind: Int], accountZone: String?,
                                    in session: inout ReadSession) {
        let kinds = files.map { FitbitMinuteParser.kind(ofFileNamed: $0) }
        func count(_ kind: FitbitMinuteParser.Kind) -> Int { kinds.filter { $0 == kind }.count }
        let minuteFiles = files.count - count(.heartRate) - count(.sleep)
        if minuteFiles > 0 || minuteFiles == files.count {
            let minutes = fitbitRows.filter { $0.key != .heartRate && $0.key != .sleep }.values.reduce(0, +)
            session.summary.notes.append(.fitbitWallClock(minutes: minutes, files: minuteFiles, accountZone: accountZone))
        }
        for (kind, what, how) in [(FitbitMinuteParser.Kind.heartRate, "heart-rate reading", "each at its own instant"),
                                  (.sleep, "sleep log", "each on the day it ends")] where count(kind) > 0 {
            session.summary.notes.append(.fact("Fitbit: \(Plural.count(fitbitRows[kind] ?? 0, what)) from "
                + "\(Plural.count(count(kind), "file")) in the same wall time, \(how)"))
        }
        let metrics = session.metrics
        guard !metrics.isStepsOnly else { return }
        if metrics.contains(.activeEnergy) {
            session.summary.notes.append(.fact("Fitbit's calories include resting energy: they are total-energy (total_kcal), "
                + "never active-energy"))
        }
        let others = metrics.metrics.filter { FitbitMinuteParser.Kind(giving: $0) == nil }.map(\.name)
        if !others.isEmpty {
            let given = FitbitMinuteParser.Kind.allCases.flatMap(\.metrics).map(\.name).joined(separator: ", ")
            session.summary.notes.append(.fact("--metric \(others.joined(separator: ", ")): Fitbit's files are read for \(given) alone"))
        }
    }
}

extension FitbitMinuteParser: SummarizingParser {
    var formatName: String {
        switch kind {
        case .steps: "Fitbit per-minute steps JSON"
        case .distance: "Fitbit per-minute distance JSON"
        case .calories: "Fitbit per-minute calories JSON"
        case .heartRate: "Fitbit heart rate JSON"
        case .sleep: "Fitbit sleep JSON"
        }
    }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        let statistics = self.statistics
        if kind == .steps { summary.stepRecords += statistics.minutes }
        summary.addSkipped(statistics.skipped, at: location)
    }

    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: kind == .heartRate ? "readings" : "minutes", count: statistics.minutes)
    }

    /// Its steps-only note is its own (`noteFitbitMinutes`), not Google Fit's.
    var givesStepsOnly: Bool { false }
}

extension FitbitSleepParser: SummarizingParser {
    var formatName: String { "Fitbit sleep JSON" }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        summary.addSkipped(statistics.skipped, at: location)
    }

    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: "sleep logs", count: statistics.logsRead)
    }

    var givesStepsOnly: Bool { false }
}
