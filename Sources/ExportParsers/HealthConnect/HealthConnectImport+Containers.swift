import Glibc
import Foundation
import HealthDays
import ExportInput

extension HealthConnectImport.Reader {
    /// A file inside a container: a zip entry or a file in a folder.
    struct Member {
        let name: String
        let size: Int64
        let location: InputLocation
        /// The file's own path when it can be opened directly (in a folder), nil in a zip.
        let path: String?
        let open: () throws(ExportError) -> ByteStream
    }

    mutating func readZip(_ archive: ZipArchive, depth: Int) throws(ExportError) {
        let members = archive.entries.filter { !$0.isDirectory }.map { entry in
            Member(name: entry.name, size: entry.size, location: archive.location.entering(entry.name), path: nil,
                   open: { () throws(ExportError) -> ByteStream in try archive.open(entry) })
        }
        try readMembers(members, container: archive.location, depth: depth)
    }

    mutating func readFolder(_ path: String) throws(ExportError) {
        let root = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey], options: [.skipsHiddenFiles])
        else {
            throw ExportError.unreadable(InputLocation(path: path), reason: "cannot list the folder")
        }
        var members: [Member] = []
        for case let url as URL in walker {
            if walker.level > 6 { walker.skipDescendants(); continue }
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                  values.isRegularFile == true
            else { continue }
            let relative = String(url.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let shown = path.hasSuffix("/") ? path + relative : path + "/" + relative
            let filePath = url.path
            members.append(Member(name: relative, size: Int64(values.fileSize ?? 0), location: InputLocation(path: shown),
                                  path: filePath,
                                  open: { () throws(ExportError) -> ByteStream in try FileStream(path: filePath, shownAs: shown) }))
        }
        members.sort { $0.name < $1.name }
        try readMembers(members, container: InputLocation(path: path), depth: 0)
    }

    /// Picks what to read among the members of a zip or folder, and reads it.
    mutating func readMembers(_ all: [Member], container: InputLocation, depth: Int) throws(ExportError) {
        let members = all.filter { !AppleExportLocator.isDecoy($0.name) && $0.size > 0 }
        if let plan = TakeoutPlan.choose(members.map(\.name)) {
            try readTakeout(plan, members, container: container)
            return
        }
        var databases: [Member] = []
        var texts: [(Member, HealthConnectInputFormat)] = []
        var zips: [Member] = []
        var sawApple = false
        for member in members {
            let head = try readHead(try member.open())
            switch HealthConnectImport.sniff(head) {
            case .sqlite: databases.append(member)
            case .json: texts.append((member, .json))
            case .csv: texts.append((member, .csv))
            case .zip: zips.append(member)
            case .appleXML: sawApple = true
            default: break
            }
        }
        if databases.count > 1 {
            throw ExportError.ambiguous(container, expected: .healthConnect, candidates: databases.map(\.name))
        }
        if let database = databases.first {
            try readDatabaseMember(database)
            return
        }
        if !texts.isEmpty {
            plannedTotal = texts.reduce(0) { $0 + $1.0.size }
            for (member, format) in texts {
                try readText(try member.open(), format: forced ?? format, name: member.name)
            }
            if texts.count > 1 {
                summary.notes.append("read \(texts.count) files: \(texts.prefix(5).map(\.0.name).joined(separator: ", "))\(texts.count > 5 ? ", ..." : "")")
            }
            return
        }
        if depth < 3 {
            for member in zips {
                let inner = try member.open()
                let descriptor = try TemporarySpool.spool(inner)
                let before = summary.locations.count
                do {
                    try readZip(try ZipArchive(descriptor: descriptor, location: member.location), depth: depth + 1)
                } catch {
                    // A zip inside that holds nothing of ours is passed over; anything else is an error.
                    guard case .notAnExport = error else { throw error }
                }
                if summary.locations.count > before { return }
            }
        }
        let names = all.prefix(8).map(\.name).joined(separator: ", ") + (all.count > 8 ? ", ..." : "")
        if sawApple {
            throw ExportError.notAnExport(container, expected: .healthConnect, found: "found an Apple Health export",
                                          hint: "Apple Health exports are read by `stepimport apple`")
        }
        throw ExportError.notAnExport(container, expected: .healthConnect,
                                      found: "nothing in it is step data (\(names.isEmpty ? "it is empty" : names))",
                                      hint: "accepted: \(HealthConnectImport.acceptedFormats)")
    }

    mutating func readDatabaseMember(_ member: Member) throws(ExportError) {
        if let path = member.path {
            try readDatabase(try HealthConnectDatabase(path: path, location: member.location))
        } else {
            // SQLite needs a file: a private copy, removed as soon as SQLite holds it open.
            try readDatabase(try HealthConnectDatabase(copying: try member.open(), location: member.location))
        }
    }

    mutating func readTakeout(_ plan: TakeoutPlan, _ members: [Member], container: InputLocation) throws(ExportError) {
        let byName = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = plan.files.compactMap { byName[$0] }
        var otherStreams: [String] = []
        if plan.tier == .rawStreams {
            // Only the estimated_steps stream matches Fit's totals; the file names do not say which is which.
            var estimated: [Member] = []
            for member in chosen {
                let head = try readHead(try member.open())
                if String(decoding: head, as: UTF8.self).contains(":estimated_steps\"") {
                    estimated.append(member)
                } else {
                    otherStreams.append(member.name)
                }
            }
            guard !estimated.isEmpty else {
                throw ExportError.notAnExport(container, expected: .healthConnect,
                                              found: "its Google Fit step streams are all other than estimated_steps (\(otherStreams.joined(separator: ", ")))",
                                              hint: "only the estimated_steps stream (or the daily summary CSV) matches Fit's totals")
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
            summary.notes.append("Takeout: read the \(plan.tier == .dailySummary ? "daily summary" : plan.tier == .perDayCSVs ? "per-day CSVs" : "estimated_steps stream"); \(Plural.count(ignored.count, "other step file")) left out, as they hold the same steps again (never added together)")
        }
    }
}
