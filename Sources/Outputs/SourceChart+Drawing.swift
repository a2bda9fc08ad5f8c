import DisplayText
import HealthDays

/// The chart's lines: rows of cells, the axis under them and the legend.
extension SourceChart {
    /// Block heights from ▁ (level 1) to █ (level 8), and their ASCII stand-ins, light to dense.
    private static let unicodeLevels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    private static let asciiLevels: [Character] = [":", "-", "=", "+", "*", "#", "%", "@"]
    /// Marks a column holding a day the server would refuse, on the `refused` row.
    private static let refusedMark: Character = "!"
    /// A column at most this many characters wide, however few columns there are.
    static let widestCell = 3

    /// The heading, the rows and the axis of a chart of `span`, and its legend.
    func drawing(_ span: ClosedRange<Int>, _ style: Style) -> (lines: [String], legend: String) {
        let ascii = style.glyphs == .ascii
        let names = rows.map { $0.name.escapingControlCharacters() }
        let labels = names + (refusedDays.isEmpty ? [] : ["refused"])
        // The names take what they need, up to half of what is left beside them.
        let nameWidth = min(labels.map(\.displayWidth).max() ?? 0, max(6, (style.width - 3) / 2))
        let room = style.width - 3 - nameWidth
        let columns = ChartColumns.fitting(first: span.lowerBound, last: span.upperBound, room: room)
        let cell = max(1, min(Self.widestCell, room / columns.count))

        // Each row's mean steps a day per column, over the column's days within the span.
        let lengths = (0..<columns.count).map { Double(columns.days(of: $0).count) }
        let means = rows.map { row in
            var sums = [Double](repeating: 0, count: columns.count)
            for (day, steps) in row.days { sums[columns.index(of: day)] += steps }
            return zip(sums, lengths).map { $0 / $1 }
        }
        let top = Self.scaleTop(means.flatMap { $0 })
        let levels = ascii ? Self.asciiLevels : Self.unicodeLevels
        let gap: Character = ascii ? "." : "·"

        var lines = ["Steps by " + Self.periodName(columns.period)]
        func label(_ text: String) -> String {
            "  " + text.truncated(toDisplayWidth: nameWidth, ellipsis: ascii ? "..." : "…").padded(toDisplayWidth: nameWidth) + " "
        }
        for (name, row) in zip(names, means) {
            var cells = ""
            for mean in row {
                let level = Self.level(of: mean, top: top)
                cells += String(repeating: level == 0 ? gap : levels[level - 1], count: cell)
            }
            lines.append(label(name) + cells)
        }
        if !refusedDays.isEmpty {
            var marked = [Bool](repeating: false, count: columns.count)
            for day in refusedDays { marked[columns.index(of: day)] = true }
            let cells = marked.map { String(repeating: $0 ? Self.refusedMark : " ", count: cell) }.joined()
            lines.append(label("refused") + cells)
        }

        let under = String(repeating: " ", count: 2 + nameWidth + 1)
        let marks = axisLabels(columns, cell: cell, room: room)
        if !marks.isEmpty {
            var axis = ""
            for mark in marks {
                axis += String(repeating: " ", count: mark.column - axis.displayWidth) + mark.text
            }
            lines.append(under + axis)
        }
        let first = LocalDate(daysSinceEpoch: Int32(truncatingIfNeeded: span.lowerBound)).description
        let last = LocalDate(daysSinceEpoch: Int32(truncatingIfNeeded: span.upperBound)).description
        let end = max(columns.count * cell, first.count + 1 + last.count)
        if span.lowerBound == span.upperBound {
            lines.append(under + first)
        } else if end <= room {
            // The first day under the first column, the last one ending under the last column.
            lines.append(under + first + String(repeating: " ", count: end - first.count - last.count) + last)
        } else {
            lines += prose("\(first) to \(last)", style)
        }
        let trimmed = lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        return (trimmed, legend(columns.period, cell: cell, top: top, ascii: ascii))
    }

