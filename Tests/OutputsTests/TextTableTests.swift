import DisplayText
@testable import Outputs
import Testing

/// The one table layout: columns line up by display width, whatever the script of a cell.
@Suite struct TextTableTests {
    @Test func columnsLineUpByDisplayWidth() {
        var table = TextTable(["Source", "Steps", "Note"], rightAligned: [1])
        let rows = [["华为运动健康", "5321", "wide"], ["Anna’s Watch ⌚️", "10700", "emoji"],
                    ["e\u{301}te\u{301}", "64", "combining"], ["Mi Fit", "4000", ""]]
        for row in rows { table.add(row) }
        let lines = table.rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == [
            "Source           Steps  Note",
            "华为运动健康      5321  wide",
            "Anna’s Watch ⌚️  10700  emoji",
            "été                 64  combining",
            "Mi Fit            4000",
        ])
        // The last column starts at the same display column on every line: after the widest
        // source (15 columns), two spaces, the widest count (5) and two spaces.
        // An empty last cell leaves no trailing blanks.
        for (line, note) in zip(lines, ["Note"] + rows.map { $0[2] }) where !note.isEmpty {
            #expect(line.hasSuffix(note))
            #expect(String(line.dropLast(note.count)).displayWidth == 15 + 2 + 5 + 2, "\(line)")
        }
    }

    @Test func aHeaderWiderThanItsCellsSetsTheWidth() {
        var table = TextTable(["Date", "Server", "New", "Action"], rightAligned: [1, 2])
        table.add(["2025-03-01", "-", "12", "write"])
        #expect(table.rendered == "Date        Server  New  Action\n2025-03-01       -   12  write\n")
    }
}
