import CommandLineKit
import Testing

/// Reading a command's arguments against its table.
@Suite struct ParsingTests {
    @Test func valueAfterTheNameOrAfterEquals() throws {
        #expect(try Fixture.settings(["x", "--format", "json"]).format == "json")
        #expect(try Fixture.settings(["x", "--format=csv"]).format == "csv")
        #expect(try Fixture.settings(["x", "-f", "csv"]).format == "csv")
    }

    @Test func theValueIsTheNextWordWhateverItLooksLike() throws {
        #expect(Fixture.problem(["x", "--format", "--verbose"]) == .rejected("unknown format '--verbose'"))
        #expect(try Fixture.settings(["x", "--tag", "-", "--tag", "--"]).tags == ["-", "--"])
    }

    @Test func anEmptyValueAfterEquals() {
        #expect(Fixture.problem(["x", "--format="]) == .rejected("unknown format ''"))
    }

    @Test func theLaterValueWinsAndARepeatableOptionKeepsEvery() throws {
        #expect(try Fixture.settings(["x", "--format", "json", "--format", "csv"]).format == "csv")
        #expect(try Fixture.settings(["--tag", "a", "x", "--tag=b"]).tags == ["a", "b"])
    }

    @Test func doubleDashMakesTheRestArguments() throws {
        #expect(try Fixture.settings(["--", "--verbose"]).path == "--verbose")
        #expect(try Fixture.settings(["--verbose", "--", "-"]) == Settings(path: "-", verbose: true))
        #expect(Fixture.problem(["--", "a", "--help"]) == .surplusArguments(message: "one export at a time", given: ["a", "--help"]))
    }

    @Test func dashIsAnArgument() throws {
        #expect(try Fixture.settings(["-"]).path == "-")
    }

    @Test func missingValue() {
        #expect(Fixture.problem(["x", "--format"]) == .missingValue(option: "--format"))
        #expect(Fixture.problem(["x", "--format"])?.message == "missing value for '--format'")
    }

    @Test func flagGivenAValue() {
        #expect(Fixture.problem(["x", "--verbose=yes"]) == .unexpectedValue(option: "--verbose"))
        #expect(Fixture.problem(["x", "--verbose=yes"])?.message == "'--verbose' takes no value")
    }

    @Test func onlyADoubleDashWordIsSplitAtEquals() {
        #expect(Fixture.problem(["x", "-v=1"]) == .unknownOption("-v=1"))
    }

    @Test func unknownOption() {
        #expect(Fixture.problem(["x", "--frobnicate=3"]) == .unknownOption("--frobnicate"))
        #expect(Fixture.problem(["x", "--frobnicate"])?.message == "unknown option '--frobnicate'")
    }

    @Test func aRefusedOptionSaysWhy() {
        #expect(Fixture.problem(["x", "--token=abc"]) == .refused(option: "--token", reason: "never on the command line"))
    }

    @Test func theFirstMistakeOnTheLineIsReported() {
        #expect(Fixture.problem(["--format", "xml", "--frobnicate"]) == .rejected("unknown format 'xml'"))
        #expect(Fixture.problem(["--frobnicate", "--format", "xml"]) == .unknownOption("--frobnicate"))
    }

    @Test func helpStopsReading() throws {
        for words in [["--help"], ["-h", "--frobnicate"], ["x", "y", "--help=please"]] {
            guard case .help = try Fixture.parse(words) else {
                Issue.record("no help for \(words)")
                continue
            }
        }
        #expect(Fixture.problem(["--frobnicate", "--help"]) == .unknownOption("--frobnicate"))
        #expect(try Fixture.settings(["--", "--help"]).path == "--help")
    }

    @Test func aGroupMemberNeedsItsGate() throws {
        #expect(Fixture.problem(["x", "--retries", "3"]) == .withoutGate(option: "--retries", gate: "--upload", reason: nil))
        #expect(Fixture.problem(["x", "--plan"])?.message == "--plan goes with --upload")
        #expect(try Fixture.settings(["x", "--retries", "3", "--upload"]).retries == 3)
    }

    @Test func theGateIsCheckedBeforeTheRules() {
        #expect(Fixture.problem(["x", "--dry-run", "--plan"]) == .withoutGate(option: "--dry-run", gate: "--upload", reason: nil))
    }

    @Test func mutuallyExclusiveOptions() {
        let problem = Fixture.problem(["x", "--upload", "--dry-run", "--plan"])
        #expect(problem == .exclusive("--plan", "--dry-run", reason: "one or the other"))
        #expect(problem?.message == "--plan and --dry-run do not go together: one or the other")
        #expect(Fixture.problem(["--days", "3", "--out", "o", "--size", "1K"], command: Fixture.generate)?.message
                == "give either '--days' or '--size', not both")
    }

    @Test func aNeedsRuleTakesItsOptionsOutOfTheGroupGate() throws {
        let without = Fixture.problem(["x", "--journal", "j"])
        #expect(without == .withoutGate(option: "--journal", gate: "--upload", reason: "the journal records uploads"))
        #expect(without?.message == "--journal goes with --upload (the journal records uploads)")
        #expect(Fixture.problem(["x", "--journal", "j", "--upload", "--plan"]) == without)
        #expect(Fixture.problem(["x", "--journal", "j", "--plan"]) == .withoutGate(option: "--plan", gate: "--upload", reason: nil))
        #expect(try Fixture.settings(["x", "--journal", "j", "--upload"]).journal == "j")
    }

    @Test func requiredOption() throws {
        #expect(Fixture.problem([], command: Fixture.generate) == .missingOption("--out PATH"))
        #expect(Fixture.problem(["--out="], command: Fixture.generate)?.message == "missing '--out PATH'")
        #expect(try Fixture.settings(["--out", "o"], command: Fixture.generate).output == "o")
    }

    @Test func arguments() {
        #expect(Fixture.problem([]) == .missingArgument(name: "export", message: "missing the export"))
        #expect(Fixture.problem(["a", "b"])?.message == "one export at a time; got 2: a b")
        #expect(Fixture.problem(["bad"]) == .rejected("'bad' is no export"))
    }

    @Test func aCommandWithoutArgumentsTakesDashesAsOptions() {
        #expect(Fixture.problem(["--out", "o", "-"], command: Fixture.generate) == .unknownOption("-"))
        #expect(Fixture.problem(["--out", "o", "--"], command: Fixture.generate) == .unknownOption("--"))
        #expect(Fixture.problem(["foo", "--out", "o"], command: Fixture.generate) == .unexpectedArgument("foo"))
    }

    @Test func usageErrorsNameTheirCommand() {
        do {
            _ = try Fixture.parse(["--frobnicate"])
            Issue.record("parsed")
        } catch {
            #expect(error.command == "read")
        }
    }
}
