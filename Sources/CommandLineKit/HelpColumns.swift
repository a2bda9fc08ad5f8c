import DisplayText

/// The two-column entries of OPTIONS, ARGUMENTS and SUBCOMMANDS: the term from the third column,
/// its help from the layout's entry column, wrapped or as written.
enum HelpColumns {
    /// One entry, every line ending in a line break. A term too long for its column puts the help
    /// on the lines below; a default goes after the help, or on a line of its own if it does not fit.
    static func entry(_ term: String, _ help: HelpProse, defaultValue: String? = nil, layout: HelpLayout) -> String {
        let column = layout.entryColumn
        var lines = help.lines(width: layout.width - column)
        if let defaultValue {
            let text = "(default: \(defaultValue))"
            if let last = lines.last, !last.isEmpty, column + last.displayWidth + 1 + text.displayWidth <= layout.width {
                lines[lines.count - 1] = last + " " + text
            } else {
                lines.append(text)
            }
        }
        let indent = String(repeating: " ", count: column)
        let head = "  " + term
        let headWidth = head.displayWidth
        var rendered: [String]
        if headWidth < column, let first = lines.first {
            rendered = [head + String(repeating: " ", count: column - headWidth) + first]
            lines.removeFirst()
        } else {
            rendered = [head]
        }
        rendered += lines.map { $0.isEmpty ? "" : indent + $0 }
        return rendered.map { $0 + "\n" }.joined()
    }
}
