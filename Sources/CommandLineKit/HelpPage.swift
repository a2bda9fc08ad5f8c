/// A help page put together from blocks (the overview, the usage line, a list of options, a
/// section), with a blank line between blocks unless a block follows straight on.
struct HelpPage {
    private(set) var text = ""

    /// Adds a block; `text` ends in a line break.
    mutating func add(_ block: String, followsWithoutBlankLine: Bool = false) {
        if !text.isEmpty && !followsWithoutBlankLine { text += "\n" }
        text += block
    }

    mutating func add(_ sections: [HelpSection]) {
        for section in sections {
            add(section.rendered, followsWithoutBlankLine: section.followsWithoutBlankLine)
        }
    }
}
