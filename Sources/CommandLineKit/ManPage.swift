/// The program's manual page, `name(1)` in roff (`man -l` renders it), written from the same
/// tables as `--help`: the program's options and sections, then every subcommand with its usage
/// line, arguments, option groups and sections. Where `--help` gives an option a line, the page
/// gives its whole text (`Option.manual`), and it holds the sections `--help` leaves to it.
extension Program {
    /// The page; `date` goes in its header (empty for none), `source` beside the version.
    public func manPage(date: String = "") -> String {
        var page = ManPageText()
        page.request("TH", [name.uppercased(), "1", date, versionLine, "User Commands"])
        page.heading("NAME")
        page.line("\(ManPageText.escaped(name, quoted: false)) \\- \(ManPageText.escaped(overview, quoted: false))", raw: true)
        page.heading("SYNOPSIS")
        for command in commands {
            page.synopsis(program: name, command: command.name, rest: command.manual(in: self).synopsis)
        }
        page.synopsis(program: name, command: nil,
                      rest: "--version | --help | help " + layout.notation.placeholder((["subcommand"] + topics).joined(separator: "|")))
        if let discussion {
            page.heading("DESCRIPTION")
            page.prose(discussion)
        }
        page.heading("OPTIONS")
        for option in options {
            page.entry(option.names.map { "\\fB\(ManPageText.escaped($0, quoted: false))\\fR" }.joined(separator: ", "),
                       option.help)
        }
        page.heading("COMMANDS")
        for command in commands {
            page.command(command.manual(in: self), program: name, notation: layout.notation)
        }
        for section in sections where section.isInManual {
            if !section.title.isEmpty { page.heading(section.title) }
            page.prose(section.body)
        }
        return page.text
    }
}

/// A roff page being written: requests, escaped text, and blocks kept as written.
struct ManPageText {
    private(set) var text = ""

    /// `.TH "A" "B"`: a request with quoted arguments.
    mutating func request(_ name: String, _ arguments: [String] = []) {
        text += "." + name + arguments.map { " \"" + Self.escaped($0, quoted: true) + "\"" }.joined() + "\n"
    }

    mutating func heading(_ title: String) {
        request("SH", [title])
    }

    /// A line of text; `raw` when it is escaped already.
    mutating func line(_ line: String, raw: Bool = false) {
        text += Self.safeStart(raw ? line : Self.escaped(line, quoted: false)) + "\n"
    }

    /// Help prose: lines as written kept so (`.nf`); flowing prose filled by roff, each of its
    /// lines starting a line, a blank line a paragraph (`.PP`), a line with a leading term
    /// (`64  Usage error`) a tagged paragraph (`.TP`) and a `- ` bullet an indented one (`.IP`).
    mutating func prose(_ prose: HelpProse) {
        guard !prose.isAsWritten else { return asWritten(prose.text) }
        var afterItem = false
        var first = true
        for line in prose.text.split(separator: "\n", omittingEmptySubsequences: false) {
            defer { first = false }
            let trimmed = line.trimmingLeadingSpaces()
            if trimmed.isEmpty {
                if !first { request("PP") }
                afterItem = false
                continue
            }
            let indent = line.count - trimmed.count
            let hanging = HelpProse.hangingIndent(of: line)
            if trimmed.hasPrefix("- ") {
                text += ".IP \\(bu 2\n"
                self.line(String(trimmed.dropFirst(2)))
                afterItem = true
            } else if hanging > indent {
                let term = trimmed.prefix { $0 != " " }
                request("TP")
                self.line(String(term))
                self.line(String(line.dropFirst(hanging)))
                afterItem = true
            } else {
                if afterItem { request("PP") } else if !first { request("br") }
                self.line(trimmed)
                afterItem = false
            }
        }
    }

    /// Text whose line breaks and indents are part of it (a table, an example): no filling.
    mutating func asWritten(_ body: String) {
        request("nf")
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            text += line.isEmpty ? ".sp\n" : Self.safeStart(Self.escaped(String(line), quoted: false)) + "\n"
        }
        request("fi")
    }

    /// An option or argument: its label in bold (given escaped), its help indented below.
    mutating func entry(_ label: String, _ help: HelpProse, defaultValue: String? = nil) {
        request("TP")
        line(label, raw: true)
        let lines = help.lines(width: Int.max)
        if case .asWritten = help.layout {
            // Hand-broken lines flow as one text here: their breaks were for the terminal's width.
            self.line(lines.map { $0.trimmingLeadingSpaces() }.joined(separator: " "))
        } else {
            for line in lines { self.line(line) }
        }
        if let defaultValue { line("(default: \(defaultValue))") }
    }

    /// A usage line: the program and command in bold, the rest as written.
    mutating func synopsis(program: String, command: String?, rest: String) {
        request("br")
        text += "\\fB\(Self.escaped(program, quoted: false))\\fR"
        if let command { text += " \\fB\(Self.escaped(command, quoted: false))\\fR" }
        text += rest.isEmpty ? "\n" : " " + Self.escaped(rest, quoted: false) + "\n"
    }

    /// One subcommand: overview, usage, discussion, its sections and options in `--help`'s order.
    mutating func command(_ manual: CommandManual, program: String, notation: HelpLayout.Notation) {
        request("SS", ["\(program) \(manual.name)"])
        line(manual.overview)
        request("PP")
        synopsis(program: program, command: manual.name, rest: manual.synopsis)
        if let discussion = manual.discussion {
            request("PP")
            prose(discussion)
        }
        for section in manual.sections where section.placement == .beforeOptions && section.isInManual { subsection(section) }
        if !manual.arguments.isEmpty {
            request("PP")
            line("\\fBARGUMENTS\\fR", raw: true)
            for argument in manual.arguments {
                entry("\\fI\(Self.escaped(notation.placeholder(argument.name), quoted: false))\\fR", argument.help)
            }
        }
        for group in manual.groups {
            request("PP")
            line("\\fB\(Self.escaped(group.title, quoted: false))\\fR", raw: true)
            for option in group.entries {
                let names = option.names.map { "\\fB\(Self.escaped($0, quoted: false))\\fR" }.joined(separator: ", ")
                let value = option.valueName.map { " \\fI\(Self.escaped(notation.placeholder($0), quoted: false))\\fR" } ?? ""
                entry(names + value, option.manual, defaultValue: option.defaultValue)
            }
        }
        for section in manual.sections where section.placement == .afterOptions && section.isInManual { subsection(section) }
    }

    private mutating func subsection(_ section: HelpSection) {
        request("PP")
        guard !section.title.isEmpty else { return prose(section.body) }
        line("\\fB\(Self.escaped(section.title, quoted: false))\\fR", raw: true)
        request("RS", ["2"])
        prose(section.body)
        request("RE")
    }

    /// Text with roff's special characters escaped: backslashes, hyphens (as `\-`, so options
    /// copy as typed), and double quotes inside a quoted argument.
    static func escaped(_ text: String, quoted: Bool) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\"" where quoted: result += "\\(dq"
            default: result.append(character)
            }
        }
        return result
    }

    /// A line that roff would take as a request (a leading `.` or `'`) starts with `\&`.
    static func safeStart(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }
}

extension StringProtocol {
    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}
