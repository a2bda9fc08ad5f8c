/// A help section the table carries as written: prose that no table produces (ZONES, EXIT STATUS,
/// EXAMPLES, a list of JSON shapes).
public struct HelpSection: Sendable, Equatable {
    /// Where the section goes in a command's page.
    public enum Placement: Sendable, Equatable {
        /// After the usage line, before the arguments and options.
        case beforeOptions
        /// After the options (and the program's subcommands).
        case afterOptions
    }

    /// `ZONES`, printed as `ZONES:`.
    public let title: String
    /// The lines under the title, each printed indented by two spaces (empty lines stay empty).
    public let body: String
    public let placement: Placement
    /// Printed straight after the section before, without the blank line between sections.
    public let followsWithoutBlankLine: Bool

    public init(_ title: String, placement: Placement = .afterOptions, followsWithoutBlankLine: Bool = false,
                body: String) {
        self.title = title
        self.body = body
        self.placement = placement
        self.followsWithoutBlankLine = followsWithoutBlankLine
    }

    /// The section as printed, ending in a line break.
    var rendered: String {
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
        return "\(title):\n" + lines.joined(separator: "\n") + "\n"
    }
}
