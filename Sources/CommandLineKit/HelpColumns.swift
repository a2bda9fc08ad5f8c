/// The two-column entries of OPTIONS, ARGUMENTS and SUBCOMMANDS: the term from the third column,
/// its help from `textColumn`, wrapped or as written.
enum HelpColumns {
    /// One entry, every line ending in a line break. A term too long for its column puts the help
    /// on the lines below; a default goes after the help, or on a line of its own if it does not fit.
    static func entry(_ term: String, _ help: HelpProse, defaultValue: String? = nil, layout: HelpLayout) -> String {
        var lines = help.lines(width: layout.width - layout.textColumn)
        if let defaultValue {
            let text = "(default: \(defaultValue))"
            if let last = lines.last, !last.isEmpty, layout.textColumn + last.count + 1 + text.count <= layout.width {
                lines[lines.count - 1] = last + " " + text
            } else {
                lines.append(text)
            }
        }
        let indent = String(repeating: " ", count: layout.textColumn)
        let head = "  " + term
        var rendered: [String]
        if head.count < layout.textColumn, let first = lines.first {
            rendered = [head + String(repeating: " ", count: layout.textColumn - head.count) + first]
            lines.removeFirst()
        } else {
            rendered = [head]
        }
        rendered += lines.map { $0.isEmpty ? "" : indent + $0 }
        return rendered.map { $0 + "\n" }.joined()
    }
}
