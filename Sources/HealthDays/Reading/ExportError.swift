import DisplayText

/// Names the place an input came from: a file, or an entry inside a zip (possibly nested).
public struct InputLocation: Equatable, Sendable, CustomStringConvertible {
    /// The path as the user gave it (`-` for standard input).
    public let path: String
    /// The zip entries leading to the data, outermost first; empty for a plain file.
    public let entries: [String]

    public init(path: String, entries: [String] = []) {
        self.path = path
        self.entries = entries
    }

    /// The same location, one zip entry deeper.
    public func entering(_ entry: String) -> InputLocation {
        InputLocation(path: path, entries: entries + [entry])
    }

    /// The path and the entries, with control characters escaped: a zip entry's name comes from
    /// the file, and a path may come from a manifest or a folder listing.
    public var description: String {
        let name = path == "-" ? "<stdin>" : path
        return ([name] + entries).joined(separator: ": ").escapingControlCharacters()
    }
}

/// The families of export stepimport reads, one command each, for messages that say which one
/// was expected. Which formats belong to a family, and which command reads it, is the table of
/// formats' (`ExportFormats` in ExportParsers).
public enum ExportFamily: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Apple Health's export.
    case appleHealth
    /// What an Android phone leaves: Health Connect, app dumps, Takeouts, a phone maker's own export.
    case android

    public var description: String {
        switch self {
        case .appleHealth: return "an Apple Health export"
        case .android: return "an Android health export"
        }
    }

    /// The plural, as in "holds 2 Apple Health exports".
    var plural: String {
        switch self {
        case .appleHealth: return "Apple Health exports"
        case .android: return "Android health exports"
        }
    }
}

