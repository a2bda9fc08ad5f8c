import DisplayText
import Foundation
import HealthDays
import Platform

/// A one-line progress indicator on standard error: bytes done, rate and time left.
///
/// Drawn only on a terminal, at most five times a second, and erased when done.
final class ProgressMeter {
    /// The terminal's columns: the line is cut to fit, as a wrapped line would not be erased.
    private let width: Int?
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(width: Int?) {
        self.width = width
    }

    func update(done: Int64, total: Int64?) {
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        var line = "reading " + ByteCount.format(done)
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            line += " of \(ByteCount.format(total)) (\(Int(fraction * 100))%)"
            if rate > 0 && done < total {
                line += ", \(ByteCount.format(Int64(rate)))/s, about \(TimeLeft.format(Double(total - done) / rate)) left"
            }
        } else {
            line += ", \(ByteCount.format(Int64(rate)))/s"
        }
        try? StandardStreams.writeError("\r\u{1B}[K" + (width.map { line.truncated(toDisplayWidth: $0 - 1, ellipsis: "") } ?? line))
        drawn = true
    }

    func clear() {
        if drawn {
            try? StandardStreams.writeError("\r\u{1B}[K")
            drawn = false
        }
    }

}


/// A time left for people: 45s, 3m 20s, 2h 5m (rounded up).
enum TimeLeft {
    static func format(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole >= 3600 { return "\(whole / 3600)h \(whole % 3600 / 60)m" }
        return whole >= 60 ? "\(whole / 60)m \(whole % 60)s" : "\(whole)s"
    }
}
