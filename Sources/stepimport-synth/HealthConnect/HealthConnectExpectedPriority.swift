/// The day totals `stepimport hc --rule hc-priority` should report for a database the generator
/// wrote (Health Connect's own total, docs/rules.md), computed from the generator's own records.
///
/// Deliberately a different method from the importer's sweep: per local day, every instant at
/// which a record of a listed app starts or ends (and the day's own ends) cuts the day into
/// pieces, and each piece goes to the highest record covering all of it, found by looking at
/// every record of the day: the app's place in the ACTIVITY list, then the later last-modified
/// time, start, end, value. A zero-length record counts whole if it is the highest of all
/// records covering its instant (ends included). Each record sits on the clock of its start
/// offset; the phone's two names are one app at the first name's place. A day's sum is cut
/// toward zero. Records are kept until the end: the generator's runs are small.
struct HealthConnectExpectedPriority {
    private struct Held {
        let start: Int64
        let end: Int64
        let value: Double
        let modified: Int64
        let rank: Int
    }

    private var held: [Held] = []
    private static let dayMs: Int64 = 86_400_000

    /// Each app's rank in the ACTIVITY list as its source (higher wins), nil when absent.
    private static let ranks: [HealthConnectApp: Int] = {
        let order = HealthConnectApp.priorities.first { $0.0 == 1 }!.1.split(separator: ",").compactMap { Int($0) }
        var sources: [String] = []
        for id in order {
            guard let app = HealthConnectApp.allCases.first(where: { $0.rowID == id }), !sources.contains(app.source) else { continue }
            sources.append(app.source)
        }
        var ranks: [HealthConnectApp: Int] = [:]
        for app in HealthConnectApp.allCases {
            if let index = sources.firstIndex(of: app.source) { ranks[app] = sources.count - index }
        }
        return ranks
    }()

    mutating func add(_ record: HealthConnectRecord) {
        guard let rank = Self.ranks[record.app] else { return }
        let shift = Int64(record.startOffset) * 1000
        held.append(Held(start: record.startMs + shift, end: record.endMs + shift, value: Double(record.count),
                         modified: record.lastModifiedMs, rank: rank))
    }

    private static func ranksAbove(_ lhs: Held, _ rhs: Held) -> Bool {
        (lhs.rank, lhs.modified, lhs.start, lhs.end) != (rhs.rank, rhs.modified, rhs.start, rhs.end)
            ? (lhs.rank, lhs.modified, lhs.start, lhs.end) > (rhs.rank, rhs.modified, rhs.start, rhs.end)
            : lhs.value > rhs.value
    }

    /// Every day with steps and its total, sorted by date.
    func days() -> [(dayNumber: Int, steps: Int)] {
        var byDay: [Int64: [Int]] = [:]
        for (index, record) in held.enumerated() {
            let first = floorDivide(record.start, Self.dayMs)
            let last = record.end > record.start ? floorDivide(record.end - 1, Self.dayMs) : first
            for day in first...last { byDay[day, default: []].append(index) }
        }
        var result: [(Int, Int)] = []
        for day in byDay.keys.sorted() {
            let dayStart = day * Self.dayMs
            let dayEnd = dayStart + Self.dayMs
            let records = byDay[day]!.map { held[$0] }
            var cuts = Set([dayStart, dayEnd])
            for record in records {
                if record.start > dayStart && record.start < dayEnd { cuts.insert(record.start) }
                if record.end > dayStart && record.end < dayEnd { cuts.insert(record.end) }
            }
            let points = cuts.sorted()
            var sum = 0.0
            var zeroLength = records.filter { $0.start == $0.end }.map(\.start).sorted()
            var nextZero = 0
            for (from, to) in zip(points, points.dropFirst()) {
                // The zero-length records at `from` come before the piece that starts there.
                while nextZero < zeroLength.count && zeroLength[nextZero] <= from {
                    let instant = zeroLength[nextZero]
                    let covering = records.filter { $0.start <= instant && $0.end >= instant }
                    if let top = covering.max(by: { Self.ranksAbove($1, $0) }), top.start == top.end {
                        sum += top.value
                    }
                    while nextZero < zeroLength.count && zeroLength[nextZero] == instant { nextZero += 1 }
                }
                let covering = records.filter { $0.start <= from && $0.end >= to && $0.end > $0.start }
                guard let top = covering.max(by: { Self.ranksAbove($1, $0) }) else { continue }
                sum += top.value * Double(to - from) / Double(top.end - top.start)
            }
            zeroLength.removeAll()
            let steps = Int(sum.rounded(.towardZero))
            if steps > 0 { result.append((Int(day), steps)) }
        }
        return result
    }

    /// `{"days":[{"date":..,"steps":..}]}`: the body `stepimport hc --rule hc-priority --format json` prints.
    func json() -> [UInt8] {
        var out = ByteBuffer()
        out.append("{\"days\":[")
        for (index, day) in days().enumerated() {
            if index > 0 { out.append(",") }
            out.append("{\"date\":\"")
            out.append(Array(CivilDate(dayNumber: day.dayNumber).text.utf8))
            out.append("\",\"steps\":")
            out.append(int: day.steps)
            out.append("}")
        }
        out.append("]}\n")
        return out.bytes
    }
}
