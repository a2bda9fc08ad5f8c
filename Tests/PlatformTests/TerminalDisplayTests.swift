import Platform
import Testing

/// The width and the characters of output for people, from the environment and the terminal.
@Suite struct TerminalDisplayTests {
    @Test func columnsFromCOLUMNSElseTheTerminalElse80() {
        #expect(TerminalDisplay.columns(environment: ["COLUMNS": "120"], terminalColumns: 200) == 120)
        #expect(TerminalDisplay.columns(environment: ["COLUMNS": "1"], terminalColumns: nil) == 1)
        #expect(TerminalDisplay.columns(environment: [:], terminalColumns: 132) == 132)
        #expect(TerminalDisplay.columns(environment: [:], terminalColumns: nil) == 80)
        #expect(TerminalDisplay.columns(environment: [:], terminalColumns: 0) == 80)
        // Not a width: ignored.
        for text in ["0", "-5", "+80", " 80", "80 ", "80x", "abc", "", "10001", "99999999999999999999999"] {
            #expect(TerminalDisplay.columns(environment: ["COLUMNS": text], terminalColumns: 100) == 100, "\(text)")
            #expect(TerminalDisplay.columns(environment: ["COLUMNS": text], terminalColumns: nil) == 80, "\(text)")
        }
    }

    /// A stream's columns: COLUMNS wins; else the terminal's width, which a file or pipe has not.
    @Test func aStreamsColumns() {
        #expect(TerminalDisplay.columns(for: .output, environment: ["COLUMNS": "123"]) == 123)
        #expect(TerminalDisplay.columns(for: .error, environment: ["COLUMNS": "40"]) == 40)
        for stream in [StandardStreams.Stream.output, .error] {
            let expected = stream.terminalColumns ?? TerminalDisplay.defaultColumns
            #expect(TerminalDisplay.columns(for: stream, environment: ["COLUMNS": "abc"]) == expected)
            if !stream.isTerminal {
                #expect(stream.terminalColumns == nil)
                #expect(TerminalDisplay.columns(for: stream, environment: [:]) == 80)
            }
        }
    }

    @Test(arguments: [
        ([String: String](), false),
        (["LANG": "en_US.UTF-8"], true), (["LANG": "C.UTF-8"], true), (["LANG": "de_DE.utf8"], true),
        (["LANG": "de_DE.UTF-8@euro"], true), (["LANG": "C"], false), (["LANG": "POSIX"], false),
        (["LANG": "en_US.ISO-8859-1"], false), (["LANG": "en_US"], false),
        // LC_ALL before LC_CTYPE before LANG; an empty one does not count.
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false), (["LC_ALL": "", "LANG": "en_US.UTF-8"], true),
        (["LC_CTYPE": "C.UTF-8", "LANG": "C"], true), (["LC_ALL": "C.UTF-8", "LC_CTYPE": "C"], true),
    ])
    func unicodeWhenTheLocaleIsUTF8(_ environment: [String: String], _ expected: Bool) {
        #expect(TerminalDisplay.showsUnicode(environment: environment) == expected)
    }
}
