/// A section a table carries as prose that no table produces (ZONES, EXIT STATUS, EXAMPLES, a list
/// of JSON shapes), and which documents show it.
public struct HelpSection: Sendable, Equatable {
    /// Where the section goes in a command's page.
    public enum Placement: Sendable, Equatable {
        /// After the usage line, before the arguments and options.
        case beforeOptions
        /// After the options (and the program's subcommands).
        case afterOptions
    }

    /// The documents that show the section: `--help` is kept to a screen, the man page is the
    /// whole reference.
    public enum Audience: Sendable, Equatable {
        /// `--help` and the man page.
        case everywhere
        /// `--help` only (where to read more, which the man page need not say).
        case helpPage
        /// The man page only (the reference a help page points to).
        case manualPage
    }

    /// `ZONES`, printed as `ZONES:`; empty for a closing note printed without a title.
    public let title: String
    /// The lines under the title, each printed indented by two spaces (empty lines stay empty;
    /// without a title, not indented): flowing prose wrapped to the page, or lines as written.
    public let body: HelpProse
    public let placement: Placement
    public let audience: Audience
    /// For a section of the program: the word that prints it alone (`help exit-status`); nil for none.
    public let topic: String?

    public init(_ title: String, placement: Placement = .afterOptions, audience: Audience = .everywhere,
                topic: String? = nil, body: HelpProse) {
        self.title = title
        self.body = body
        self.placement = placement
        self.audience = audience
        self.topic = topic
    }

    /// Whether `--help` shows it.
    var isOnHelpPage: Bool { audience != .manualPage }

    /// Whether the man page shows it.
    var isInManual: Bool { audience != .helpPage }

    /// The section as printed in a page `width` columns wide, ending in a line break.
    func rendered(width: Int) -> String {
        guard !title.isEmpty else { return body.lines(width: width).joined(separator: "\n") + "\n" }
        let lines = body.lines(width: width - 2).map { $0.isEmpty ? "" : "  " + $0 }
        return "\(title):\n" + lines.joined(separator: "\n") + "\n"
    }
}