/// What can go wrong while reading an export. Every case says where and what, in words a user can act on.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path does not exist.
    case notFound(path: String)
    /// The input exists but cannot be read (permissions, I/O error).
    case unreadable(InputLocation, reason: String)
    /// The input is readable but is not the kind of export this reader reads; `remedy` says what
    /// to do instead, where something can be said.
    case notAnExport(InputLocation, expected: ExportFamily, found: String, remedy: Remedy?)
    /// The input holds more than one export and it is not clear which one to read.
    case ambiguous(InputLocation, expected: ExportFamily, candidates: [String])
    /// A zip archive is damaged or truncated.
    case badArchive(InputLocation, reason: String)
    /// The data is not well-formed (bad XML, JSON or CSV, a truncated document, a corrupt
    /// database) at a known place (line 0 where the format has no lines).
    case malformed(InputLocation, at: SourcePosition, problem: String)
    /// A record is well-formed but its content cannot be used (skipping such records is the
    /// remedy); `record` says what it was: "step record", or with `--metric` "distance record",
    /// "workout" and so on.
    case invalidRecord(InputLocation, at: SourcePosition, problem: String, record: String = ParseFailure.stepRecord)
    /// A temporary copy of the input (`size` bytes: declared, or written when it was stopped)
    /// would pass `limit`; nothing of it is left behind.
    case copyRefused(InputLocation, size: Int64, limit: CopyLimit)
    /// `--rule hc-priority` found no priority list: none was given and the input holds none
    /// (`inputHasPlace`: a database without its ACTIVITY priority; else a dump, which never has one).
    case noPriorityList(inputHasPlace: Bool)
    /// `--rule hc-priority` would have had to hold more records overlapping one another than `limit`.
    case priorityRecordsBeyondLimit(limit: Int)

    /// What the user can do about it, where something can be said; the executable words it.
    public var remedy: Remedy? {
        switch self {
        case .notAnExport(_, _, _, let remedy): return remedy
        case .invalidRecord: return .skipInvalid
        case .copyRefused(_, _, .room): return .useRoomierTemporaryFolder
        case .copyRefused: return .unpackYourself
        case .noPriorityList: return .givePriorityList
        default: return nil
        }
    }

    /// What went wrong and where, without the remedy. Every part that came from the input (a
    /// value quoted in a problem, a zip entry, libxml2's or SQLite's words) has its control
    /// characters escaped; the list of an `ambiguous` error keeps its own line breaks.
    public var description: String {
        switch self {
        case .ambiguous:
            return unescapedDescription
        case .notAnExport:
            // A reader may lay out what it found on lines of their own: each line is escaped.
            return unescapedDescription.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0).escapingControlCharacters() }.joined(separator: "\n")
        default:
            return unescapedDescription.escapingControlCharacters()
        }
    }

    /// The message as worded, before escaping; only `ambiguous` escapes its parts itself.
    private var unescapedDescription: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file or directory"
        case .unreadable(let location, let reason):
            return "\(location): cannot read: \(reason)"
        case .notAnExport(let location, let expected, let found, _):
            return "\(location): not \(expected): \(found)"
        case .ambiguous(let location, let expected, let candidates):
            return "\(location): holds \(candidates.count) \(expected.plural), read one at a time:\n"
                + candidates.map { "  \($0.escapingControlCharacters())" }.joined(separator: "\n")
        case .badArchive(let location, let reason):
            return "\(location): damaged zip archive: \(reason)"
        case .malformed(let location, let position, let problem):
            return "\(location)\(ExportError.lineAndColumn(position)): \(problem)"
        case .invalidRecord(let location, let position, let problem, let record):
            return "\(location)\(ExportError.lineAndColumn(position)): invalid \(record): \(problem)"
        case .noPriorityList(let inputHasPlace):
            return inputHasPlace
                ? "the database holds no priority list for steps (health_data_category_priority_table has no ACTIVITY row), so Health Connect's total cannot be worked out"
                : "this input carries no Health Connect priority list (only the export database does), so Health Connect's total cannot be worked out"
        case .priorityRecordsBeyondLimit(let limit):
            return "more than \(limit) records overlap one another, more than Health Connect's total can hold at once; the highest-source rule (the default) reads any size"
        case .copyRefused(let location, let size, let limit):
            let bytes = ByteCount.format
            switch limit {
            case .declaredSize(let declared):
                return "\(location): refused to copy it to a temporary file: it inflates to more than the \(bytes(declared)) its zip declares (a damaged or hostile zip)"
            case .compressionRatio(let compressed, let ratio, let floor):
                return "\(location): refused to copy it to a temporary file: \(bytes(size)) inflated from \(bytes(compressed)) "
                    + "is more than \(ratio) times its compressed size (a zip bomb?); the cap is \(ratio) times, or \(bytes(floor)) for any entry"
            case .room(let folder, let available, let reserve):
                return "\(location): no room for a temporary copy of \(bytes(size)) in \(folder): "
                    + "\(bytes(available)) free, of which \(bytes(reserve)) is kept free"
            }
        }
    }
}

extension ExportError {
    /// `:line:column`, or nothing where the format has no lines (a database). The byte offset is
    /// not written: messages keep the editor's `file:line:column` form, and the offset stays in
    /// `position` for callers that seek.
    static func lineAndColumn(_ position: SourcePosition) -> String {
        guard position.line > 0 else { return "" }
        return position.column > 0 ? ":\(position.line):\(position.column)" : ":\(position.line)"
    }

    /// Where a parse failure was found: its line, column and byte offset; nil for the errors that
    /// are not about a place in the data.
    public var position: SourcePosition? {
        switch self {
        case .malformed(_, let position, _), .invalidRecord(_, let position, _, _): return position
        default: return nil
        }
    }

    /// A parser's failure, placed in the file (and zip entry) it came from; `grammar` names
    /// the syntax that was broken ("XML", "JSON", "CSV").
    public init(_ failure: ParseFailure, at location: InputLocation, expected: ExportFamily, grammar: String) {
        switch failure.kind {
        case .malformed:
            self = .malformed(location, at: failure.position, problem: "malformed \(grammar): \(failure.message)")
        case .invalidRecord:
            self = .invalidRecord(location, at: failure.position, problem: failure.message, record: failure.record)
        case .wrongKind:
            self = .notAnExport(location, expected: expected, found: failure.message, remedy: nil)
        }
    }
}
