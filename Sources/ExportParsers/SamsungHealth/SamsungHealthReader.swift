import ExportInput
import HealthDays

extension ExportFormatID {
    public static let samsungHealth = ExportFormatID(rawValue: "samsungHealth")
}

/// Samsung Health's "Download personal data" export (docs/samsung.md): a folder (often zipped,
/// often renamed) of CSVs, each told by its first line, or one of its step CSVs given alone.
///
/// One copy of the steps, never two added together: `step_daily_trend` (a day total per source,
/// Samsung Health's combined one among them) when it is there, else `tracker.pedometer_step_count`
/// (one-minute bins per device); the other files that hold the same steps again are named in the
/// summary as left out. `jsons/`, which the CSVs' `binning_data` columns name, is never opened.
enum SamsungHealthReader: ExportReader {
    static let format = ExportFormat(id: .samsungHealth, name: "Samsung Health export", service: "Samsung Health",
                                     family: .android, metrics: MetricSet([.steps, .distance]), forcedBy: "csv",
                                     accepted: "Samsung Health's export (its zip or folder, or its step_daily_trend "
                                         + "or pedometer_step_count CSV)")

    /// A first line that is Samsung Health's metadata line, whatever the file's name.
    static func recognises(head: [UInt8], name: String?) -> Bool {
        SamsungHealthFile(head: head) != nil
    }

