import Foundation

/// A `metrics` section of `stepimport-synth`'s `--expected` file (apple and hc-db alike), and the
/// comparison of a printed `--metric all` CSV with it: the one copy both generated-export tests use.
struct ExpectedMetricsSection {
    struct Malformed: Error { let what: String }

    /// The key it was read from (`metrics`, `metrics_tz`).
    let name: String
    /// The zone rule it was computed under, when the section says.
    let rule: String?
    /// Date → column → value.
    let days: [String: [String: NSNumber]]
    let leftOut: [String: Int]
    /// `"date column"` of each cell that may round either way.
    let roundingTies: Set<String>

    /// Reads `root[key]`.
    init(_ root: [String: Any], key: String) throws {
        guard let object = root[key] as? [String: Any], let list = object["days"] as? [[String: Any]],
              let leftOut = object["left_out"] as? [String: NSNumber],
              let ties = object["rounding_ties"] as? [[String: String]]
        else { throw Malformed(what: key) }
        var days: [String: [String: NSNumber]] = [:]
        for day in list {
            guard let date = day["date"] as? String else { throw Malformed(what: "\(key): a day without date") }
            days[date] = day.compactMapValues { $0 as? NSNumber }
        }
        name = key
        rule = object["rule"] as? String
        self.days = days
        self.leftOut = leftOut.mapValues(\.intValue)
        roundingTies = Set(ties.map { "\($0["date"] ?? "") \($0["column"] ?? "")" })
    }

    /// The step days of a list of `{"date", "steps"}` objects.
    static func stepDays(_ list: [[String: Any]]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: list.compactMap { day in
            (day["date"] as? String).flatMap { date in (day["steps"] as? NSNumber).map { (date, $0.intValue) } }
        })
    }

    /// The differences between `printed` and this section, one line each: every one of `columns`
    /// must be printed, every printed day and cell must equal the section's (empty where it has
    /// none); a cell listed in `rounding_ties` may be one unit (in its last place) either side.
    func differences(_ printed: PrintedMetricTable, columns: [String], oneDecimal: Set<String>) -> [String] {
        var problems: [String] = []
        let header = printed.header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for column in columns where !header.contains(column) {
            problems.append("column \(column) not printed (header: \(printed.header))")
        }
        let missing = Set(days.keys).subtracting(printed.rows.keys).sorted()
        let extra = Set(printed.rows.keys).subtracting(days.keys).sorted()
        if !missing.isEmpty { problems.append("days not printed: \(missing.prefix(10).joined(separator: " "))") }
        if !extra.isEmpty { problems.append("days printed but not expected: \(extra.prefix(10).joined(separator: " "))") }
        for (date, expectedDay) in days.sorted(by: { $0.key < $1.key }) {
            guard let row = printed.rows[date] else { continue }
            for column in header.dropFirst() {
                let cell = row[column] ?? ""
                guard let value = expectedDay[column] else {
                    if !cell.isEmpty { problems.append("\(date) \(column): printed \(cell), expected empty") }
                    continue
                }
                let tenths = oneDecimal.contains(column)
                let pattern = tenths ? #"^-?[0-9]+\.[0-9]$"# : #"^-?[0-9]+$"#
                guard cell.range(of: pattern, options: .regularExpression) != nil, let number = Double(cell) else {
                    problems.append("\(date) \(column): printed '\(cell)', expected \(value)")
                    continue
                }
                let unit = tenths ? 0.1 : 1
                let allowed = roundingTies.contains("\(date) \(column)") ? unit : 0
                if abs(number - value.doubleValue) > allowed + unit / 1000 {
                    problems.append("\(date) \(column): printed \(cell), expected \(value)")
                }
            }
        }
        return problems
    }
}

/// A printed CSV: its header and, per date, each column's cell text.
struct PrintedMetricTable {
    let header: String
    let rows: [String: [String: String]]

    init(csv: String) throws {
        struct Malformed: Error { let line: String }
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        guard !lines.isEmpty else { throw Malformed(line: "(no header)") }
        header = lines.removeFirst()
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var rows: [String: [String: String]] = [:]
        for line in lines {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == names.count else { throw Malformed(line: line) }
            rows[cells[0]] = Dictionary(uniqueKeysWithValues: zip(names.dropFirst(), cells.dropFirst()))
        }
        self.rows = rows
    }
}
