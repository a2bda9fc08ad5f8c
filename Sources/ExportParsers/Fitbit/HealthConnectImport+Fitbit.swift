import HealthDays
import ExportInput

extension HealthConnectImport.Reader {
    /// Reads a Fitbit export's step files, and the account's zone from its profile.
    mutating func readFitbit(_ plan: FitbitPlan, _ members: [InputMember]) throws(ExportError) {
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var accountZone: String?
        if let name = plan.profile, let profile = byName[name] {
            accountZone = FitbitPlan.accountZone(inProfileHead: try profile.head(Self.profileHeadLength))
        }
        let files = plan.stepFiles.compactMap { byName[$0] }
        plannedTotal = (plannedTotal ?? 0) + files.reduce(0) { $0 + $1.size }
        for member in files {
            try readFitbitFile(try member.open(), name: member.name, head: try member.head(HealthConnectImport.headLength))
        }
        noteFitbitMinutes(files: files.count, accountZone: accountZone)
    }

    /// How much of a profile is read for its zone: the real one is a header and one row.
    static var profileHeadLength: Int { 64 * 1024 }

    /// Reads one Fitbit per-minute file whose first bytes are `head`; its name says what it counts.
    mutating func readFitbitFile(_ stream: ByteStream, name: String?, head: [UInt8]) throws(ExportError) {
        guard FitbitMinuteParser.looksLikeMinuteArray(head) else {
            throw ExportError.notAnExport(stream.location, expected: .healthConnect,
                                          found: "it is named like a Fitbit step file but does not start as Fitbit's "
                                              + "per-minute array (\"\(ContentHead.start(head))\")",
                                          remedy: .useAcceptedFormat)
        }
        guard let name, FitbitMinuteParser.kind(ofFileNamed: name) == .steps else {
            throw ExportError.notAnExport(stream.location, expected: .healthConnect,
                                          found: "it is Fitbit's per-minute array, but only its name says what it counts, "
                                              + "and the name is not steps-YYYY-MM-DD.json",
                                          remedy: .useAcceptedFormat)
        }
        let parser = FitbitMinuteParser(sink: sink, invalidRecords: policy)
        try pump(stream, through: parser, grammar: "JSON")
        fitbitMinutes += parser.statistics.minutes
    }

    /// Says once, for all the Fitbit files read, how their wall-clock minutes were dated; and that
    /// `--metric` gets steps alone from them.
    mutating func noteFitbitMinutes(files: Int, accountZone: String?) {
        summary.notes.append(.fitbitWallClock(minutes: fitbitMinutes, files: files, accountZone: accountZone))
        fitbitMinutes = 0
        if !metrics.isStepsOnly {
            let others = metrics.metrics.filter { $0 != .steps }.map(\.name).joined(separator: ", ")
            summary.notes.append(.fact("--metric \(others): Fitbit's per-minute files are read for steps alone"))
        }
    }
}

extension FitbitMinuteParser: SummarizingParser {
    var formatName: String { "Fitbit per-minute steps JSON" }

    func summarize(into summary: inout ImportSummary, at location: InputLocation) {
        let statistics = self.statistics
        summary.stepRecords += statistics.minutes
        summary.addSkipped(statistics.skipped, at: location)
    }

    func takeStock(into inventory: inout ExportInventory) {
        inventory.add(kind: formatName, name: "minutes", count: statistics.minutes)
    }

    /// Its steps-only note is its own (`noteFitbitMinutes`), not Google Fit's.
    var givesStepsOnly: Bool { false }
}
