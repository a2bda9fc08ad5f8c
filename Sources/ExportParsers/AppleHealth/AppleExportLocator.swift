import Foundation

import Glibc
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
    private static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    private static let maxNesting = 3

    /// Opens the export's main XML for reading.
    public static func open(path: String) throws(ExportError) -> ByteStream {
        if path == "-" {
            return try openStream(FileStream(descriptor: 0, location: InputLocation(path: "-"), prefix: []),
                                  seekablePath: nil)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FileStream.openError(path: path, errno: errno)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return try openDirectory(path)
        }
        // Pipes and process substitutions (`<(unzip -p ...)`) can be read only once, like stdin.
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        return try openStream(try FileStream(path: path), seekablePath: isRegular ? path : nil)
    }

    // MARK: - Shapes

    /// Decides from the first bytes whether `file` is a zip or XML, reading it only once.
    ///
    /// A zip's directory is at its end: a regular file is opened by libzip itself, anything
    /// else (standard input, a pipe) is first copied to a private temporary file.
    private static func openStream(_ file: FileStream, seekablePath: String?) throws(ExportError) -> ByteStream {
        let location = file.location
        let head = try readHead(file)
        if head.starts(with: zipMagic) {
            if let seekablePath {
                return try openZip(try ZipArchive(path: seekablePath, location: location), depth: 0)
            }
            let descriptor = try TemporarySpool.spool(file, prefix: head)
            return try openZip(try ZipArchive(descriptor: descriptor, location: location), depth: 0)
        }
        // XML that is not Apple's gets its verdict (with the root element's name) from the parser.
        guard looksLikeXML(head) else {
            throw ExportError.notAnExport(location, expected: .appleHealth, found: describe(head), hint: hint(forHead: head))
        }
        file.putBack(head)
        return file
    }

    private static func openDirectory(_ path: String) throws(ExportError) -> ByteStream {
        // Resolve a link first: the enumerator does not descend into a starting folder that is one.
        let root = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw ExportError.unreadable(InputLocation(path: path), reason: "cannot list the folder")
        }
        var found: [String] = []
        for case let url as URL in walker {
            if walker.level > 3 { walker.skipDescendants(); continue }
            let relative = String(url.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  !isDecoy(relative), relative.lowercased().hasSuffix(".xml"),
                  let file = try? FileStream(path: url.path), let head = try? readHead(file),
                  looksLikeHealthXML(head)
            else { continue }
            found.append(relative)
        }
        found.sort()
        guard let only = found.first else {
            throw ExportError.notAnExport(InputLocation(path: path), expected: .appleHealth, found: "the folder holds no Apple Health export XML",
                                          hint: "point at export.zip, export.xml or the unpacked apple_health_export folder")
        }
        guard found.count == 1 else {
            throw ExportError.ambiguous(InputLocation(path: path), expected: .appleHealth, candidates: found)
        }
        // Name the file as the user would: their folder path, then the part found inside it.
        let shown = path.hasSuffix("/") ? path + only : path + "/" + only
        return try FileStream(path: root.appendingPathComponent(only).path, shownAs: shown)
    }

    /// Picks the export XML inside a zip: XML entries recognised by content first, then zips inside the zip.
    private static func openZip(_ archive: ZipArchive, depth: Int) throws(ExportError) -> ByteStream {
        var matches: [ZipArchive.Entry] = []
        var nested: [ZipArchive.Entry] = []
        var sawHealthConnect = false
        var sawTakeout = false
        for entry in archive.entries where !entry.isDirectory && !isDecoy(entry.name) {
            let lower = entry.name.lowercased()
            if lower.hasSuffix("health_connect_export.db") { sawHealthConnect = true }
            if lower.contains("takeout/fit/") || lower.hasPrefix("fit/") { sawTakeout = true }
            guard entry.size > 0 else { continue }
            let head = try readHead(try archive.open(entry))
            if head.starts(with: zipMagic) {
                nested.append(entry)
            } else if looksLikeHealthXML(head) {
                matches.append(entry)
            }
        }
        if matches.count == 1 {
            return try archive.open(matches[0])
        }
        if matches.count > 1 {
            throw ExportError.ambiguous(archive.location, expected: .appleHealth, candidates: matches.map(\.name))
        }
        if depth < maxNesting {
            var found: [ByteStream] = []
            for entry in nested {
                let inner = try archive.open(entry)
                let descriptor = try TemporarySpool.spool(inner)
                let innerArchive = try ZipArchive(descriptor: descriptor, location: inner.location)
                do {
                    found.append(try openZip(innerArchive, depth: depth + 1))
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
        let hint: String?
        if sawHealthConnect {
            hint = "this is a Health Connect export: use `stepimport hc`"
        } else if sawTakeout {
            hint = "this is a Google Takeout archive: use `stepimport hc`"
        } else {
            hint = nil
        }
        let shown = archive.entries.prefix(8).map(\.name).joined(separator: ", ")
        let more = archive.entries.count > 8 ? ", ..." : ""
        throw ExportError.notAnExport(archive.location, expected: .appleHealth,
                                      found: "the zip holds no Apple Health export XML (entries: \(shown)\(more))", hint: hint)
    }

    // MARK: - Recognising content

    /// `__MACOSX/` resource forks, `._*` AppleDouble files and the clinical document `export_cda.xml`.
    static func isDecoy(_ name: String) -> Bool {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        return name.hasPrefix("__MACOSX/") || name.contains("/__MACOSX/") || base.hasPrefix("._")
            || base.lowercased().contains("cda") || base == ".DS_Store"
    }

    private static func readHead(_ stream: ByteStream) throws(ExportError) -> [UInt8] {
        try stream.readHead(headLength)
    }

    static func looksLikeHealthXML(_ head: [UInt8]) -> Bool {
        contains(head, "<!DOCTYPE HealthData") || contains(head, "<HealthData")
    }

    /// The first byte after a byte-order mark and white space is `<`.
    static func looksLikeXML(_ head: [UInt8]) -> Bool {
        afterBOMAndSpace(head).first == UInt8(ascii: "<")
    }

    private static func afterBOMAndSpace(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        return text.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
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
        let text = afterBOMAndSpace(head)
        if let first = text.first {
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return "found JSON" }
            if first == UInt8(ascii: "<") { return "found XML without a <HealthData> element in its first \(headLength) bytes" }
        }
        return "found neither a zip nor XML (the file starts with \"\(String(decoding: head.prefix(16), as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n"))\")"
    }

    static func hint(forHead head: [UInt8]) -> String? {
        if head.starts(with: Array("SQLite format 3".utf8)) {
            return "a Health Connect database is read by `stepimport hc`"
        }
        let text = afterBOMAndSpace(head)
        if let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return "Health Connect and Google Fit JSON dumps are read by `stepimport hc`"
        }
        if let first = text.first, first != UInt8(ascii: "<") {
            return "CSV step exports are read by `stepimport hc`"
        }
        return nil
    }
}
