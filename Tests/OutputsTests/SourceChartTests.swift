import BackendUpload
import DisplayText
import HealthDays
@testable import Outputs
import Testing

/// `inspect`'s chart of each step source's days: exact lines on fixed data, at 80 and 120
/// columns, in Unicode and ASCII; every width, from none to wide, stays within itself.
@Suite struct SourceChartTests {
    /// The server's rules are applied as on 2024-04-01.
    static let today = LocalDate("2024-04-01")!

    /// A chart of per-source day totals, refused days found by `UploadRules` as `inspect` finds them.
    static func chart(_ entries: [SourceDayTotal], sources: [String]) -> SourceChart {
        let days = highestSourcePerDay(entries)
        var refusals: [LocalDate: DayRefusal] = [:]
        for day in days { refusals[day.date] = UploadRules.refusal(of: day, today: today) }
        return SourceChart(days: days, sources: sources, refusals: refusals)
    }

    static func each(_ from: String, _ to: String, _ source: String, _ steps: (LocalDate) -> Int) -> [SourceDayTotal] {
        var entries: [SourceDayTotal] = []
        var date = LocalDate(from)!
        while date <= LocalDate(to)! {
            entries.append(SourceDayTotal(date: date, source: source, steps: steps(date)))
            date = date.next!
        }
        return entries
    }

    /// Monday to Friday, or Saturday and Sunday (1970-01-01 was a Thursday).
    static func isWeekend(_ date: LocalDate) -> Bool {
        (Int(date.daysSinceEpoch) + 3) % 7 >= 5
    }

    /// 13 weeks from Monday 2024-01-01 to Sunday 2024-03-31: a phone every day but one week
    /// (6,500 steps on weekdays, 2,100 at weekends), a watch from Thursday 1 February (9,400 and
    /// 12,000), and its day of 120,000 on Wednesday 20 March, which the server refuses; Mi Fit's
    /// one week of 13,300 a day (4 to 10 March); and two days out of the server's range (one in
    /// 1999, one in 2099), left out.
    static let quarter: SourceChart = {
        let phone = each("2024-01-01", "2024-03-31", "Anna’s iPhone") { isWeekend($0) ? 2_100 : 6_500 }
            .filter { !($0.date >= LocalDate("2024-01-29")! && $0.date <= LocalDate("2024-02-04")!) }
        let watch = each("2024-02-01", "2024-03-31", "Anna’s Apple Watch") { date in
            date == LocalDate("2024-03-20")! ? 120_000 : isWeekend(date) ? 12_000 : 9_400
        }
        let miFit = each("2024-03-04", "2024-03-10", "Mi Fit") { _ in 13_300 }
        let outOfRange = [SourceDayTotal(date: LocalDate("1999-12-31")!, source: "Anna’s iPhone", steps: 500),
                          SourceDayTotal(date: LocalDate("2099-01-01")!, source: "Anna’s iPhone", steps: 40)]
        return chart(phone + watch + miFit + outOfRange, sources: ["Anna’s iPhone", "Anna’s Apple Watch", "Mi Fit"])
    }()