    /// What a column, its height and its characters stand for.
    private func legend(_ period: ChartColumns.Period, cell: Int, top: Double, ascii: Bool) -> String {
        let span: String
        switch period {
        case .day: span = "a day"
        case .week: span = "a week (Monday to Sunday)"
        case .month: span = "a month"
        case .quarter: span = "a quarter"
        case .years(let years): span = years == 1 ? "a year" : "\(GroupedNumber.format(years)) years"
        }
        let each = cell == 1 ? "Each column \(span)" : "Every \(cell) columns \(span)"
        let measure = period == .day ? "the source's steps" : "the source's mean steps a day"
        let scale = GroupedNumber.format(top < 9.0e18 ? Int(top) : .max)
        var text = ascii
            ? "\(each); its mark: \(measure), from : (least) to @ (\(scale) or more); . no steps"
            : "\(each); its height: \(measure), █ \(scale) or more; · no steps"
        if !refusedDays.isEmpty {
            text += "; \(Self.refusedMark) a day the server would refuse (see Refused days)"
        }
        return text + "."
    }

    private static func periodName(_ period: ChartColumns.Period) -> String {
        switch period {
        case .day: return "day"
        case .week: return "week"
        case .month: return "month"
        case .quarter: return "quarter"
        case .years(let years): return years == 1 ? "year" : "\(GroupedNumber.format(years)) years"
        }
    }

    /// The mean steps a day that a full block (█) stands for, or more: the 95th percentile (by
    /// nearest rank) of the cells with steps, so that a few extreme days do not flatten all the
    /// others, rounded down to two significant digits for the legend; at least 1.
    static func scaleTop(_ means: [Double]) -> Double {
        let positive = means.filter { $0 > 0 }.sorted()
        guard !positive.isEmpty else { return 1 }
        var high = positive[(positive.count * 95 + 99) / 100 - 1]
        guard high.isFinite else { return .greatestFiniteMagnitude }
        var unit = 1.0
        while high / unit >= 100 { unit *= 10 }
        high = (high / unit).rounded(.down) * unit
        return max(1, high)
    }

    /// 0 for a gap (no steps), else 1 to 8: 8 from `top` on, 1 to 7 in equal steps below it.
    static func level(of mean: Double, top: Double) -> Int {
        guard mean > 0 else { return 0 }
        if mean >= top { return 8 }
        return min(7, 1 + Int(mean * 7 / top))
    }

    /// The period marks under the columns: where each month begins (`2024-04`), else each year,
    /// else every 2nd, 5th, 10th... year: the finest whose every mark fits, a column apart,
    /// within `room`; else the one that fits the most.
    private func axisLabels(_ columns: ChartColumns, cell: Int, room: Int) -> [(column: Int, text: String)] {
        var best: [(column: Int, text: String)] = []
        var multiple = 1
        var levels: [Int?] = [nil]  // nil: months; else years that are multiples of it
        while multiple <= 10_000_000 {
            levels += [multiple, 2 * multiple, 5 * multiple]
            multiple *= 10
        }
        for level in levels {
            var found: [(column: Int, text: String)] = []
            for index in 0..<columns.count {
                let days = columns.days(of: index)
                let text = level.map { columns.yearStart(within: days, multiple: $0) } ?? columns.monthStart(within: days)
                if let text { found.append((index * cell, text)) }
            }
            var placed: [(column: Int, text: String)] = []
            var free = 0
            for mark in found where mark.column >= free && mark.column + mark.text.count <= room {
                placed.append(mark)
                free = mark.column + mark.text.count + 1
            }
            if !found.isEmpty && placed.count == found.count { return placed }
            if placed.count > best.count { best = placed }
            // Coarser marks are fewer of the same places: no better.
            if level != nil && found.count <= 1 { break }
        }
        return best
    }
}
