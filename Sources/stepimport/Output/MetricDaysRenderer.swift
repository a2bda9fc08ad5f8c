import DisplayText
import Foundation
import HealthDays
import StreamingText

/// Renders the days of `--metric` (docs/metrics.md): a row per day and a column per metric
/// column, empty (JSON `null`) where the day has no value; `--by-source` in the long form, a row
/// per day, column and source. Steps alone never come here: `DayTotalsRenderer` prints them.
struct MetricDaysRenderer {
    let format: OutputFormat
    let bySource: Bool
    let columns: [MetricColumn]
    /// Words for the table footer: which zone rule placed the values.
    let zoneDescription: String
    /// Under `--rule hc-priority`, the priority list used (sources, highest first): `--by-source`
    /// then shows each app's share of the day's slices and its place in the list, not a winner.
    var priority: [String]? = nil

    func render(days: [MetricDay], sources: [MetricSourceValue]) -> String {
        switch (format, bySource) {
        case (.table, false): table(days)
        case (.table, true): tableBySource(sources, days: days)
        case (.csv, false): csv(days)
        case (.csv, true): csvBySource(sources)
        case (.json, false): json(days)
        case (.json, true): jsonBySource(days, sources)
        }
    }

    /// A value as every format writes it: whole columns as integers, the others with one decimal.
    static func text(_ value: Double, _ column: MetricColumn) -> String {
        if column.decimals == 0, let whole = Int(exactly: value) { return String(whole) }
        return String(format: "%.\(column.decimals)f", value)
    }

    private func cell(_ day: MetricDay, _ column: MetricColumn) -> String {
        day[column].map { MetricDaysRenderer.text($0, column) } ?? ""
    }

    // MARK: - CSV

    private func csv(_ days: [MetricDay]) -> String {
        var out = (["date"] + columns.map(\.name)).joined(separator: ",") + "\n"
        for day in days {
            out += day.date.description
            for column in columns {
                out += ","
                out += cell(day, column)
            }
            out += "\n"
        }
        return out
    }

    /// `date,metric,source,value,winner`: `metric` the column's name, `winner` yes, no or
    /// implausible (left out of the day's choice).
    private func csvBySource(_ values: [MetricSourceValue]) -> String {
        if let priority { return csvByPriority(values, priority) }
        var out = "date,metric,source,value,winner\n"
        for value in values {
            out += "\(value.date),\(value.column.name),\(csvField(value.source)),"
                + "\(MetricDaysRenderer.text(value.value, value.column)),\(MetricDaysRenderer.standingWord(value.standing))\n"
        }
        return out
    }

    private static func standingWord(_ standing: MetricSourceValue.Standing) -> String {
        switch standing {
        case .winner: "yes"
        case .other: "no"
        case .implausible: "implausible"
        }
    }

    // MARK: - JSON

    /// `{"days":[{"date":"2024-03-15","steps":8123,"hr_avg":72.4,"sleep_min":null,...}]}`.
    private func json(_ days: [MetricDay]) -> String {
        // Appended in place: a list of every day's text joined at the end held the output twice.
        var out = "{\"days\":["
        for (index, day) in days.enumerated() {
            if index > 0 { out += "," }
            out += jsonDay(day)
        }
        return out + "]}\n"
    }

