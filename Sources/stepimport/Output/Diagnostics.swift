import Foundation
import HealthDays
import Platform

/// Messages for people on standard error, kept apart from the results on standard output.
struct Diagnostics {
    /// Standard error is a terminal and NO_COLOR is not set: progress may be drawn.
    let showsProgress: Bool

    static func current() -> Diagnostics {
        let environment = ProcessInfo.processInfo.environment
        return Diagnostics(showsProgress: StandardStreams.errorIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
    }

    func note(_ message: String) {
        write("stepimport: \(message)\n")
    }

    func warn(_ message: String) {
        write("stepimport: warning: \(message)\n")
    }

    func error(_ message: String) {
        write("stepimport: error: \(message)\n")
    }

    func write(_ text: String) {
        try? StandardStreams.writeError(text)
    }
}
