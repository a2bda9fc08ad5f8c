import DisplayText

/// Help text of an option, an argument, a subcommand or a section: prose the help page wraps to
/// its width, or lines laid out by hand that it keeps as written.
///
/// A string literal is flowing prose: each of its lines (a line break starts one) is wrapped on
/// its own, in display columns, and its later lines hang under the text of the first: under the
/// text after a leading term and two spaces (`64  Usage error`, `account   a unique label`), after
/// a `- ` bullet, else under the line's own indent. `asWritten` is for text whose lines were
/// broken by hand (an example to copy, a layout that must not move).
public struct HelpProse: Sendable, Equatable, ExpressibleByStringInterpolation {
    enum Layout: Sendable, Equatable {
        case flowing(String)
        case asWritten([String])
    }

    let layout: Layout

    public init(stringLiteral text: String) {
        layout = .flowing(text)
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        layout = .flowing(String(stringInterpolation: stringInterpolation))
    }

    /// Lines kept as written, never re-wrapped: `text` split at its line breaks.
    public static func asWritten(_ text: String) -> HelpProse {
        HelpProse(layout: .asWritten(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
    }

    private init(layout: Layout) {
        self.layout = layout
    }

    /// The words of the text, for searching (a test, a "did you mean", a man page).
    public var text: String {
        switch layout {
        case .flowing(let text): return text
        case .asWritten(let lines): return lines.joined(separator: "\n")
        }
    }

    /// Whether the lines are kept as written.
    public var isAsWritten: Bool {
        if case .asWritten = layout { return true }
        return false
    }

    /// The text as lines of at most `width` display columns (flowing prose, `String.wrapped`), or
    /// as written.
    ///
    /// Flowing prose breaks between words only; a word longer than `width` keeps a line to itself.
    public func lines(width: Int) -> [String] {
        switch layout {
        case .asWritten(let lines):
            return lines
        case .flowing(let text):
            return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                String(line).wrapped(width: width, continuationIndent: Self.hangingIndent(of: line))
            }
        }
    }

    /// Where the later lines of a wrapped line start: under the text after a leading term and a
    /// gap of two or more spaces (a term of at most 24 columns), after a `- ` bullet, else under
    /// the line's own indent.
    static func hangingIndent(of line: Substring) -> Int {
        let indent = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indent)
        if rest.hasPrefix("- ") { return indent + 2 }
        guard let termEnd = rest.firstIndex(of: " ") else { return indent }
        let afterTerm = rest[termEnd...]
        let gap = afterTerm.prefix { $0 == " " }.count
        let termWidth = rest[..<termEnd].count
        guard gap >= 2, termWidth <= 24, afterTerm.count > gap else { return indent }
        return indent + termWidth + gap
    }
}