    @Test func weeksAt80ColumnsInUnicode() {
        #expect(Self.quarter.lines(SourceChart.Style(width: 80, glyphs: .unicode)) == [
            "Steps by week",
            "  Anna’s iPhone      ▃▃▃▃▃▃▃▃▃▃▃▃···▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃▃",
            "  Anna’s Apple Watch ············▄▄▄▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆▆███▆▆▆",
            "  Mi Fit             ···························███·········",
            "  refused                                             !!!",
            "                     2024-01     2024-02     2024-03",
            "                     2024-01-01                   2024-03-31",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the",
            "  server refuses (see Refused days).",
            "  Every 3 columns a week (Monday to Sunday); its height: the source's mean steps",
            "  a day, █ 13,000 or more; · no steps; ! a day the server would refuse (see",
            "  Refused days).",
        ])
        // The scale: the 95th percentile of the 22 weeks with steps (by nearest rank the 21st
        // lowest, Mi Fit's 13,300), rounded down to two digits. The weeks' means: the phone's
        // (5 × 6,500 + 2 × 2,100) / 7 = 5,243, level 1 + ⌊5,243 × 7 / 13,000⌋ = 3; the watch's
        // first (Thursday to Sunday: 2 × 9,400 + 2 × 12,000) / 7 = 6,114, level 4; its full weeks
        // (5 × 9,400 + 2 × 12,000) / 7 = 10,143, level 6, and the one with 120,000, at the top.
    }

    @Test func daysAt120ColumnsInUnicode() {
        #expect(Self.quarter.lines(SourceChart.Style(width: 120, glyphs: .unicode)) == [
            "Steps by day",
            "  Anna’s iPhone      ▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂·······▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂▄▄▄▄▄▂▂",
            "  Anna’s Apple Watch ·······························▆▆▇▇▆▆▆▆▆▇▇▆▆▆▆▆▇▇▆▆▆▆▆▇▇▆▆▆▆▆▇▇▆▆▆▆▆▇▇▆▆▆▆▆▇▇▆▆█▆▆▇▇▆▆▆▆▆▇▇",
            "  Mi Fit             ·······························································███████·····················",
            "  refused                                                                                           !",
            "                     2024-01                        2024-02                      2024-03",
            "                     2024-01-01                                                                       2024-03-31",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the server refuses (see Refused days).",
            "  Each column a day; its height: the source's steps, █ 13,000 or more; · no steps; ! a day the server would refuse (see",
            "  Refused days).",
        ])
        // 91 days fit in the 99 columns beside the names. The scale: the 144th lowest of 151
        // source-days, Mi Fit's 13,300; the phone's 6,500 is level 1 + ⌊6,500 × 7 / 13,000⌋ = 4,
        // its 2,100 level 2, the watch's 9,400 level 6 and 12,000 level 7. The refused day,
        // 20 March, is the 80th column.
    }

    @Test func weeksAt80ColumnsInASCII() {
        #expect(Self.quarter.lines(SourceChart.Style(width: 80, glyphs: .ascii)) == [
            "Steps by week",
            "  Anna’s iPhone      ============...========================",
            "  Anna’s Apple Watch ............+++##################@@@###",
            "  Mi Fit             ...........................@@@.........",
            "  refused                                             !!!",
            "                     2024-01     2024-02     2024-03",
            "                     2024-01-01                   2024-03-31",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the",
            "  server refuses (see Refused days).",
            "  Every 3 columns a week (Monday to Sunday); its mark: the source's mean steps a",
            "  day, from : (least) to @ (13,000 or more); . no steps; ! a day the server",
            "  would refuse (see Refused days).",
        ])
    }

    @Test func daysAt120ColumnsInASCII() {
        let lines = Self.quarter.lines(SourceChart.Style(width: 120, glyphs: .ascii))
        #expect(lines == [
            "Steps by day",
            "  Anna’s iPhone      +++++--+++++--+++++--+++++--.......+++++--+++++--+++++--+++++--+++++--+++++--+++++--+++++--",
            "  Anna’s Apple Watch ...............................##%%#####%%#####%%#####%%#####%%#####%%#####%%##@##%%#####%%",
            "  Mi Fit             ...............................................................@@@@@@@.....................",
            "  refused                                                                                           !",
            "                     2024-01                        2024-02                      2024-03",
            "                     2024-01-01                                                                       2024-03-31",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the server refuses (see Refused days).",
            "  Each column a day; its mark: the source's steps, from : (least) to @ (13,000 or more); . no steps; ! a day the server",
            "  would refuse (see Refused days).",
        ])
        // The names are data, shown as they are; everything the chart draws is ASCII.
        for line in lines {
            #expect(line.replacingOccurrences(of: "Anna’s", with: "Anna's").utf8.allSatisfy { $0 < 0x80 }, "\(line)")
        }
    }

    /// Names of every script line up by display width; a long one is cut with an ellipsis, a
    /// control character escaped as in every table.
    @Test func namesAreAlignedByDisplayWidthAndCut() {
        let lines = Self.names.lines(SourceChart.Style(width: 80, glyphs: .unicode))
        #expect(lines == [
            "Steps by day",
            "  Ольга’s Apple Watch ⌚️                 ████████████████████·····",
            "  华为运动健康                           ····▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄",
            "  com.google.android.apps.fitness.with.… ·········▃▃▃·············",
            "  Esc\\u{1b}[31mRed\\u{a}line              ··············▁··········",
            "                                         2024-03",
            "                                         2024-03-01     2024-03-25",
            "  Each column a day; its height: the source's steps, █ 9,000 or more; · no",
            "  steps.",
        ])
        for line in lines[1...4] {
            let name = line.prefix { $0 != "█" && $0 != "·" }
            #expect(String(name).displayWidth == 2 + 38 + 1, "\(line)")
        }
        let narrow = Self.names.lines(SourceChart.Style(width: 33, glyphs: .ascii))
        #expect(Array(narrow[1...4]) == [
            "  Ольга’s Appl... @@@@@@@@@+++...",
            "  华为运动健康    ...++++++++++++",
            "  com.google.a... ...::::::......",
            "  Esc\\u{1b}[31... ......:::......",
        ])
    }

    /// 30 years: a column a year, marks every fifth year at 80 columns, every second at 120. The
    /// phone's 4,000 a day is level 1 + ⌊4,000 × 7 / 8,000⌋ = 4; the watch's year 2016 is a gap.
    @Test func thirtyYears() {
        let phone = Self.each("1995-01-01", "2012-12-31", "Phone") { _ in 4_000 }
        let watch = Self.each("2008-01-01", "2024-12-31", "Watch") { _ in 8_000 }.filter { $0.date.components.year != 2016 }
        let chart = SourceChart(days: highestSourcePerDay(phone + watch), sources: ["Phone", "Watch"], refusals: [:])
        #expect(chart.lines(SourceChart.Style(width: 80, glyphs: .unicode)) == [
            "Steps by year",
            "  Phone ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄························",
            "  Watch ··························████████████████··████████████████",
            "        1995      2000      2005      2010      2015      2020",
            "        1995-01-01                                        2024-12-31",
            "  Every 2 columns a year; its height: the source's mean steps a day, █ 8,000 or",
            "  more; · no steps.",
        ])
        #expect(chart.lines(SourceChart.Style(width: 120, glyphs: .unicode)) == [
            "Steps by year",
            "  Phone ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄····································",
            "  Watch ·······································████████████████████████···████████████████████████",
            "           1996  1998  2000  2002  2004  2006  2008  2010  2012  2014  2016  2018  2020  2022  2024",
            "        1995-01-01                                                                      2024-12-31",
            "  Every 3 columns a year; its height: the source's mean steps a day, █ 8,000 or more; · no steps.",
        ])
    }

    /// The widest span a reader gives (1970 to 2200), and the widest a `LocalDate` holds. A
    /// column of five years has the mean of its 1,826 days: 4,000 steps on one day is 2.19 a day
    /// in 1970-1974 and 10.96 in 2200 (its 365 days in the span), the scale.
    @Test func extremeSpans() {
        let entries = [SourceDayTotal(date: LocalDate("1970-01-01")!, source: "Phone", steps: 4_000),
                       SourceDayTotal(date: LocalDate("2200-12-31")!, source: "Phone", steps: 4_000)]
        let chart = SourceChart(days: highestSourcePerDay(entries), sources: [], refusals: [:])
        #expect(chart.lines(SourceChart.Style(width: 80, glyphs: .unicode)) == [
            "Steps by 5 years",
            "  Phone ▂·············································█",
            "              2000      2050      2100      2150      2200",
            "        1970-01-01                           2200-12-31",
            "  Each column 5 years; its height: the source's mean steps a day, █ 10 or more;",
            "  · no steps.",
        ])
        let widest = Self.extreme.lines(SourceChart.Style(width: 80, glyphs: .unicode))
        #expect(widest.first == "Steps by 200,000 years")
        #expect(widest.count == 7)
    }

    @Test func everyWidthStaysWithinIt() {
        let single = SourceChart(days: highestSourcePerDay([SourceDayTotal(date: LocalDate("2024-02-29")!, source: "x", steps: 1)]),
                                 sources: [], refusals: [:])
        for (chart, rows) in [(Self.quarter, 3), (Self.names, 4), (Self.extreme, 2), (single, 1)] {
            for width in -1...200 {
                for glyphs in [SourceChart.Glyphs.unicode, .ascii] {
                    let lines = chart.lines(SourceChart.Style(width: width, glyphs: glyphs))
                    for line in lines {
                        #expect(line.displayWidth <= width, "\(width): \(line)")
                        #expect(line.last != " " && !line.isEmpty && !line.contains("\n"), "\(width): \(line)")
                    }
                    if width < 1 {
                        #expect(lines.isEmpty)
                    } else if width < SourceChart.minimumWidth {
                        #expect(lines.count == 1)
                    } else {
                        // The heading, a row per source, then the axis, all cells starting in one column.
                        #expect(lines.count > rows + 2, "\(width)")
                        // Cells hold no space: they are what follows a row's last one.
                        let starts = lines[1...rows].map { line in
                            line.displayWidth - String(line.split(separator: " ").last ?? "").displayWidth
                        }
                        #expect(Set(starts).count == 1, "\(width): \(lines[1...rows])")
                    }
                }
            }
        }
        #expect(Self.quarter.lines(SourceChart.Style(width: 19, glyphs: .unicode)) == ["Steps: too narrow"])
        #expect(Self.quarter.lines(SourceChart.Style(width: 12, glyphs: .unicode)) == ["Steps: too …"])
        #expect(Self.quarter.lines(SourceChart.Style(width: 12, glyphs: .ascii)) == ["Steps: to..."])
    }

    /// With styling on, the `refused` row alone is in the warning style, its escapes around the
    /// row as cut to the width: without them the lines are the plain ones, as wide.
    @Test func theRefusedRowIsStyledOnceCut() {
        let on = TextStyling(isOn: true)
        for width in [20, 45, 80, 120] {
            let style = SourceChart.Style(width: width, glyphs: .unicode)
            let plain = Self.quarter.lines(style)
            let styled = Self.quarter.lines(style, styling: on)
            #expect(styled.count == plain.count)
            for (index, (line, plainLine)) in zip(styled, plain).enumerated() {
                #expect(line == (plainLine.hasPrefix("  refused ") ? "  " + TextStyle.warning.apply(to: String(plainLine.dropFirst(2)))
                                                                    : plainLine),
                        "\(width), line \(index): \(line)")
            }
            #expect(styled[4] != plain[4], "\(width): \(plain)")
        }
        let single = SourceChart(days: highestSourcePerDay([SourceDayTotal(date: LocalDate("2024-02-29")!, source: "x", steps: 1)]),
                                 sources: [], refusals: [:])
        #expect(single.lines(.standard, styling: on) == single.lines(.standard))
    }

    @Test func withoutDaysThereIsNoChart() {
        let chart = SourceChart(days: [], sources: ["Phone"], refusals: [:])
        #expect(chart.lines(.standard).isEmpty)
    }

    /// Days the server refuses for their date would stretch the span to decades: left out, counted.
    @Test func daysOutOfRangeAreLeftOutAndCounted() {
        let entries = [SourceDayTotal(date: LocalDate("1970-01-01")!, source: "Phone", steps: 400),
                       SourceDayTotal(date: LocalDate("2150-06-01")!, source: "Phone", steps: 400)]
        #expect(Self.chart(entries, sources: ["Phone"]).lines(.standard) == [
            "Steps by day",
            "  (none)",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the",
            "  server refuses (see Refused days).",
        ])
        let more = entries + [SourceDayTotal(date: LocalDate("2024-03-01")!, source: "Phone", steps: 400)]
        #expect(Self.chart(more, sources: ["Phone"]).lines(.standard) == [
            "Steps by day",
            "  Phone ███",
            "        2024-03",
            "        2024-03-01",
            "  Left out: 2 days dated before 2000-01-01 or more than a day ahead, which the",
            "  server refuses (see Refused days).",
            "  Every 3 columns a day; its height: the source's steps, █ 400 or more; · no",
            "  steps.",
        ])
    }

    /// Rows in the order given, then sources found only in the days; one without a day (or with
    /// a correction below zero only) is a row of gaps.
    @Test func rowsKeepTheGivenOrder() {
        let entries = [SourceDayTotal(date: LocalDate("2024-03-01")!, source: "Late", steps: 100),
                       SourceDayTotal(date: LocalDate("2024-03-02")!, source: "Phone", steps: 200),
                       SourceDayTotal(date: LocalDate("2024-03-02")!, source: "Fit", steps: -50)]
        let lines = Self.chart(entries, sources: ["Phone", "Idle", "Fit"]).lines(.standard)
        #expect(Array(lines[0...4]) == [
            "Steps by day",
            "  Phone ···███",
            "  Idle  ······",
            "  Fit   ······",
            "  Late  ▄▄▄···",
        ])
    }

    /// The scale: the 95th percentile of the columns with steps, two significant digits, rounded down.
    @Test func scaleAndLevels() {
        #expect(SourceChart.scaleTop([]) == 1)
        #expect(SourceChart.scaleTop([0, 0.3]) == 1)
        #expect(SourceChart.scaleTop([57.9]) == 57)
        #expect(SourceChart.scaleTop([9_281]) == 9_200)
        #expect(SourceChart.scaleTop([123_456, 0]) == 120_000)
        // 40 ordinary days and two extreme ones: the scale is that of the ordinary days.
        #expect(SourceChart.scaleTop(Array(repeating: 5_000, count: 40) + [90_000, 150_000]) == 5_000)
        #expect(SourceChart.scaleTop([.infinity]) == .greatestFiniteMagnitude)
        #expect(SourceChart.level(of: 0, top: 7) == 0)
        #expect(SourceChart.level(of: -3, top: 7) == 0)
        #expect(SourceChart.level(of: .nan, top: 7) == 0)
        #expect(SourceChart.level(of: 0.5, top: 7) == 1)
        #expect(SourceChart.level(of: 1, top: 7) == 2)
        #expect(SourceChart.level(of: 6.99, top: 7) == 7)
        #expect(SourceChart.level(of: 7, top: 7) == 8)
        #expect(SourceChart.level(of: .infinity, top: 7) == 8)
    }

    static let names: SourceChart = {
        let a = each("2024-03-01", "2024-03-20", "Ольга’s Apple Watch ⌚️") { _ in 9_000 }
        let b = each("2024-03-05", "2024-03-25", "华为运动健康") { _ in 5_000 }
        let c = each("2024-03-10", "2024-03-12", "com.google.android.apps.fitness.with.a.very.long.package.name.indeed") { _ in 3_000 }
        let d = each("2024-03-15", "2024-03-15", "Esc\u{1b}[31mRed\nline") { _ in 700 }
        return chart(a + b + c + d, sources: [])
    }()

    /// Days from the first to the last a `LocalDate` holds, one with `Int.max` steps.
    static let extreme: SourceChart = {
        let entries = [SourceDayTotal(date: LocalDate(daysSinceEpoch: .min), source: "Clock", steps: 10),
                       SourceDayTotal(date: LocalDate(daysSinceEpoch: 0), source: "Phone", steps: .max),
                       SourceDayTotal(date: LocalDate(daysSinceEpoch: .max), source: "Clock", steps: 1)]
        return SourceChart(days: highestSourcePerDay(entries), sources: [], refusals: [:])
    }()
}
