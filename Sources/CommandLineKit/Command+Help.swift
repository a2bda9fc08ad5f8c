import DisplayText

extension Command {
    /// The `--help` page, laid out as `program.layout` says: the overview, the discussion, the
    /// usage line with every option, the arguments, the option groups (each option once, with its
    /// line of help) and the sections `--help` shows.
    public func helpPage(in program: Program) -> String {
        let layout = program.layout
        var page = HelpPage(width: layout.width)
        page.add(page.overviewLine(overview))
        if let discussion { page.add(discussion) }
        page.add(usageBlock(in: program))
        page.add(sections.filter { $0.placement == .beforeOptions })
        if !arguments.isEmpty {
            page.add("ARGUMENTS:\n" + arguments.map {
                HelpColumns.entry(layout.notation.placeholder($0.name), $0.help, layout: layout)
            }.joined())
        }
        for group in groups {
            page.add("\(group.title):\n" + group.options.map { option in
                HelpColumns.entry(label(of: option, notation: layout.notation), option.help,
                                  defaultValue: option.defaultValue, layout: layout)
            }.joined())
        }
        page.add(sections.filter { $0.placement == .afterOptions })
        return page.text
    }

    /// `USAGE: stepimport apple <export> ...`, wrapped as the layout says.
    private func usageBlock(in program: Program) -> String {
        let units = synopsisUnits(.help, notation: program.layout.notation)
        guard !units.isEmpty else { return "USAGE: \(program.name) \(name)\n" }
        let lead = "USAGE: \(program.name) \(name) "
        guard program.layout.wrapsSynopsis else {
            return lead + synopsis(.help, in: program) + "\n"
        }
        let leadWidth = lead.displayWidth
        // A lead too wide for the page leaves a third of it to the options.
        let lines = SynopsisUnit.lines(units, width: max(program.layout.width - leadWidth, program.layout.width / 3))
        return lines.enumerated().map { index, line in
            (index == 0 ? lead : String(repeating: " ", count: leadWidth + line.indent)) + line.text + "\n"
        }.joined()
    }

    public func synopsis(_ form: SynopsisForm, in program: Program) -> String {
        synopsisUnits(form, notation: program.layout.notation).map(\.text).joined(separator: " ")
    }

    /// `-q, --quiet` or `--tz <zone>`: an option as its help entry names it.
    func label(of option: Option<Options>, notation: HelpLayout.Notation) -> String {
        option.names.joined(separator: ", ") + (option.kind.valueName.map { " " + notation.placeholder($0) } ?? "")
    }

    /// The usage line's pieces: the arguments, the command's own options, then each group shown in
    /// this form, as `[--gate <members> [<name options>]]` (the placeholder standing for the
    /// members this form leaves out).
    func synopsisUnits(_ form: SynopsisForm, notation: HelpLayout.Notation) -> [SynopsisUnit] {
        var units = arguments.map { SynopsisUnit.word(notation.placeholder($0.name)) }
        let own = groups[0].options.filter { !$0.isHelp }
        units += synopsisWords(own, form, notation).map(SynopsisUnit.word)
        for group in groups.dropFirst() where group.usage.shows(in: form) {
            let members = group.options.filter { !$0.isHelp && !(group.gate.map($0.names.contains) ?? false) }
            var ordered = members
            if let order = group.synopsisOrder {
                ordered = order.compactMap { name in members.first { $0.names.contains(name) } }
                ordered += members.filter { member in !order.contains(where: member.names.contains) }
            }
            var words = synopsisWords(ordered, form, notation)
            if let name = group.name, members.contains(where: { !$0.usage.shows(in: form) }) {
                words.append("[\(notation.placeholder("\(name) options"))]")
            }
            if let gate = group.gate, let gateOption = option(named: gate) {
                units.append(.group(opening: "[" + synopsisText(gateOption, notation), members: words, closing: "]"))
            } else {
                units += words.map(SynopsisUnit.word)
            }
        }
        return units
    }

    /// The shown options as the usage line writes them: `[--tz <zone>]`, `--out PATH` when
    /// required, `[--days N | --size BYTES]` for an exclusive pair (at the first one's place).
    private func synopsisWords(_ options: [Option<Options>], _ form: SynopsisForm,
                               _ notation: HelpLayout.Notation) -> [String] {
        var words: [String] = []
        var taken: Set<String> = []
        for option in options where option.usage.shows(in: form) && !taken.contains(option.longName) {
            let text = synopsisText(option, notation)
            if let partner = exclusivePartner(of: option), partner.usage.shows(in: form) {
                taken.insert(partner.longName)
                words.append("[\(text) | \(synopsisText(partner, notation))]")
            } else if isRequired(option) {
                words.append(text)
            } else {
                words.append("[\(text)]")
            }
        }
        return words
    }

    /// `--tz <zone>`, `--dtd normal|broken|none`, `--exclude <name> ...`.
    private func synopsisText(_ option: Option<Options>, _ notation: HelpLayout.Notation) -> String {
        switch option.kind {
        case .flag:
            return option.longName
        case .value(let name):
            return option.longName + " " + (option.synopsisValue ?? notation.placeholder(name))
        case .repeatable(let name):
            return option.longName + " " + (option.synopsisValue ?? notation.placeholder(name)) + " ..."
        }
    }

    private func exclusivePartner(of option: Option<Options>) -> Option<Options>? {
        for case .exclusive(let first, let second, _) in rules {
            if option.names.contains(first) { return self.option(named: second) }
            if option.names.contains(second) { return self.option(named: first) }
        }
        return nil
    }

    private func isRequired(_ option: Option<Options>) -> Bool {
        rules.contains { rule in
            if case .required(let name) = rule { return option.names.contains(name) }
            return false
        }
    }
}
