import DisplayText

/// One piece of a usage line that is never broken (`[--tz <zone>]`), or a gated group that may be
/// broken after any member when it does not fit on a line.
enum SynopsisUnit: Equatable {
    case word(String)
    /// `[--post` then the members, then `]`.
    case group(opening: String, members: [String], closing: String)

    var text: String {
        switch self {
        case .word(let text):
            return text
        case .group(let opening, let members, let closing):
            return ([opening] + members).joined(separator: " ") + closing
        }
    }

    /// Lays the units out in lines of at most `width` display columns, filled greedily; a group too long
    /// for a line of its own goes on over lines one column further in. Each line comes with the
    /// extra indentation it needs (0 or 1).
    static func lines(_ units: [SynopsisUnit], width: Int) -> [(indent: Int, text: String)] {
        var lines: [(indent: Int, text: String)] = []
        var current = ""
        for unit in units {
            let text = unit.text
            if !current.isEmpty && current.displayWidth + 1 + text.displayWidth <= width {
                current += " " + text
                continue
            }
            guard case .group(let opening, let members, let closing) = unit, text.displayWidth > width else {
                if !current.isEmpty { lines.append((0, current)) }
                current = text
                continue
            }
            // A group too long for a line of its own starts on the current line when its opening
            // fits there, and breaks after any member.
            var line: String
            if !current.isEmpty && current.displayWidth + 1 + opening.displayWidth <= width {
                line = current + " " + opening
            } else {
                if !current.isEmpty { lines.append((0, current)) }
                line = opening
            }
            var indent = 0
            for (index, member) in members.enumerated() {
                let piece = member + (index == members.count - 1 ? closing : "")
                if indent + line.displayWidth + 1 + piece.displayWidth <= width {
                    line += " " + piece
                } else {
                    lines.append((indent, line))
                    line = piece
                    indent = 1
                }
            }
            if members.isEmpty { line += closing }
            lines.append((indent, line))
            current = ""
        }
        if !current.isEmpty { lines.append((0, current)) }
        return lines
    }
}
