import Foundation
import HealthDays
import StreamingText

extension SamsungHealthCSVParser {
    /// Where the layout's columns stand (0-based; -1 when absent).
    struct Columns {
        /// `step_daily_trend`'s day, as epoch milliseconds at UTC midnight or as text.
        var dayTime = -1
        var sourceType = -1
        /// `tracker.pedometer_step_count`'s bin, UTC text (or epoch milliseconds).
        var start = -1
        var end = -1
        /// `UTC±HHMM`, the bin's offset.
        var timeOffset = -1
        var count = -1
        var device = -1
        /// Metres; read only when `--metric distance` asks.
        var distance = -1
    }

    /// A header name without the type's prefix (`com.samsung.health.step_count.start_time` is
    /// `start_time`), trimmed and in lower case.
    static func bareName(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? lower
    }

    /// The columns each layout needs, in the order messages name them.
    var requiredNames: [String] {
        switch layout {
        case .dayTrend: ["day_time", "count", "source_type", "deviceuuid"]
        case .minuteBins: ["start_time", "end_time", "count", "deviceuuid"]
        }
    }

    /// Line 2: finds the layout's columns by name. A header without one of them is an invalid
    /// record (under `.skip` the file's rows are then counted and left out).
    func readHeader(_ record: CSVRecord) throws(ParseFailure) {
        names = record.strings.map { $0.trimmingCharacters(in: .whitespaces) }
        // A header ending in a comma of its own (a file saved again by a spreadsheet) has one
        // name fewer than its fields; its rows still end in the one empty field.
        if names.count > 1, names.last == "" { names.removeLast() }
        rowFields = names.count + 1
        let keys = names.map(Self.bareName)
        func column(_ name: String) -> Int { keys.firstIndex(of: name) ?? -1 }
        var found = Columns()
        found.count = column("count")
        found.device = column("deviceuuid")
        found.distance = metrics.contains(.distance) ? column("distance") : -1
        switch layout {
        case .dayTrend:
            found.dayTime = column("day_time")
            found.sourceType = column("source_type")
        case .minuteBins:
            found.start = column("start_time")
            found.end = column("end_time")
            found.timeOffset = column("time_offset")
        }
        let missing = requiredNames.filter { keys.firstIndex(of: $0) == nil }
        guard missing.isEmpty else {
            let shown = names.prefix(8).map { RecordCSVParser.quoted($0) }.joined(separator: ", ")
                + (names.count > 8 ? " and \(names.count - 8) more" : "")
            let problem = "the header of Samsung Health's \(layout.type) lacks \(missing.joined(separator: ", ")) "
                + "(found \(shown)); it needs \(requiredNames.joined(separator: ", ")), with or without the type's prefix"
            if let failure = policy.reject(at: SourcePosition(line: record.line, column: 1, byteOffset: offset(of: record)),
                                           problem, record: "header", skipped: &statistics.skipped) {
                throw failure
            }
            stage = .headerRefused
            return
        }
        columns = found
        stage = .rows
    }
}
