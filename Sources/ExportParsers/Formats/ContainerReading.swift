import Foundation
import ExportInput
import HealthDays

/// Reads an opened input of the Android family through the table of formats: a plain file by the
/// reader that recognises its first bytes, a zip or folder by what its members are.
enum AndroidImport {
    /// Reads `input` into `session`.
    static func read(_ input: OpenedInput, in session: inout ReadSession) throws(ExportError) {
        switch input {
        case .stream(let file, let head, let seekablePath):
            let path = file.location.path
            let name = path == "-" ? nil : (path as NSString).lastPathComponent
            guard let reader = session.reader(for: head, name: name, among: ExportFormats.readers(of: .android)) else {
                throw session.notRecognised(head, at: file.location)
            }
            session.read(by: reader.format)
            try reader.read(PlainInput(stream: file, head: head, name: name, seekablePath: seekablePath), in: &session)
        case .container(let container):
            try readMembers(container, depth: 0, in: &session)
        }
    }

    /// Picks what to read among the members of a zip or folder, and reads it: the files the
    /// readers find by name (all of them); else the one file read alone (a database); else every
    /// recognised file, in order; else the zips inside, the first that holds something.
    static func readMembers(_ container: InputContainer, depth: Int, in session: inout ReadSession) throws(ExportError) {
        let readers = ExportFormats.readers(of: .android)
        // A folder given itself (`Takeout/Fit/All Data/`) names the folder its files are in.
        let folderName = container.isZip ? nil : URL(fileURLWithPath: container.location.path).lastPathComponent
        var readByName: [ExportFormat] = []
        // Claims are names inside this container (a zip inside it has its own).
        session.claimedMembers = []
        for reader in readers where try reader.readByNames(container, folderName: folderName, in: &session) {
            readByName.append(reader.format)
            session.read(by: reader.format)
        }
        if !readByName.isEmpty {
            if readByName.count > 1 {
                let services = readByName.map { $0.service ?? $0.name }
                let named = readByName.count == 2 ? "both \(services[0]) and \(services[1])"
                    : services.dropLast().joined(separator: ", ") + " and " + services[services.count - 1]
                session.summary.notes.append(.fact("\(container.isZip ? "the zip" : "the folder") holds steps from \(named): "
                    + "read as \(readByName.count == 2 ? "two" : String(readByName.count)) sources; "
                    + "each day takes the \(readByName.count == 2 ? "higher" : "highest") one, never their sum"))
            }
            return
        }
        var alone: [(any ExportReader.Type, InputMember, [UInt8])] = []
        var together: [(any ExportReader.Type, InputMember, [UInt8])] = []
        var zips: [InputMember] = []
        var otherFamily: ExportFormat?
        for member in container.members {
            let head = try member.head(ReadSession.headLength)
            if InputOpener.isZip(head) {
                zips.append(member)
            } else if let reader = readers.first(where: { $0.recognises(head: head, name: member.name) }) {
                if reader.readAlone {
                    alone.append((reader, member, head))
                } else {
                    together.append((reader, member, head))
                }
            } else if otherFamily == nil {
                otherFamily = ExportFormats.readers.first {
                    $0.format.family != .android && $0.recognises(head: head, name: member.name)
                }?.format
            }
        }
        if alone.count > 1 {
            throw ExportError.ambiguous(container.location, expected: .android, candidates: alone.map(\.1.name))
        }
        if let (reader, member, head) = alone.first {
            session.read(by: reader.format)
            try reader.read(member: member, head: head, in: container, session: &session)
            return
        }
        if !together.isEmpty {
            session.plannedTotal = together.reduce(0) { $0 + $1.1.size }
            for (recognised, member, head) in together {
                let reader = session.forced == nil ? recognised
                    : session.reader(for: head, name: member.name, among: readers) ?? recognised
                session.read(by: reader.format)
                try reader.read(member: member, head: head, in: container, session: &session)
            }
            if together.count > 1 {
                let names = together.prefix(5).map(\.1.name).joined(separator: ", ")
                session.summary.notes.append("read \(together.count) files: \(names)\(together.count > 5 ? ", ..." : "")")
            }
            return
        }
        if depth < InputOpener.maxNesting {
            for member in zips {
                let before = session.summary.locations.count
                do {
                    try readMembers(try member.openZip(), depth: depth + 1, in: &session)
                } catch {
                    // A zip inside that holds nothing of ours is passed over; anything else is an error.
                    guard case .notAnExport = error else { throw error }
                }
                if session.summary.locations.count > before { return }
            }
        }
        if let otherFamily {
            throw ExportError.notAnExport(container.location, expected: .android, found: "found \(otherFamily.family)",
                                          remedy: .useReader(for: otherFamily.id, inArchive: false))
        }
        let all = container.allNames.filter { !$0.hasSuffix("/") }
        let names = all.prefix(8).joined(separator: ", ") + (all.count > 8 ? ", ..." : "")
        throw ExportError.notAnExport(container.location, expected: .android,
                                      found: "nothing in it is step data (\(names.isEmpty ? "it is empty" : names))",
                                      remedy: .useAcceptedFormat)
    }
}
