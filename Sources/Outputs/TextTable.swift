import DisplayText

/// A table for people: columns padded to their widest cell, two spaces apart; the last column is
/// never padded on the right. Every table the tool prints is one (days, days by source, the plan,
/// the batch, `inspect`'s).
///
/// Widths are display widths (`String.displayWidth`), not character counts: a Chinese source
/// name or one with an emoji takes two columns a character, and the columns after it still line
/// up on a terminal. Cells are shown as given: text from a file is escaped before it gets here.
public struct TextTable {
    private let headers: [String]
    private let rightAligned: Set<Int>
    /// Put before every line (`inspect` indents its tables under their headings).
    private let indent: String
    private var rows: [[String]] = []

    public init(_ headers: [String], rightAligned: Set<Int>, indent: String = "") {
        self.headers = headers
        self.rightAligned = rightAligned
        self.indent = indent
    }

    public mutating func add(_ row: [String]) {
        precondition(row.count == headers.count, "a row has one cell per column")
        rows.append(row)
    }

    public var isEmpty: Bool { rows.isEmpty }

    /// The table as one text, every line ending with a newline.
    public var rendered: String {
        var out = ""
        forEachLine { line in out += line }
        return out
    }

    /// Writes the table line by line.
    public func write(to sink: any OutputSink) throws(OutputError) {
        try forEachLine { (line) throws(OutputError) in try sink.write(line) }
    }

    /// Hands each line, newline included, to `body`: the widths are known only once every row is in.
    private func forEachLine<Failure: Error>(_ body: (String) throws(Failure) -> Void) throws(Failure) {
        let all = [headers] + rows
        let cellWidths = all.map { row in row.map(\.displayWidth) }
        let widths = headers.indices.map { column in cellWidths.map { $0[column] }.max() ?? 0 }
        for (index, row) in all.enumerated() {
            var line = indent
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                let padding = String(repeating: " ", count: widths[column] - cellWidths[index][column])
                if rightAligned.contains(column) {
                    line += padding + cell
                } else {
                    line += column == row.count - 1 ? cell : cell + padding
                }
            }
            // Empty cells at the end of a row (a day with no value in the last columns) leave no
            // trailing blanks.
            while line.last == " " { line.removeLast() }
            try body(line + "\n")
        }
    }
}
