import DisplayText

/// Help text of an option, an argument or a subcommand: prose the help page wraps to its width,
/// or lines laid out by hand that it keeps as written.
///
/// A string literal is flowing prose; a line break in it starts a new line. `asWritten` is for
/// text whose lines were broken by hand (an example on a line of its own, a hand-made table).
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

    /// The text as lines of at most `width` columns (flowing prose, `String.wrapped(width:)`),
    /// or as written.
    ///
    /// Flowing prose breaks between words only; a word longer than `width` keeps a line to itself.
    public func lines(width: Int) -> [String] {
        switch layout {
        case .asWritten(let lines): return lines
        case .flowing(let text): return text.wrapped(width: width)
        }
    }
}
