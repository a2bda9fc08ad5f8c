/// How a piece of text is shown on a colour terminal: the few styles stepimport uses, as ANSI
/// SGR escapes (ECMA-48), which every terminal emulator in use understands.
///
/// The escapes take no column on a terminal, but `displayWidth` counts them: text is padded,
/// aligned and wrapped first, and styled last.
public enum TextStyle: Sendable, Equatable {
    /// Errors: red.
    case error
    /// Warnings: yellow.
    case warning
    /// What the rule chose (the winning source): bold green.
    case chosen

    /// The escape that starts the style.
    var start: String {
        switch self {
        case .error: "\u{1B}[31m"
        case .warning: "\u{1B}[33m"
        case .chosen: "\u{1B}[1;32m"
        }
    }

    /// The escape that ends every style.
    static let reset = "\u{1B}[0m"

    /// `text` in this style; empty text stays empty.
    public func apply(to text: String) -> String {
        text.isEmpty ? text : start + text + Self.reset
    }
}

/// Whether text is styled: on for a colour terminal (or `--color always`), off otherwise, so
/// that code which styles text never asks where the text is going.
public struct TextStyling: Sendable, Equatable {
    public let isOn: Bool

    public init(isOn: Bool) {
        self.isOn = isOn
    }

    /// No styling: pipes, files, `NO_COLOR`, `--color never`.
    public static let off = TextStyling(isOn: false)

    /// `text` in `style` when styling is on, else `text` unchanged.
    public func apply(_ style: TextStyle, to text: String) -> String {
        isOn ? style.apply(to: text) : text
    }
}
