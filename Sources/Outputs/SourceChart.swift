import BackendUpload
import DisplayText
import HealthDays

/// `inspect`'s picture of the steps: each step source's daily totals over the export's span, one
/// row per source and a column per day, week, month, quarter or year (whichever fits the width),
/// the height of a block character standing for the column's mean steps a day. It answers at a
/// glance which device was in use when, where phone and watch overlap, and where an app imported
/// history again.
///
/// Columns with a day the server would refuse are marked on a row of their own; days refused for
/// their date (before 2000, more than a day ahead) are left out of the span, which they would
/// stretch to decades, and counted. The lines come out whole: `lines(_:)` is a pure function of
/// the days and the style, and no line is wider than the style's width.
public struct SourceChart: Sendable {
    /// The characters the chart is drawn with.
    public enum Glyphs: Sendable, Equatable {
        /// Block elements (▁ to █) and a middle dot for a gap.
        case unicode
        /// ASCII only, for a terminal that is not UTF-8 (or `--ascii`): `:` to `@` and `.`.
        case ascii
    }

    /// How a chart is drawn: its width in terminal columns and its characters.
    public struct Style: Sendable, Equatable {
        public var width: Int
        public var glyphs: Glyphs

        public init(width: Int, glyphs: Glyphs) {
            self.width = width
            self.glyphs = glyphs
        }

        /// 80 columns of Unicode: what a terminal that says nothing about itself gets.
        public static let standard = Style(width: 80, glyphs: .unicode)
    }

    /// One source's days with steps, as days since 1970-01-01, in date order.
    struct Row: Sendable {
        let name: String
        var days: [(day: Int, steps: Double)] = []
    }

    let rows: [Row]
    /// The span: the first and last day with steps, days refused for their date left out; nil
    /// when no day is left.
    let span: ClosedRange<Int>?
    /// The days in the span the server would refuse for their steps (over the maximum, negative).
    let refusedDays: [Int]
    /// The days with steps left out of the span because the server refuses their date.
    let leftOut: Int
    /// Whether there were any days at all (without, `lines` is empty: there is nothing to draw).
    let hasDays: Bool

    /// Narrower than this, the chart is one line saying so.
    public static let minimumWidth = 20

    /// A chart of `days` (each day's sources and their totals: `DayTotal.sources`), a row per
    /// source in the order of `sources`, then any other source in `days` in the order it first
    /// appears; a source without a day is a row of gaps. `refusals` are the days
    /// `UploadRules.refusal(of:today:)` refuses, with why.
    public init(days: [DayTotal], sources: [String], refusals: [LocalDate: DayRefusal]) {
        var rowOf: [String: Int] = [:]
        for (index, source) in sources.enumerated() where rowOf[source] == nil { rowOf[source] = index }
        var rows = sources.map { Row(name: $0) }
        var leftOut = 0
        var refused: [Int] = []
        var first = Int.max
        var last = Int.min
        for day in days.sorted(by: { $0.date < $1.date }) {
            let date = Int(day.date.daysSinceEpoch)
            if let refusal = refusals[day.date] {
                if Self.refusesTheDate(refusal) {
                    leftOut += 1
                    continue
                }
                refused.append(date)
            }
            first = min(first, date)
            last = max(last, date)
            for source in day.sources {
                let row: Int
                if let known = rowOf[source.source] {
                    row = known
                } else {
                    row = rows.count
                    rowOf[source.source] = row
                    rows.append(Row(name: source.source))
                }
                // A source's day of no steps, or fewer (a correction), is a gap.
                if source.steps > 0 { rows[row].days.append((date, Double(source.steps))) }
            }
        }
        self.rows = rows
        span = first <= last ? first...last : nil
        refusedDays = refused
        self.leftOut = leftOut
        hasDays = !days.isEmpty
    }

    /// Whether the server refuses a day for its date, whatever its steps.
    private static func refusesTheDate(_ refusal: DayRefusal) -> Bool {
        switch refusal {
        case .beforeEarliestDay, .inTheFuture: return true
        case .negativeSteps, .overDailyMaximum: return false
        }
    }

    /// The chart's lines, without line breaks, none wider than `style.width` terminal columns
    /// (none at all for a width below 1): a heading, a row per source, the `refused` row, the
    /// axis, the days left out and the legend. Empty when there were no days. With `styling` on,
    /// the `refused` row is in the warning style, its escapes added once it is cut to the width,
    /// so that they take no column (and `displayWidth`, which counts them, is of the plain lines).
    public func lines(_ style: Style, styling: TextStyling = .off) -> [String] {
        guard hasDays, style.width > 0 else { return [] }
        guard style.width >= Self.minimumWidth else {
            return ["Steps: too narrow".truncated(toDisplayWidth: style.width, ellipsis: style.glyphs == .ascii ? "..." : "…")]
        }
        var lines: [String]
        var legend: String?
        if let span {
            (lines, legend) = drawing(span, style)
        } else {
            lines = ["Steps by day", "  (none)"]
        }
        if leftOut > 0 {
            lines += prose("Left out: \(Plural.count(leftOut, "day")) dated before \(UploadRules.earliestDay) or more than a day "
                           + "ahead, which the server refuses (see Refused days).", style)
        }
        if let legend { lines += prose(legend, style) }
        lines = lines.map { $0.truncated(toDisplayWidth: style.width, ellipsis: "") }
        // The drawing's lines: the heading, a row per source, then the `refused` row, styled from
        // its label on (as `TextTable` styles a row).
        if span != nil, !refusedDays.isEmpty {
            let row = lines[1 + rows.count]
            let indent = row.prefix { $0 == " " }
            lines[1 + rows.count] = indent + styling.apply(.warning, to: String(row.dropFirst(indent.count)))
        }
        return lines
    }

    /// `text` wrapped under the chart, indented by two columns.
    func prose(_ text: String, _ style: Style) -> [String] {
        text.wrapped(width: style.width - 2).map { "  " + $0 }
    }
}
