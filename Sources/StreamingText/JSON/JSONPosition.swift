import HealthDays
/// A place in a JSON text: 1-based line and column, and the byte offset from the start.
///
/// The column counts characters (Unicode scalars) from the start of the line, not bytes,
/// so it matches what an editor shows for a line with accented letters or emoji in strings.
/// The offset counts bytes from the start of the input, byte-order mark included.
public struct JSONPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// 0-based byte offset in the input.
    public var offset: Int64

    public init(line: Int, column: Int, offset: Int64) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column)" }

    /// The same place as the core names it.
    public var sourcePosition: SourcePosition {
        SourcePosition(line: line, column: column, byteOffset: offset)
    }
}
