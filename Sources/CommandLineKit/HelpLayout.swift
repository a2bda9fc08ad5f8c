/// How a program's help pages and usage lines are laid out.
public struct HelpLayout: Sendable {
    /// How a value or a placeholder is written: `<format>` or `FORMAT`.
    public enum Notation: Sendable {
        /// `<format>`, `[<options>]`, as swift-argument-parser writes them.
        case angleBrackets
        /// The name as declared (`PATH`), `[options]`.
        case bare

        /// `name` as this notation writes a value or a placeholder.
        public func placeholder(_ name: String) -> String {
            switch self {
            case .angleBrackets: return "<\(name)>"
            case .bare: return name
            }
        }
    }

    public var notation: Notation
    /// The column where the help of an option, argument or subcommand starts.
    public var textColumn: Int
    /// The column flowing help text stays within.
    public var width: Int
    /// In `--help`, how many columns the usage line's arguments and options fill after
    /// `USAGE: <program> <command> ` before they go on to a line of their own, aligned under the
    /// first; nil keeps them on one line. The usage line of a usage error is always one line.
    public var synopsisWidth: Int?

    public init(notation: Notation, textColumn: Int = 26, width: Int = 80, synopsisWidth: Int? = nil) {
        self.notation = notation
        self.textColumn = textColumn
        self.width = width
        self.synopsisWidth = synopsisWidth
    }
}