    private func jsonDay(_ day: MetricDay) -> String {
        var fields = ["\"date\":\"\(day.date)\""]
        for column in columns {
            fields.append("\"\(column.name)\":" + (day[column].map { MetricDaysRenderer.text($0, column) } ?? "null"))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Each day as in the plain JSON, with its sources: `"sources":[{"metric":..,"source":..,
    /// "value":..,"winner":"yes"|"no"|"implausible"}]`.
    private func jsonBySource(_ days: [MetricDay], _ values: [MetricSourceValue]) -> String {
        let rule = priority == nil ? "" : "\"rule\":\"hc-priority\","
        var byDate: [LocalDate: [MetricSourceValue]] = [:]
        for value in values { byDate[value.date, default: []].append(value) }
        // A day whose every source was left out has no row in `days` but its sources are shown.
        var rows = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
        for date in byDate.keys where rows[date] == nil { rows[date] = MetricDay(date: date) }
        let entries = rows.keys.sorted().map { date -> String in
            let day = jsonDay(rows[date]!)
            let sources = (byDate[date] ?? []).map { value in
                "{\"metric\":\"\(value.column.name)\",\"source\":\(JSONString.literal(value.source)),"
                    + "\"value\":\(MetricDaysRenderer.text(value.value, value.column)),"
                    + (priority.map { "\"priority\":\(DayTotalsRenderer.place(of: value.source, in: $0))}" }
                        ?? "\"winner\":\"\(MetricDaysRenderer.standingWord(value.standing))\"}")
            }
            return day.dropLast() + ",\"sources\":[" + sources.joined(separator: ",") + "]}"
        }
        return "{\(rule)\"days\":[" + entries.joined(separator: ",") + "]}\n"
    }

    // MARK: - Table

    private static func header(_ column: MetricColumn) -> String {
        switch column {
        case .steps: "Steps"
        case .distanceMetres: "Distance m"
        case .activeKilocalories: "Active kcal"
        case .totalKilocalories: "Total kcal"
        case .flights: "Flights"
        case .exerciseMinutes: "Exercise min"
        case .moveMinutes: "Move min"
        case .heartPoints: "Heart pts"
        case .heartRateAverage: "HR avg"
        case .heartRateMinimum: "HR min"
        case .heartRateMaximum: "HR max"
        case .restingHeartRate: "Resting HR"
        case .heartRateVariability: "HRV ms"
        case .heartRateVariabilityRMSSD: "HRV RMSSD ms"
        case .vo2Max: "VO2max"
        case .sleepMinutes: "Sleep min"
        case .inBedMinutes: "In bed min"
        case .workouts: "Workouts"
        case .workoutMinutes: "Workout min"
        }
    }

    private func table(_ days: [MetricDay]) -> String {
        guard !days.isEmpty else { return footer(days) }
        var table = TextTable(["Date"] + columns.map(MetricDaysRenderer.header), rightAligned: Set(1...columns.count))
        for day in days {
            table.add([day.date.description] + columns.map { cell(day, $0) })
        }
        return table.rendered + footer(days)
    }

    private func tableBySource(_ values: [MetricSourceValue], days: [MetricDay]) -> String {
        guard !values.isEmpty else { return footer(days) }
        if let priority { return tableByPriority(values, days: days, priority) }
        var table = TextTable(["Date", "Metric", "Source", "Value"], rightAligned: [3])
        var lastDate: LocalDate?
        var lastColumn: MetricColumn?
        for value in values {
            let newDate = value.date != lastDate
            let newColumn = newDate || value.column != lastColumn
            let mark = switch value.standing {
            case .winner: "* "
            case .other: "  "
            case .implausible: "x "
            }
            table.add([newDate ? value.date.description : "", newColumn ? value.column.name : "",
                       mark + value.source.escapingControlCharacters(), MetricDaysRenderer.text(value.value, value.column)])
            lastDate = value.date
            lastColumn = value.column
        }
        return table.rendered + footer(days)
            + "* the source the day took (one source per metric, never a sum). "
            + "x left out: outside the plausible range.\n"
    }

    /// How many days, from when to when, and the zone rule.
    private func footer(_ days: [MetricDay]) -> String {
        let names = columns.map(\.name).joined(separator: ", ")
        guard let first = days.first, let last = days.last else {
            return "No days with \(names). Zone: \(zoneDescription).\n"
        }
        let span = days.count == 1 ? "\(first.date)" : "\(first.date) to \(last.date)"
        return "\n\(Plural.count(days.count, "day")) with values, \(span). Zone: \(zoneDescription).\n"
    }
}

// MARK: - --rule hc-priority

extension MetricDaysRenderer {
    /// `date,metric,source,value,priority`: what each app's slices gave the day (rounded as the
    /// column is), `priority` its place in the list (1 the highest).
    fileprivate func csvByPriority(_ values: [MetricSourceValue], _ priority: [String]) -> String {
        var out = "date,metric,source,value,priority\n"
        for value in values {
            out += "\(value.date),\(value.column.name),\(csvField(value.source)),"
                + "\(MetricDaysRenderer.text(value.value, value.column)),\(DayTotalsRenderer.place(of: value.source, in: priority))\n"
        }
        return out
    }

    /// Per day and column the day's value first, then each app's share and its place in the list.
    fileprivate func tableByPriority(_ values: [MetricSourceValue], days: [MetricDay], _ priority: [String]) -> String {
        let dayValues = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
        var table = TextTable(["Date", "Metric", "Source", "Value", "Priority"], rightAligned: [3, 4])
        var lastDate: LocalDate?
        var lastColumn: MetricColumn?
        for value in values {
            let newDate = value.date != lastDate
            if newDate || value.column != lastColumn {
                let total = dayValues[value.date]?[value.column].map { MetricDaysRenderer.text($0, value.column) } ?? ""
                table.add([newDate ? value.date.description : "", value.column.name, "= the day's value", total, ""])
            }
            table.add(["", "", "  " + value.source.escapingControlCharacters(), MetricDaysRenderer.text(value.value, value.column),
                       String(DayTotalsRenderer.place(of: value.source, in: priority))])
            lastDate = value.date
            lastColumn = value.column
        }
        return table.rendered + footer(days)
            + "Rule: hc-priority, Health Connect's own total; each app's share of the day's slices "
            + "(the shares need not add up to the day's value, which is cut or rounded once).\n"
    }
}
