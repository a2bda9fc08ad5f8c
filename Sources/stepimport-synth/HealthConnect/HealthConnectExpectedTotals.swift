/// The day totals an importer should report for a Health Connect file the generator wrote,
/// computed from the generator's own records as it writes them (so memory stays flat).
///
/// Deliberately simple and separate from the importer (docs/rules.md, *The highest-source
/// rule*): exact duplicates (source, start, end, value) count once; each sample is placed in
/// the offset the reader sees (its own start offset, or UTC for shapes without one, or its
/// wall clock read as UTC);
/// a sample that crosses midnight there is split in proportion to time, a zero-length one
/// counts whole; per source and day the sum is rounded half away from zero; the highest source
/// wins, ties to the name first in UTF-8 byte order; zero days are dropped.
///
/// Samples must be added in the order they are written, so that the sums add up in the same
/// order as the importer's; duplicates are only looked for within one generated day, which is
/// where the generator makes them.
struct HealthConnectExpectedTotals {
    private var sourceNames: [String] = []
    private var sums: [SourceDay: Double] = [:]
    private var seen = Set<SampleKey>()

    private struct SourceDay: Hashable {
        let source: Int
        let day: Int64
    }

    private struct SampleKey: Hashable {
        let source: Int
        let startMs: Int64
        let endMs: Int64
        let value: Double
    }

    private static let dayMs: Int64 = 86_400_000

    /// Starts a new generated day: duplicates of earlier days' samples are not looked for.
    mutating func beginDay() {
        seen.removeAll(keepingCapacity: true)
    }

    /// A small number for a source name, given in the order sources are met.
    mutating func sourceID(_ name: String) -> Int {
        if let index = sourceNames.firstIndex(of: name) { return index }
        sourceNames.append(name)
        return sourceNames.count - 1
    }

    /// Adds one sample; `offsetSeconds` is the offset the reader places it in (0 for UTC).
    mutating func add(source: Int, startMs: Int64, endMs: Int64, offsetSeconds: Int64, value: Double) {
        guard seen.insert(SampleKey(source: source, startMs: startMs, endMs: endMs, value: value)).inserted else { return }
        let start = startMs + offsetSeconds * 1000
        let end = endMs + offsetSeconds * 1000
        var day = floorDivide(start, HealthConnectExpectedTotals.dayMs)
        if end <= (day + 1) * HealthConnectExpectedTotals.dayMs {
            sums[SourceDay(source: source, day: day), default: 0] += value
            return
        }
        let length = Double(end - start)
        var from = start
        while from < end {
            let to = min(end, (day + 1) * HealthConnectExpectedTotals.dayMs)
            sums[SourceDay(source: source, day: day), default: 0] += value * Double(to - from) / length
            from = to
            day += 1
        }
    }

    /// Adds a total an export already made for one calendar day (day-total dumps).
    mutating func addDayTotal(source: Int, dayNumber: Int, steps: Double) {
        sums[SourceDay(source: source, day: Int64(dayNumber)), default: 0] += steps
    }

    /// The winning source per day, sorted by date.
    func days() -> [(dayNumber: Int, steps: Int, source: String)] {
        var best: [Int64: (steps: Int, source: String)] = [:]
        for (key, sum) in sums {
            let steps = Int(sum.rounded(.toNearestOrAwayFromZero))
            guard steps > 0 else { continue }
            let name = sourceNames[key.source]
            if let current = best[key.day],
               current.steps > steps || (current.steps == steps && current.source.utf8.lexicographicallyPrecedes(name.utf8)) {
                continue
            }
            best[key.day] = (steps, name)
        }
        return best.keys.sorted().map { (Int($0), best[$0]!.steps, best[$0]!.source) }
    }

    /// `{"days":[{"date":..,"steps":..,"source":..}]}`, one day a line, then `sections` (each a
    /// `"key": value` member indented by two spaces).
    func json(appending sections: [String] = []) -> [UInt8] {
        var out = ByteBuffer()
        out.append("{\n  \"days\": [")
        for (index, day) in days().enumerated() {
            out.append(index == 0 ? "\n" : ",\n")
            out.append("    {\"date\": \"")
            out.append(Array(CivilDate(dayNumber: day.dayNumber).text.utf8))
            out.append("\", \"steps\": ")
            out.append(int: day.steps)
            out.append(", \"source\": ")
            out.append(jsonString: day.source)
            out.append("}")
        }
        out.append("\n  ]")
        for section in sections {
            out.append(",\n")
            out.append(Array(section.utf8))
        }
        out.append("\n}\n")
        return out.bytes
    }
}
