@testable import CommandLineKit
import Testing

/// Help pages and usage lines drawn from a table.
@Suite struct HelpRenderingTests {
    let layout = HelpLayout(notation: .angleBrackets)

    @Test func flowingProseWrapsBetweenWords() {
        let prose: HelpProse = "one two three four five six"
        #expect(prose.lines(width: 9) == ["one two", "three", "four five", "six"])
        #expect(prose.lines(width: 100) == ["one two three four five six"])
    }

    @Test func aWordLongerThanTheLineKeepsALineToItself() {
        let prose: HelpProse = "a <manifest>.shard-K-of-N.journal.jsonl b"
        #expect(prose.lines(width: 10) == ["a", "<manifest>.shard-K-of-N.journal.jsonl", "b"])
    }

    @Test func aLineBreakInFlowingProseStartsALine() {
        let prose: HelpProse = "one two\nthree"
        #expect(prose.lines(width: 100) == ["one two", "three"])
    }

    @Test func proseAsWrittenIsKept() {
        let prose = HelpProse.asWritten("a line far longer than the width\n  indented")
        #expect(prose.lines(width: 5) == ["a line far longer than the width", "  indented"])
    }

    @Test func entryColumns() {
        #expect(HelpColumns.entry("--tz <zone>", "Place every sample in this zone, with its daylight-saving rules and more words.",
                                  layout: layout) == """
              --tz <zone>             Place every sample in this zone, with its
                                      daylight-saving rules and more words.

            """)
    }

    @Test func aTermTooLongForItsColumnPutsTheHelpBelow() {
        #expect(HelpColumns.entry("--input-format <format>", "Fits.", layout: layout)
                == "  --input-format <format> Fits.\n")
        #expect(HelpColumns.entry("--input-formats <format>", "Below.", layout: layout)
                == "  --input-formats <format>\n                          Below.\n")
    }

    @Test func theDefaultFollowsOrTakesALine() {
        #expect(HelpColumns.entry("--days N", "Number of days.", defaultValue: "60", layout: layout)
                == "  --days N                Number of days. (default: 60)\n")
        #expect(HelpColumns.entry("--start DATE", "First day, on the owner's Berlin calendar.", defaultValue: "2024-01-01",
                                  layout: layout)
                == "  --start DATE            First day, on the owner's Berlin calendar.\n                          (default: 2024-01-01)\n")
    }

    @Test func synopsisForms() {
        let program = Fixture.program
        #expect(Fixture.command.synopsis(.error, in: program) == "<export> [--format <format>]")
        // The usage line of --help names every option; the error's leaves the group's to a placeholder.
        #expect(Fixture.command.synopsis(.help, in: program)
                == "<export> [--format <format>] [--verbose] [--tag <tag> ...] [--upload [--retries <n>] [--plan | --dry-run] [--journal <file>]]")
        #expect(Fixture.generate.synopsis(.help, in: program) == "--out <PATH> [--days <N> | --size <BYTES>]")
    }

    @Test func aRepeatableOptionShowsItsDots() {
        let command = Command<Settings>("c", abstract: "", overview: "", options: [
            .repeatable("--tag", value: "tag", help: "A tag.") { $0.tags.append($1) },
        ])
        #expect(command.synopsis(.error, in: Fixture.program) == "[--tag <tag> ...]")
    }

    @Test func synopsisWrapsAndBreaksAGroupThatDoesNotFitALine() {
        let units: [SynopsisUnit] = [.word("<export>"), .word("[--format <format>]"), .word("[--verbose]"),
                                     .group(opening: "[--upload", members: ["[--plan | --dry-run]", "[--journal <file>]",
                                                                           "[<upload options>]"], closing: "]")]
        let lines = SynopsisUnit.lines(units, width: 40)
        #expect(lines.map(\.text) == ["<export> [--format <format>] [--verbose]", "[--upload [--plan | --dry-run]",
                                      "[--journal <file>] [<upload options>]]"])
        #expect(lines.map(\.indent) == [0, 0, 1])
        #expect(SynopsisUnit.lines(units, width: 200).map(\.text) == [units.map(\.text).joined(separator: " ")])
    }

    /// A page 60 columns wide: entries' help from a third of it, the usage line wrapped under its
    /// first argument, the manual's sections left out, the closing note without a title.
    @Test func commandPage() {
        #expect(Fixture.program.helpPage(for: "read") == """
            OVERVIEW: Read an export and print it.

            A paragraph as written.

            USAGE: tool read <export> [--format <format>] [--verbose]
                             [--tag <tag> ...] [--upload [--retries <n>]
                              [--plan | --dry-run] [--journal <file>]]

            ARGUMENTS:
              <export>          The export, or - for standard input.

            OPTIONS:
              -f, --format <format>
                                table (default), json or csv.
              -v, --verbose     Say more.
              --tag <tag>       Keep only records with this tag; give it
                                again for more tags.
              -h, --help        Show help information.

            UPLOAD (--upload):
              --upload          Upload instead of printing.
              --retries <n>     Retries per request.
              --plan            Show what an upload would do.
              --dry-run         Show the requests.
              --journal <file>  Where the journal is.

            EXAMPLES:
              read export.zip
              read - < export.xml

            More: man tool.

            """)
    }

    /// Lines hang under the text after a term, after a bullet, else under their indent; a
    /// line that is not too long is kept as it is, its spaces too.
    @Test func flowingLinesHang() {
        let prose: HelpProse = "64  Usage error: unknown option, missing or bad argument.\n- a bullet that goes on\n  plain indented words here"
        #expect(prose.lines(width: 24) == [
            "64  Usage error: unknown", "    option, missing or", "    bad argument.",
            "- a bullet that goes on",
            "  plain indented words", "  here",
        ])
        #expect(HelpProse.hangingIndent(of: "account     a label") == 12)
        #expect(HelpProse.hangingIndent(of: "One sentence  with two spaces") == 0, "a first word then a single space is prose")
    }

    /// Wide characters take two columns: a line of them holds half as many.
    @Test func wrappingCountsDisplayColumns() {
        let prose: HelpProse = "歩数 歩数 歩数 歩数"
        #expect(prose.lines(width: 10) == ["歩数 歩数", "歩数 歩数"])
        #expect(HelpColumns.entry("--名前", "歩数計アプリ", layout: HelpLayout(notation: .bare, textColumn: 12))
                == "  --名前    歩数計アプリ\n")
    }

    /// The man page has what --help leaves to it, and not the closing note --help ends with.
    @Test func sectionsGoWhereTheirAudienceIs() {
        let help = Fixture.program.helpPage(for: "read")
        let manual = Fixture.program.manPage()
        #expect(!help.contains("Only in the manual.") && manual.contains("Only in the manual."))
        #expect(help.contains("More: man tool.") && !manual.contains("More: man tool."))
        #expect(manual.contains("help <subcommand|exit\\-status>"))
    }

    @Test func aSectionCanComeBeforeTheOptions() {
        let command = Command<Settings>("c", abstract: "", overview: "Overview.", options: [],
                                        sections: [HelpSection("SHAPES", placement: .beforeOptions, body: "a   b")])
        let page = command.helpPage(in: Program("p", overview: "", commands: [command], layout: HelpLayout(notation: .bare)))
        #expect(page == "OVERVIEW: Overview.\n\nUSAGE: p c\n\nSHAPES:\n  a   b\n\nOPTIONS:\n  -h, --help              Show help information.\n")
    }
}
