import Foundation

import HealthDays
import ExportInput

/// Finds the main XML of an Apple Health export, whatever shape it arrived in, and opens it as a stream.
///
/// Accepts an `export.zip` (also a zip inside a zip), a bare `export.xml`, the unpacked
/// `apple_health_export/` folder, or `-` for standard input (zip or XML). The XML is found by
/// content, not by name: Apple localizes the name (`экспорт.xml`, `Export.xml`, ...), and
/// macOS adds `__MACOSX/._export.xml` decoys that end in `.xml` too.
public enum AppleExportLocator {
    /// How many bytes of a candidate are read to recognise it.
    static let headLength = 1024

    /// Opens the export's main XML for reading; temporary copies (zips inside) keep to `limits`.
    public static func open(path: String, limits: TemporaryCopyLimits = .standard) throws(ExportError) -> ByteStream {
        try open(InputOpener.open(path: path, headLength: headLength, limits: limits))
    }

    /// Finds the export's main XML in an opened input.
    public static func open(_ input: OpenedInput) throws(ExportError) -> ByteStream {
        switch input {
        case .stream(let file, let head, _):
            // XML that is not Apple's gets its verdict (with the root element's name) from the parser.
            guard looksLikeXML(head) else {
                throw ExportError.notAnExport(file.location, expected: .appleHealth, found: describe(head),
                                              remedy: remedy(forHead: head))
            }
            return file
        case .container(let container) where container.isZip:
            return try openZip(container, depth: 0)
        case .container(let folder):
            return try openFolder(folder)
        }
    }

    // MARK: - Shapes

    private static func openFolder(_ folder: InputContainer) throws(ExportError) -> ByteStream {
        var found: [InputMember] = []
        for member in folder.members where member.name.lowercased().hasSuffix(".xml") {
            guard let head = try? member.head(headLength), looksLikeHealthXML(head) else { continue }
            found.append(member)
        }
        guard let only = found.first else {
            throw ExportError.notAnExport(folder.location, expected: .appleHealth, found: "the folder holds no Apple Health export XML",
                                          remedy: .pointAtAppleExport)
        }
        guard found.count == 1 else {
            throw ExportError.ambiguous(folder.location, expected: .appleHealth, candidates: found.map(\.name))
        }
        return try only.open()
    }

    /// Picks the export XML inside a zip: XML entries recognised by content first, then zips inside the zip.
    private static func openZip(_ archive: InputContainer, depth: Int) throws(ExportError) -> ByteStream {
        var matches: [InputMember] = []
        var nested: [InputMember] = []
        var sawHealthConnect = false
        var sawTakeout = false
        for entry in archive.members {
            let lower = entry.name.lowercased()
            if lower.hasSuffix("health_connect_export.db") { sawHealthConnect = true }
            if lower.contains("takeout/fit/") || lower.hasPrefix("fit/") { sawTakeout = true }
            let head = try entry.head(headLength)
            if InputOpener.isZip(head) {
                nested.append(entry)
            } else if looksLikeHealthXML(head) {
                matches.append(entry)
            }
        }
        if matches.count == 1 {
            return try matches[0].open()
        }
        if matches.count > 1 {
            throw ExportError.ambiguous(archive.location, expected: .appleHealth, candidates: matches.map(\.name))
        }
        if depth < InputOpener.maxNesting {
            var found: [ByteStream] = []
            for entry in nested {
                do {
                    found.append(try openZip(try entry.openZip(), depth: depth + 1))
                } catch {
                    // A zip inside that simply holds no export is not an error; anything else
                    // (two exports, damage) is, and must not be hidden.
                    guard case .notAnExport = error else { throw error }
                }
            }
            if found.count == 1 { return found[0] }
            if found.count > 1 {
                throw ExportError.ambiguous(archive.location, expected: .appleHealth, candidates: found.map { $0.location.description })
            }
        }
        let remedy: Remedy?
        if sawHealthConnect {
            remedy = .useReader(for: .healthConnectDatabase, inArchive: true)
        } else if sawTakeout {
            remedy = .useReader(for: .googleFitTakeout, inArchive: true)
        } else {
            remedy = nil
        }
        let shown = archive.allNames.prefix(8).joined(separator: ", ")
        let more = archive.allNames.count > 8 ? ", ..." : ""
        throw ExportError.notAnExport(archive.location, expected: .appleHealth,
                                      found: "the zip holds no Apple Health export XML (entries: \(shown)\(more))", remedy: remedy)
    }

    // MARK: - Recognising content

    static func looksLikeHealthXML(_ head: [UInt8]) -> Bool {
        contains(head, "<!DOCTYPE HealthData") || contains(head, "<HealthData")
    }

    /// The first byte after a byte-order mark and white space is `<`.
    static func looksLikeXML(_ head: [UInt8]) -> Bool {
        ContentHead.afterBOMAndSpace(head).first == UInt8(ascii: "<")
    }

    private static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// A few words on what the first bytes look like, for an error message.
    static func describe(_ head: [UInt8]) -> String {
        if head.isEmpty { return "the input is empty" }
        if head.starts(with: Array("SQLite format 3".utf8)) { return "found an SQLite database" }
        let text = ContentHead.afterBOMAndSpace(head)
        if let first = text.first {
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return "found JSON" }
            if first == UInt8(ascii: "<") { return "found XML without a <HealthData> element in its first \(headLength) bytes" }
        }
        return "found neither a zip nor XML (the file starts with \"\(ContentHead.start(head))\")"
    }

    static func remedy(forHead head: [UInt8]) -> Remedy? {
        if head.starts(with: Array("SQLite format 3".utf8)) {
            return .useReader(for: .healthConnectDatabase, inArchive: false)
        }
        let text = ContentHead.afterBOMAndSpace(head)
        if let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return .useReader(for: .appDumpJSON, inArchive: false)
        }
        if let first = text.first, first != UInt8(ascii: "<") {
            return .useReader(for: .recordCSV, inArchive: false)
        }
        return nil
    }
}
