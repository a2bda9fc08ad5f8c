/// An error from a format parser, with the position it was found at.
///
/// Parsers know nothing of files or zip entries; the import that drives them adds the
/// location when it turns this into an `ExportError`.
public struct ParseFailure: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The bytes break the format's grammar (bad XML, JSON, CSV, a truncated document).
        case malformed
        /// A record is well-formed but unusable (bad date, value, unit, missing field).
        case invalidRecord
        /// The input is well-formed but another kind of file (another root element, JSON of another shape).
        case wrongKind
    }
    public let kind: Kind
    /// Line, column and byte offset of the place.
    public var position: SourcePosition
    public let message: String
    /// For `invalidRecord`, what the record was, for the message: "step record" (every reader's
    /// records but the Apple reader's `--metric` ones), "distance record", "workout".
    public var record = ParseFailure.stepRecord

    public static let stepRecord = "step record"

    public init(kind: Kind, at position: SourcePosition, message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }

    public init(kind: Kind, line: Int, column: Int, byteOffset: Int64? = nil, message: String) {
        self.init(kind: kind, at: SourcePosition(line: line, column: column, byteOffset: byteOffset), message: message)
    }

    /// 1-based line, or 0 where the format has no lines (a database).
    public var line: Int { position.line }
    /// 1-based column (or field number in CSV), 0 when unknown.
    public var column: Int { position.column }
}
