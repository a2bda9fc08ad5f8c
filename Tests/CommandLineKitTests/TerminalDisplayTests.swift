import CommandLineKit
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
        for text in ["0", "-5", "+80", " 80", "80 ", "abc", "", "10001", "99999999999999999999999"] {
            #expect(TerminalDisplay.columns(environment: ["COLUMNS": text], terminalColumns: 100) == 100, "\(text)")
            #expect(TerminalDisplay.columns(environment: ["COLUMNS": text], terminalColumns: nil) == 80, "\(text)")
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
