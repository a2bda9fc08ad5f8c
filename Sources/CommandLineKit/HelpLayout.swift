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

    /// The narrowest and the widest page: below 40 columns nothing reads well, and lines over 100
    /// columns are hard to follow on a wide terminal.
    public static let pageWidths = 40...100

    public var notation: Notation
    /// The column where the help of an option, argument or subcommand starts (on pages narrower
    /// than three times it, a third of the page).
    public var textColumn: Int
    /// The columns every line of a page stays within (display columns), as far as no single word
    /// is wider.
    public var width: Int
    /// Whether `--help`'s usage line goes on over lines within `width`, aligned under its first
    /// argument; else it is one line. The usage line of a usage error is always one line.
    public var wrapsSynopsis: Bool

    public init(notation: Notation, textColumn: Int = 26, width: Int = 80, wrapsSynopsis: Bool = false) {
        self.notation = notation
        self.textColumn = textColumn
        self.width = width
        self.wrapsSynopsis = wrapsSynopsis
    }

    /// The width of a page for a terminal (or `COLUMNS`) this many columns wide: as wide, within
    /// `pageWidths`.
    public static func pageWidth(forTerminalColumns columns: Int) -> Int {
        min(max(columns, pageWidths.lowerBound), pageWidths.upperBound)
    }

    /// The column where entries' help starts on this page.
    var entryColumn: Int {
        min(textColumn, width / 3)
    }
}
