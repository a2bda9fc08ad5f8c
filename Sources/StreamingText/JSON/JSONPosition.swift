import HealthDays
/// A place in a JSON text: 1-based line and column.
///
/// The column counts characters (Unicode scalars) from the start of the line, not bytes,
/// so it matches what an editor shows for a line with accented letters or emoji in strings.
public struct JSONPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}
