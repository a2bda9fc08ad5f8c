extension String {
    /// The text as lines of at most `width` terminal columns (`displayWidth`): each line break
    /// starts a new line, and within a paragraph words (separated by spaces) fill each line
    /// greedily.
    ///
    /// It breaks between words only, so a word wider than `width` keeps a line to itself and is
    /// wider than `width`; a caller that must never exceed the width cuts such a line
    /// (`truncated(toDisplayWidth:)`). The one wrapping of text for people: help pages and
    /// `inspect`'s chart legend.
    public func wrapped(width: Int) -> [String] {
        split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            var lines: [String] = []
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                let wordWidth = String(word).displayWidth
                if line.isEmpty {
                    line = String(word)
                    lineWidth = wordWidth
                } else if lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                } else {
                    lines.append(line)
                    line = String(word)
                    lineWidth = wordWidth
                }
            }
            lines.append(line)
            return lines
        }
    }

    /// The text cut to at most `width` terminal columns, ending in `ellipsis` when anything was
    /// cut; unchanged when it fits. Whole characters only (an accent stays with its letter, an
    /// emoji with its modifiers), so the result may be a column narrower than `width`. Empty for
    /// a width of 0 or less.
    public func truncated(toDisplayWidth width: Int, ellipsis: String = "…") -> String {
        guard displayWidth > width else { return self }
        let ellipsisWidth = ellipsis.displayWidth
        // Without room for the ellipsis and a character, only what fits, without one.
        let (room, mark) = width > ellipsisWidth ? (width - ellipsisWidth, ellipsis) : (width, "")
        var result = ""
        var used = 0
        for character in self {
            let characterWidth = character.displayWidth
            if used + characterWidth > room { break }
            result.append(character)
            used += characterWidth
        }
        return result + mark
    }

    /// The text followed by spaces up to `width` terminal columns; unchanged when it is as wide
    /// or wider.
    public func padded(toDisplayWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - displayWidth))
    }
}
