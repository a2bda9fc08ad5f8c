import DisplayText

/// A table for people: columns padded to their widest cell, two spaces apart; the last column is
/// never padded on the right. Every table the tool prints is one (days, days by source, the plan,
/// the batch, `inspect`'s).
///
/// Widths are display widths (`String.displayWidth`), not character counts: a Chinese source
/// name or one with an emoji takes two columns a character, and the columns after it still line
/// up on a terminal. Cells are shown as given: text from a file is escaped before it gets here.
/// A row may carry a style (the winning source), applied to the line once it is padded, so the
/// escapes take no column.
public struct TextTable {
    private let headers: [String]
    private let rightAligned: Set<Int>
    /// Put before every line (`inspect` indents its tables under their headings).
    private let indent: String
    private var rows: [[String]] = []
    /// The style of each row that has one, by its index in `rows`.
    private var styles: [Int: TextStyle] = [:]

    public init(_ headers: [String], rightAligned: Set<Int>, indent: String = "") {
        self.headers = headers
        self.rightAligned = rightAligned
        self.indent = indent
    }

    public mutating func add(_ row: [String], style: TextStyle? = nil) {
        precondition(row.count == headers.count, "a row has one cell per column")
        if let style { styles[rows.count] = style }
        rows.append(row)
    }

    public var isEmpty: Bool { rows.isEmpty }

    /// The table as one text, unstyled, every line ending with a newline.
    public var rendered: String {
        rendered(styling: .off)
    }

    /// The table as one text, its rows' styles applied as `styling` says, every line ending with a
    /// newline.
    public func rendered(styling: TextStyling) -> String {
        var out = ""
        forEachLine(styling) { line in out += line }
        return out
    }

    /// Writes the table line by line.
    public func write(to sink: any OutputSink, styling: TextStyling = .off) throws(OutputError) {
        try forEachLine(styling) { (line) throws(OutputError) in try sink.write(line) }
    }

    /// The widest line the table takes, in display columns.
    public var width: Int {
        let widths = columnWidths
        return indent.displayWidth + widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    }

    /// The table as blocks of whole columns, each at most `width` columns wide where the columns
    /// allow, each beginning with the first `keeping` columns (the date) so that every row can be
    /// read on its own: one block, this table, when it fits. A column wider than the room left
    /// beside the kept ones has a block to itself.
    public func blocks(fitting width: Int, keeping: Int = 1) -> [TextTable] {
        guard self.width > width, headers.count > keeping else { return [self] }
        let widths = columnWidths
        let kept = Array(0..<keeping)
        let keptWidth = indent.displayWidth + kept.map { widths[$0] }.reduce(0, +) + 2 * max(0, keeping - 1)
        var groups: [[Int]] = []
        var current: [Int] = []
        var currentWidth = keptWidth
        for column in keeping..<headers.count {
            let added = (keeping > 0 || !current.isEmpty ? 2 : 0) + widths[column]
            if !current.isEmpty && currentWidth + added > width {
                groups.append(current)
                current = []
                currentWidth = keptWidth
            }
            current.append(column)
            currentWidth += added
        }
        groups.append(current)
        return groups.map { group in select(kept + group) }
    }

    /// The table of these columns, in this order, with the same rows and styles.
    private func select(_ columns: [Int]) -> TextTable {
        var table = TextTable(columns.map { headers[$0] },
                              rightAligned: Set(columns.enumerated().filter { rightAligned.contains($0.element) }.map(\.offset)),
                              indent: indent)
        table.rows = rows.map { row in columns.map { row[$0] } }
        table.styles = styles
        return table
    }

    private var columnWidths: [Int] {
        headers.indices.map { column in ([headers] + rows).map { $0[column].displayWidth }.max() ?? 0 }
    }

    /// Hands each line, newline included, to `body`: the widths are known only once every row is in.
    private func forEachLine<Failure: Error>(_ styling: TextStyling, _ body: (String) throws(Failure) -> Void) throws(Failure) {
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
            if index > 0, let style = styles[index - 1] {
                // From the first cell shown: the blank cells before it stay plain.
                let blank = line.prefix { $0 == " " }.count
                line = String(line.prefix(blank)) + styling.apply(style, to: String(line.dropFirst(blank)))
            }
            try body(line + "\n")
        }
    }
}
