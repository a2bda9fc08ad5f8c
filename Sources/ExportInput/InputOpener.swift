import Foundation
import HealthDays
import Platform

/// What a path turned out to be, once opened: one stream of bytes, or a container of files.
public enum OpenedInput {
    /// A plain file, a pipe or standard input. Its first bytes (`head`) were read to recognise it
    /// and are put back, so `stream` reads from the start; `seekablePath` is the file's own path
    /// when it can be opened again (a regular file), nil for a pipe or standard input.
    case stream(FileStream, head: [UInt8], seekablePath: String?)
    /// A zip (also one that arrived on standard input) or a folder.
    case container(InputContainer)
}

/// The one way into an input, for every format and for batch: a path, `-`, a folder, a zip,
/// or a zip inside a zip becomes either one stream or a container of recognisable members.
///
/// The opener never decides which format a file holds; the readers do, from the members' names
/// and first bytes. It does decide what is never an export: folders, empty files, and the
/// macOS and Apple decoys (`__MACOSX/`, `._*`, `.DS_Store`, `export_cda.xml`).
public enum InputOpener {
    /// The first four bytes of every zip.
    public static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    /// How deep a folder is searched for members.
    public static let folderDepth = 6
    /// How many zips inside zips are opened, at most.
    public static let maxNesting = 3

    /// Opens `path` (`-` for standard input), reading `headLength` bytes of a plain file to tell a
    /// zip; temporary copies (a zip on standard input, zips inside) keep to `limits`.
    public static func open(path: String, headLength: Int,
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) -> OpenedInput {
        if path == "-" {
            return try open(FileStream(descriptor: 0, location: InputLocation(path: "-"), prefix: []),
                            seekablePath: nil, headLength: headLength, limits: limits)
        }
        let status: FileStatus
        do {
            status = try FileStatus.of(path: path)
        } catch {
            throw FileStream.openError(path: path, error)
        }
        if status.kind == .directory {
            return .container(try InputContainer(folder: path, limits: limits))
        }
        // Pipes and process substitutions (`<(unzip -p ...)`) can be read only once, like stdin.
        return try open(try FileStream(path: path), seekablePath: status.kind == .regular ? path : nil, headLength: headLength,
                        limits: limits)
    }

    /// A zip's directory is at its end: a regular file is opened by libzip itself, anything else
    /// (standard input, a pipe) is first copied to a private temporary file.
    private static func open(_ file: FileStream, seekablePath: String?, headLength: Int,
                             limits: TemporaryCopyLimits) throws(ExportError) -> OpenedInput {
        let head = try file.readHead(headLength)
        guard isZip(head) else {
            file.putBack(head)
            return .stream(file, head: head, seekablePath: seekablePath)
        }
        if let seekablePath {
            return .container(InputContainer(zip: try ZipArchive(path: seekablePath, location: file.location), limits: limits))
        }
        let spooled = try TemporarySpool.spool(file, prefix: head, limits: limits)
        return .container(InputContainer(zip: try ZipArchive(file: spooled, location: file.location), limits: limits))
    }

    /// Whether these first bytes are a zip's.
    public static func isZip(_ head: [UInt8]) -> Bool {
        head.starts(with: zipMagic)
    }

    /// `__MACOSX/` resource forks, `._*` AppleDouble files, `.DS_Store` and the clinical document
    /// `export_cda.xml`: files that look like exports by name or content and never are.
    public static func isDecoy(_ name: String) -> Bool {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        return name.hasPrefix("__MACOSX/") || name.contains("/__MACOSX/") || base.hasPrefix("._")
            || base.lowercased().contains("cda") || base == ".DS_Store"
    }
}

/// A zip or a folder: its files, each openable as a stream, and nested zips as containers.
public struct InputContainer {
    /// The zip or folder, as the user named it (a nested zip: the outer zip and the entry).
    public let location: InputLocation
    /// The files worth looking at, in name order for a folder and archive order for a zip:
    /// no folders, no decoys, no empty files.
    public let members: [InputMember]
    /// Every name the container lists (folders and decoys included), for messages that show what is in it.
    public let allNames: [String]
    /// Whether this is a zip (a folder otherwise).
    public let isZip: Bool
    /// The caps on temporary copies of its members.
    public let limits: TemporaryCopyLimits

    init(zip archive: ZipArchive, limits: TemporaryCopyLimits) {
        location = archive.location
        isZip = true
        self.limits = limits
        allNames = archive.entries.map(\.name)
        members = archive.entries.filter { !$0.isDirectory && !InputOpener.isDecoy($0.name) && $0.size > 0 }.map { entry in
            InputMember(name: entry.name, size: entry.size, location: archive.location.entering(entry.name), path: nil,
                        limits: limits, openStream: { () throws(ExportError) -> ByteStream in try archive.open(entry) })
        }
    }

    init(folder path: String, limits: TemporaryCopyLimits) throws(ExportError) {
        self.limits = limits
        // Resolve a link first: the enumerator does not descend into a starting folder that is one.
        let root = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey], options: [.skipsHiddenFiles])
        else {
            throw ExportError.unreadable(InputLocation(path: path), reason: "cannot list the folder")
        }
        var found: [InputMember] = []
        for case let url as URL in walker {
            if walker.level > InputOpener.folderDepth { walker.skipDescendants(); continue }
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                  values.isRegularFile == true
            else { continue }
            let relative = String(url.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            // Name the file as the user would: their folder path, then the part found inside it.
            let shown = path.hasSuffix("/") ? path + relative : path + "/" + relative
            let filePath = url.path
            found.append(InputMember(name: relative, size: Int64(values.fileSize ?? 0), location: InputLocation(path: shown),
                                     path: filePath, limits: limits,
                                     openStream: { () throws(ExportError) -> ByteStream in try FileStream(path: filePath, shownAs: shown) }))
        }
        found.sort { $0.name < $1.name }
        location = InputLocation(path: path)
        isZip = false
        allNames = found.map(\.name)
        members = found.filter { !InputOpener.isDecoy($0.name) && $0.size > 0 }
    }
}

/// One file inside a container: a zip entry or a file in a folder.
public struct InputMember {
    /// The name inside the container (the entry name, or the path below the folder).
    public let name: String
    /// The uncompressed size.
    public let size: Int64
    /// Where it is, for messages.
    public let location: InputLocation
    /// The file's own path when it can be opened directly (in a folder), nil in a zip.
    public let path: String?
    /// The caps on temporary copies of it.
    public let limits: TemporaryCopyLimits
    let openStream: () throws(ExportError) -> ByteStream

    /// Opens the member for reading from its start.
    public func open() throws(ExportError) -> ByteStream {
        try openStream()
    }

    /// The member's first `length` bytes, for recognising it.
    public func head(_ length: Int) throws(ExportError) -> [UInt8] {
        try open().readHead(length)
    }

    /// Opens the member as a zip inside the container: it is copied to a private temporary
    /// file (a zip is read from its end), which is unlinked at once.
    public func openZip() throws(ExportError) -> InputContainer {
        let inner = try open()
        let spooled = try TemporarySpool.spool(inner, limits: limits)
        return InputContainer(zip: try ZipArchive(file: spooled, location: inner.location), limits: limits)
    }
}
