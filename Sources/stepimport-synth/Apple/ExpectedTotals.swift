import Foundation

/// The day totals an importer should report for the export the generator wrote,
/// computed from the generator's own notes of its step records.
///
/// Deliberately simple and separate from the importer's code, so the two can
/// be checked against each other. The rules (docs/rules.md, *The highest-source
/// rule*): top-level step records only; exact duplicates (source, start, end,
/// value) collapse; a sample
/// belongs to the local day of its timestamp and one that crosses midnight is
/// split in proportion to time (a zero-length one counts whole); per source and
/// day the sum is rounded half away from zero; the highest source wins, ties to
/// the name that sorts first by UTF-8 bytes; zero days are dropped.
struct ExpectedTotals {
    /// The winning source of one day.
    struct DayWinner {
        let dayNumber: Int
        let steps: Int
        let source: ExportSource
    }

    /// Days placed by the offset in the timestamp text (`+0100` throughout).
    let fileOffsetDays: [DayWinner]
    /// Every source's rounded, non-zero total per day, by the file-offset rule.
    let fileOffsetSources: [ExportSource: [Int: Int]]
    /// Days placed on Berlin's wall clock, DST included (`--tz Europe/Berlin`).
    let berlinDays: [DayWinner]

    /// The zone of the `tz` section.
    static let zoneIdentifier = "Europe/Berlin"

    init(samples: [WrittenStepSample]) {
        var seen = Set<SampleKey>()
        var unique: [WrittenStepSample] = []
        unique.reserveCapacity(samples.count)
        for sample in samples where seen.insert(SampleKey(sample)).inserted {
            unique.append(sample)
        }

        let fileSums = ExpectedTotals.daySums(unique, placement: .fileOffset)
        fileOffsetSources = ExpectedTotals.rounded(fileSums)
        fileOffsetDays = ExpectedTotals.winners(fileOffsetSources)

        let berlinSums = ExpectedTotals.daySums(unique, placement: .zone(ExpectedTotals.zoneIdentifier))
        berlinDays = ExpectedTotals.winners(ExpectedTotals.rounded(berlinSums))
    }

    /// Sums per source per day, splitting samples that cross a local midnight in
    /// proportion to the seconds on each side.
    private static func daySums(_ samples: [WrittenStepSample],
                                placement: DayPlacement) -> [ExportSource: [Int64: Double]] {
        let dayOf = placement.day
        let midnight = placement.midnight
        var sums: [ExportSource: [Int64: Double]] = [:]
        for sample in samples {
            var day = dayOf(sample.start)
            if sample.end <= sample.start {
                sums[sample.source, default: [:]][day, default: 0] += sample.value
                continue
            }
            let duration = Double(sample.end - sample.start)
            var from = sample.start
            while from < sample.end {
                let next = midnight(day + 1)
                let to = min(sample.end, next)
                if to > from {
                    sums[sample.source, default: [:]][day, default: 0] += sample.value * (Double(to - from) / duration)
                }
                from = to
                day += 1
            }
        }
        return sums
    }

    /// Rounds every source-day sum half away from zero and drops zeros.
    private static func rounded(_ sums: [ExportSource: [Int64: Double]]) -> [ExportSource: [Int: Int]] {
        var result: [ExportSource: [Int: Int]] = [:]
        for (source, days) in sums {
            for (day, sum) in days {
                let steps = Int(sum.rounded(.toNearestOrAwayFromZero))
                if steps != 0 { result[source, default: [:]][Int(day)] = steps }
            }
        }
        return result
    }

    /// The highest source per day; ties go to the name first in UTF-8 byte order.
    private static func winners(_ totals: [ExportSource: [Int: Int]]) -> [DayWinner] {
        var best: [Int: DayWinner] = [:]
        for source in ExportSource.allCases {
            for (day, steps) in totals[source] ?? [:] where steps > 0 {
                if let current = best[day] {
                    let wins = steps > current.steps
                        || (steps == current.steps && utf8Precedes(source.name, current.source.name))
                    if !wins { continue }
                }
                best[day] = DayWinner(dayNumber: day, steps: steps, source: source)
            }
        }
        return best.values.sorted { $0.dayNumber < $1.dayNumber }
    }

    /// The JSON document written by `--expected`: these totals' sections, then
    /// `sections` (each a `"key": value` member, indented by two spaces).
    func json(appending sections: [String] = []) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        func date(_ day: Int) -> String { quoted(CivilDate(dayNumber: day).text) }
        func dayList(_ days: [DayWinner], indent: String) -> String {
            days.map { "\(indent){\"date\": \(date($0.dayNumber)), \"steps\": \($0.steps), \"source\": \(quoted($0.source.name))}" }
                .joined(separator: ",\n")
        }

        var out = "{\n  \"rule\": \"file-offset\",\n  \"days\": [\n"
        out += dayList(fileOffsetDays, indent: "    ")
        out += "\n  ],\n  \"sources\": {\n"
        let sources = fileOffsetSources.keys.sorted { utf8Precedes($0.name, $1.name) }
        out += sources.map { source in
            let days = fileOffsetSources[source]!.sorted { $0.key < $1.key }
            let entries = days.map { "      \(date($0.key)): \($0.value)" }.joined(separator: ",\n")
            return "    \(quoted(source.name)): {\n\(entries)\n    }"
        }.joined(separator: ",\n")
        out += "\n  },\n  \"tz\": {\n    \"zone\": \(quoted(ExpectedTotals.zoneIdentifier)),\n    \"days\": [\n"
        out += dayList(berlinDays, indent: "      ")
        out += "\n    ]\n  }"
        for section in sections {
            out += ",\n" + section
        }
        out += "\n}\n"
        return out
    }
}

/// Identity of a sample for the duplicate collapse.
private struct SampleKey: Hashable {
    let source: Int
    let start: Int64
    let end: Int64
    let value: UInt64

    init(_ sample: WrittenStepSample) {
        source = sample.source.rawValue
        start = sample.start
        end = sample.end
        value = sample.value.bitPattern
    }
}

/// Whether `a` sorts before `b` comparing UTF-8 bytes (not Unicode collation).
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
