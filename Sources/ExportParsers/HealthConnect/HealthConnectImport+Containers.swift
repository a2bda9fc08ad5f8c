import Foundation
import HealthDays
import ExportInput

extension HealthConnectImport.Reader {
    /// Picks what to read among the members of a zip or folder, and reads it.
    mutating func readMembers(_ container: InputContainer, depth: Int) throws(ExportError) {
        let members = container.members
        // A folder given itself (`Takeout/Fit/All Data/`) names the folder its files are in.
        let folderName = container.isZip ? nil : URL(fileURLWithPath: container.location.path).lastPathComponent
        let takeout = TakeoutPlan.choose(members.map(\.name), inFolderNamed: folderName)
        let fitbit = FitbitPlan.choose(members.map(\.name), kinds: fitbitKinds)
        if takeout != nil || fitbit != nil {
            if let takeout {
                try readTakeout(takeout, members, container: container.location, folderName: folderName)
            }
            if let fitbit {
                try readFitbit(fitbit, members)
            }
            if takeout != nil && fitbit != nil {
                summary.notes.append(.fact("Takeout holds steps from both Google Fit and Fitbit: read as two sources; "
                    + "each day takes the higher one, never their sum"))
            }
            return
        }
        var databases: [InputMember] = []
        var texts: [(InputMember, HealthConnectInputFormat, [UInt8])] = []
        var zips: [InputMember] = []
        var sawApple = false
        for member in members {
            let head = try member.head(HealthConnectImport.headLength)
            switch HealthConnectImport.sniff(head) {
            case .sqlite: databases.append(member)
            case .json: texts.append((member, .json, head))
            case .csv: texts.append((member, .csv, head))
            case .zip: zips.append(member)
            case .appleXML: sawApple = true
            default: break
            }
        }
        if databases.count > 1 {
            throw ExportError.ambiguous(container.location, expected: .healthConnect, candidates: databases.map(\.name))
        }
        if let database = databases.first {
            try readDatabaseMember(database, in: container)
            return
        }
        if !texts.isEmpty {
            plannedTotal = texts.reduce(0) { $0 + $1.0.size }
            for (member, format, head) in texts {
                try readText(try member.open(), format: forced ?? format, name: member.name, head: head)
            }
            if texts.count > 1 {
                summary.notes.append("read \(texts.count) files: \(texts.prefix(5).map(\.0.name).joined(separator: ", "))\(texts.count > 5 ? ", ..." : "")")
            }
            return
        }
        if depth < InputOpener.maxNesting {
            for member in zips {
                let before = summary.locations.count
                do {
                    try readMembers(try member.openZip(), depth: depth + 1)
                } catch {
                    // A zip inside that holds nothing of ours is passed over; anything else is an error.
                    guard case .notAnExport = error else { throw error }
                }
                if summary.locations.count > before { return }
            }
        }
        let all = container.allNames.filter { !$0.hasSuffix("/") }
        let names = all.prefix(8).joined(separator: ", ") + (all.count > 8 ? ", ..." : "")
        if sawApple {
            throw ExportError.notAnExport(container.location, expected: .healthConnect, found: "found an Apple Health export",
                                          remedy: .useReader(for: .appleHealthExport))
        }
        throw ExportError.notAnExport(container.location, expected: .healthConnect,
                                      found: "nothing in it is step data (\(names.isEmpty ? "it is empty" : names))",
                                      remedy: .useAcceptedFormat)
    }

    /// Reads a database member; in a zip, a `-wal` or `-journal` entry beside it is copied with it
    /// and applied (a folder's database finds its journal on the disk).
    mutating func readDatabaseMember(_ member: InputMember, in container: InputContainer) throws(ExportError) {
        if let path = member.path {
            try readDatabase(try HealthConnectDatabase(path: path, location: member.location, limits: member.limits))
            return
        }
        var journal: (kind: HealthConnectDatabase.Journal.Kind, stream: ByteStream, name: String)?
        for kind in HealthConnectDatabase.Journal.Kind.allCases where journal == nil {
            if let entry = container.members.first(where: { $0.name == member.name + kind.rawValue }) {
                journal = (kind, try entry.open(), entry.name)
            }
        }
        // SQLite needs a file: a private copy, removed as soon as SQLite holds it open (or, with
        // a journal to apply, when the read is done).
        try readDatabase(try HealthConnectDatabase(copying: try member.open(), prefix: [], journal: journal,
                                                   location: member.location, limits: member.limits, progress: nil))
    }

    /// Notes which of Takeout's copies of the steps are present (the streams' heads say which
    /// stream each holds), and which is read.
    private mutating func takeStock(of plan: TakeoutPlan, _ byName: [String: InputMember],
                                    folderName: String?) throws(ExportError) {
        var parts = ExportInventory.TakeoutParts()
        for name in plan.files + plan.ignored {
            switch TakeoutPlan.part(of: name, inFolderNamed: folderName) {
            case .dailySummary: parts.dailySummaries.append(name)
            case .perDayCSV: parts.perDayCSVs.append(name)
            case .stepStream:
                if let member = byName[name], try HealthConnectImport.holdsEstimatedSteps(member) {
                    parts.estimatedStepsStreams.append(name)
                } else {
                    parts.otherStreams.append(name)
                }
            case nil: break
            }
        }
        parts.read = plan.tier.part
        inventory?.takeout = parts
    }

    mutating func readTakeout(_ plan: TakeoutPlan, _ members: [InputMember], container: InputLocation,
                              folderName: String? = nil) throws(ExportError) {
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = plan.files.compactMap { byName[$0] }
        var otherStreams: [String] = []
        if inventory != nil {
            try takeStock(of: plan, byName, folderName: folderName)
        }
        if plan.tier == .rawStreams {
            // Only the estimated_steps stream matches Fit's totals; the file names do not say which is which.
            var estimated: [InputMember] = []
            for member in chosen {
                if try HealthConnectImport.holdsEstimatedSteps(member) {
                    estimated.append(member)
                } else {
                    otherStreams.append(member.name)
                }
            }
            guard !estimated.isEmpty else {
                throw ExportError.notAnExport(container, expected: .healthConnect,
                                              found: "its Google Fit step streams are all other than estimated_steps (\(otherStreams.joined(separator: ", ")))",
                                              remedy: .useEstimatedSteps)
            }
            chosen = estimated
        }
        plannedTotal = chosen.reduce(0) { $0 + $1.size }
        for member in chosen {
            try readText(try member.open(), format: member.name.lowercased().hasSuffix(".json") ? .json : .csv,
                         name: member.name)
        }
        summary.format = plan.tier.rawValue
        let ignored = plan.ignored + otherStreams
        if !ignored.isEmpty {
            summary.notes.append("Takeout: read the \(plan.tier.part); \(Plural.count(ignored.count, "other step file")) left out, as they hold the same steps again (never added together)")
        }
    }
}

extension HealthConnectImport {
    /// Whether a Takeout step stream holds `estimated_steps`, the one that matches Fit's totals:
    /// its `"Data Source"` says so in its first bytes.
    static func holdsEstimatedSteps(_ member: InputMember) throws(ExportError) -> Bool {
        let head = try member.head(headLength)
        return String(decoding: head, as: UTF8.self).contains(":estimated_steps\"")
    }
}

extension TakeoutPlan.Tier {
    /// The part read, in a few words: "daily summary", "per-day CSVs", "estimated_steps stream".
    var part: String {
        switch self {
        case .dailySummary: return "daily summary"
        case .perDayCSVs: return "per-day CSVs"
        case .rawStreams: return "estimated_steps stream"
        }
    }
}
