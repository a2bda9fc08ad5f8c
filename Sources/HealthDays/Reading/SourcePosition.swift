/// Where in an input a parse failure was found: the line and column a user reads in an editor,
/// and the byte offset a tool can seek to (`tail -c +N`, `dd skip=N`) in a file of gigabytes.
///
/// Offsets count bytes from the start of the input as it was read (the file, or the member of a
/// zip once inflated), byte-order mark included. A format without lines (a database) has line 0;
/// an offset is nil where the reader cannot know it (a database row, a failure with no place).
public struct SourcePosition: Equatable, Hashable, Sendable {
    /// 1-based line, or 0 where the format has no lines.
    public var line: Int
    /// 1-based column (characters, or the field number in CSV), 0 when unknown.
    public var column: Int
    /// 0-based byte offset of the place in the input, nil when unknown.
    public var byteOffset: Int64?

    public init(line: Int, column: Int, byteOffset: Int64? = nil) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// No place at all (a database, whose rows have no lines).
    public static let none = SourcePosition(line: 0, column: 0)

    /// The same place on another line, for a part of a document parsed apart from the lines before it.
    public func shifted(lines: Int) -> SourcePosition {
        SourcePosition(line: line + lines, column: column, byteOffset: byteOffset)
    }
}
