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

    /// A table wider than the width comes in blocks of whole columns, each with the first.
    @Test func blocksOfColumnsThatFitEachWithTheDate() {
        var table = TextTable(["Date", "Steps", "Distance m", "Active kcal", "HR avg"], rightAligned: [1, 2, 3, 4])
        table.add(["2024-03-15", "5794", "4178", "457", "72.9"])
        table.add(["2024-03-16", "19927", "", "846", ""])
        #expect(table.width == 10 + 2 + 5 + 2 + 10 + 2 + 11 + 2 + 6)
        #expect(table.blocks(fitting: 80).map(\.rendered) == [table.rendered])
        let blocks = table.blocks(fitting: 31)
        #expect(blocks.map(\.rendered) == [
            "Date        Steps  Distance m\n2024-03-15   5794        4178\n2024-03-16  19927\n",
            "Date        Active kcal  HR avg\n2024-03-15          457    72.9\n2024-03-16          846\n",
        ])
        #expect(blocks.allSatisfy { $0.width <= 31 })
        // A column that fits nowhere beside the date has a block of its own.
        #expect(table.blocks(fitting: 12).count == 4)
    }

    /// A row's style wraps its line once padded: the escapes take no column.
    @Test func aStyledRowIsPaddedFirst() {
        var table = TextTable(["Date", "Source", "Steps"], rightAligned: [2])
        table.add(["2024-03-15", "* iPhone", "8123"], style: .chosen)
        table.add(["", "  Watch", "7000"])
        let plain = MemorySink()
        let styled = MemorySink()
        try? table.write(to: plain)
        try? table.write(to: styled, styling: TextStyling(isOn: true))
        #expect(plain.text == table.rendered)
        #expect(styled.text == "Date        Source    Steps\n"
                + TextStyle.chosen.apply(to: "2024-03-15  * iPhone   8123") + "\n              Watch    7000\n")
    }
}
