import DisplayText

/// A help page put together from blocks (the overview, the usage line, a list of options, a
/// section), with a blank line between blocks.
struct HelpPage {
    private(set) var text = ""
    /// The page's width, for the sections' prose.
    let width: Int

    /// Adds a block; `text` ends in a line break.
    mutating func add(_ block: String) {
        if !text.isEmpty { text += "\n" }
        text += block
    }

    /// Adds the sections `--help` shows.
    mutating func add(_ sections: [HelpSection]) {
        for section in sections where section.isOnHelpPage {
            add(section.rendered(width: width))
        }
    }

    /// `OVERVIEW: ...`, wrapped to the page under its first word.
    func overviewLine(_ overview: String) -> String {
        let lead = "OVERVIEW: "
        return (lead + overview).wrapped(width: width, continuationIndent: lead.count).map { $0 + "\n" }.joined()
    }

    /// Adds prose wrapped to the page, as a block of its own.
    mutating func add(_ prose: HelpProse) {
        add(prose.lines(width: width).map { $0 + "\n" }.joined())
    }
}