    /// One CSV given alone: read when it holds steps (renamed or not), refused with the file to
    /// give when it is another of the export's types.
    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        guard let file = SamsungHealthFile(head: input.head) else {
            throw session.notRecognised(input.head, at: input.stream.location)
        }
        guard let layout = SamsungHealthCSVParser.Layout(file.kind) else {
            throw ExportError.notAnExport(input.stream.location, expected: .android, found: refusal(of: file),
                                          remedy: nil)
        }
        try readCSV(input.stream, file: file, layout: layout, in: &session)
        noteRead(layout, alone: true, leftOut: [], in: &session)
    }

    /// Finds the export's CSVs among a folder's or zip's members by their first lines: the
    /// members no earlier reader took by name, outside `jsons/`, named `*.csv` in any case.
    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool {
        var found: [(member: InputMember, file: SamsungHealthFile)] = []
        for member in container.members where isCandidate(member.name) && !session.claimedMembers.contains(member.name) {
            if let file = SamsungHealthFile(head: try member.head(ReadSession.headLength)) {
                found.append((member, file))
            }
        }
        guard !found.isEmpty else { return false }
        session.claim(found.map(\.member.name))
        let trends = found.filter { $0.file.kind == .dayTrend }
        let bins = found.filter { $0.file.kind == .minuteBins }
        let read: (member: InputMember, file: SamsungHealthFile)
        let layout: SamsungHealthCSVParser.Layout
        if !trends.isEmpty {
            guard trends.count == 1 else {
                throw ExportError.ambiguous(container.location, expected: .android, candidates: trends.map(\.member.name))
            }
            read = trends[0]
            layout = .dayTrend
        } else if !bins.isEmpty {
            guard bins.count == 1 else {
                throw ExportError.ambiguous(container.location, expected: .android, candidates: bins.map(\.member.name))
            }
            read = bins[0]
            layout = .minuteBins
        } else {
            let types = found.map(\.file.type).joined(separator: ", ")
            guard session.claimedMembers.count > found.count else {
                throw ExportError.notAnExport(container.location, expected: .android,
                                              found: "its Samsung Health files (\(types)) hold no steps that are read: "
                                                  + "step_daily_trend, or tracker.pedometer_step_count, is needed",
                                              remedy: nil)
            }
            // Another reader took this container's steps by name: these files are only said.
            session.summary.notes.append(.fact("Samsung Health: \(Plural.count(found.count, "file")) (\(types)) "
                + "without steps that are read, left out"))
            return false
        }
        session.plannedTotal = (session.plannedTotal ?? 0) + read.member.size
        try readCSV(try read.member.open(), file: read.file, layout: layout, in: &session)
        noteRead(layout, alone: false, leftOut: found.filter { $0.member.name != read.member.name }.map(\.file), in: &session)
        return true
    }

    /// A member that may be one of the export's CSVs: named `*.csv` in any case, not in a folder
    /// `jsons/` (the per-record JSON files). Its first line decides. Read from the name's bytes
    /// without a copy: a Takeout has thousands of members.
    static func isCandidate(_ name: String) -> Bool {
        let bytes = name.utf8
        guard bytes.count > 4, equalIgnoringCase(bytes.suffix(4), ".csv") else { return false }
        var component = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
            if equalIgnoringCase(bytes[component..<index], "jsons") { return false }
            component = bytes.index(after: index)
        }
        return true
    }

    /// Whether `bytes` are `word`'s, ASCII letters in any case.
    private static func equalIgnoringCase(_ bytes: Substring.UTF8View, _ word: StaticString) -> Bool {
        let wordBytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return bytes.count == wordBytes.count && zip(bytes, wordBytes).allSatisfy { byte, wanted in
            byte == wanted || (wanted >= 0x61 && wanted <= 0x7A && byte == wanted - 0x20)
        }
    }

    /// Streams one step CSV through the parser into the session.
    private static func readCSV(_ stream: ByteStream, file: SamsungHealthFile, layout: SamsungHealthCSVParser.Layout,
                                in session: inout ReadSession) throws(ExportError) {
        let parser = SamsungHealthCSVParser(sink: session.sink, layout: layout, encoding: file.encoding,
                                            invalidRecords: session.policy,
                                            metrics: session.metrics.contains(.distance) ? MetricSet([.steps, .distance]) : .steps)
        try session.pump(stream, through: parser, grammar: "CSV")
        if layout == .dayTrend, parser.statistics.dayTotals > 0 {
            let statistics = parser.statistics
            let devices = statistics.dayTotals - statistics.combinedDayTotals
            session.summary.notes.append(.fact("Samsung Health's step_daily_trend: "
                + "\(Plural.count(statistics.combinedDayTotals, "combined day total")) (source Samsung Health) "
                + "and \(devices) of \(Plural.count(parser.devicesRead, "device"))\(parser.sources.moreDevices ? " and more" : ""), "
                + "each a source of its own; each day takes the highest, never their sum"))
        }
    }

    /// Says what was read and what was left out, and which metrics asked for the export does not give.
    private static func noteRead(_ layout: SamsungHealthCSVParser.Layout, alone: Bool, leftOut: [SamsungHealthFile],
                                 in session: inout ReadSession) {
        let sameSteps = leftOut.filter { $0.kind != .other }.map(\.type)
        let others = leftOut.filter { $0.kind == .other }.map(\.type)
        if layout == .minuteBins {
            session.summary.notes.append(.fact("Samsung Health: read the minute bins of tracker.pedometer_step_count"
                + (alone ? "" : " (there is no step_daily_trend)")
                + ", each device a source of its own; exports often keep only their last weeks"))
        }
        if !sameSteps.isEmpty {
            session.summary.notes.append(.fact("Samsung Health: read \(layout.type); "
                + "\(Plural.count(sameSteps.count, "other step file")) left out, as they hold the same steps again "
                + "(never added together): \(sameSteps.joined(separator: ", "))"))
        }
        if !others.isEmpty {
            let shown = others.prefix(6).joined(separator: ", ") + (others.count > 6 ? ", ..." : "")
            session.summary.notes.append(.fact("Samsung Health: \(Plural.count(others.count, "other file")) without steps "
                + "not read (\(shown))"))
        }
        let unread = session.metrics.metrics.filter { !format.metrics.contains($0) }.map(\.name)
        if !unread.isEmpty {
            session.summary.notes.append(.fact("--metric \(unread.joined(separator: ", ")): Samsung Health's export is "
                + "read for steps and distance alone (docs/samsung.md)"))
        }
    }

    /// Why a Samsung Health file without steps that are read is refused, and what to give instead.
    private static func refusal(of file: SamsungHealthFile) -> String {
        let what = file.kind == .sameStepsAgain
            ? "which holds the same steps as step_daily_trend again and is never read"
            : "which holds no steps"
        return "it is Samsung Health's \(file.type), \(what): give the export's "
            + "com.samsung.shealth.step_daily_trend CSV, or its whole folder or zip"
    }
}
