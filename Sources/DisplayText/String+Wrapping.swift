extension String {
    /// The text as lines of at most `width` terminal columns (`displayWidth`, not characters): each
    /// line break starts a new paragraph, and within a paragraph words (separated by spaces) fill
    /// each line greedily. A paragraph's first line keeps the paragraph's own leading spaces; its
    /// later lines start with `continuationIndent` spaces.
    ///
    /// Spaces inside a line are kept as they are (`64  Usage error` keeps its two); the spaces at a
    /// break, and at the end of a paragraph, are dropped. It breaks between words only, so a word
    /// wider than a line keeps a line to itself, uncut (a path or a URL can still be copied whole);
    /// a caller that must never exceed the width cuts such a line (`truncated(toDisplayWidth:)`).
    /// The one wrapping of text for people: help pages, messages on a terminal, `inspect`'s chart
    /// legend and the footers of tables.
    public func wrapped(width: Int, continuationIndent: Int = 0) -> [String] {
        let indent = String(repeating: " ", count: max(0, continuationIndent))
        return split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
            Self.wrap(paragraph, width: width, indent: indent)
        }
    }

    /// One paragraph (no line break) as lines of at most `width` columns.
    private static func wrap(_ paragraph: Substring, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var gap = ""
        var word = ""
        /// Puts `word` (after `gap`) on the line, or starts a new line with it.
        func place() {
            guard !word.isEmpty else { return }
            let wordWidth = word.displayWidth
            if lineWidth == 0 && lines.isEmpty {
                line = gap + word
                lineWidth = gap.count + wordWidth
            } else if lineWidth + gap.count + wordWidth <= width {
                line += gap + word
                lineWidth += gap.count + wordWidth
            } else {
                lines.append(line)
                line = indent + word
                lineWidth = indent.count + wordWidth
            }
            gap = ""
            word = ""
        }
        for character in paragraph {
            if character == " " {
                place()
                gap.append(" ")
            } else {
                word.append(character)
            }
        }
        place()
        lines.append(line)
        return lines
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
