import DisplayText
import Foundation
import HealthDays
import Platform

/// Messages for people on standard error, kept apart from the results on standard output.
///
/// On a terminal, a line wider than the terminal is wrapped between words, its later lines
/// indented two columns further than its first, and `error:` and `warning:` are coloured as
/// `--color` says; in a pipe or a log every message stays one whole line, for grep.
struct Diagnostics {
    /// Standard error is a terminal that takes colour (NO_COLOR unset or empty, TERM not dumb):
    /// progress may be drawn.
    let showsProgress: Bool
    /// The columns lines are wrapped to; nil to keep each line whole.
    let width: Int?
    let styling: TextStyling

    static func current(color: ColorChoice = .auto) -> Diagnostics {
        let environment = ProcessInfo.processInfo.environment
        let terminal = StandardStreams.errorIsTerminal
        return Diagnostics(showsProgress: terminal && ColorChoice.terminalTakesColour(environment),
                           width: terminal ? TerminalDisplay.columns(for: .error, environment: environment) : nil,
                           styling: color.styling(for: .error, environment: environment))
    }

    func note(_ message: String) {
        write("stepimport: \(message)\n")
    }

    func warn(_ message: String) {
        write("stepimport: warning: \(message)\n", label: "warning:", style: .warning)
    }

    func error(_ message: String) {
        write("stepimport: error: \(message)\n", label: "error:", style: .error)
    }

    /// Writes `text` as it is laid out for standard error: its lines wrapped to `width`, then
    /// `label` (on the first line, after `stepimport: `) in `style`. Text holding a carriage return
    /// (a line redrawn in place) is written as it is.
    func write(_ text: String, label: String? = nil, style: TextStyle = .error) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let width, !text.contains("\r") {
            lines = lines.flatMap { line in
                line.displayWidth <= width ? [line]
                    : line.wrapped(width: width, continuationIndent: line.prefix { $0 == " " }.count + 2)
            }
        }
        if let label, styling.isOn, let first = lines.first, first.hasPrefix("stepimport: " + label) {
            let start = first.index(first.startIndex, offsetBy: "stepimport: ".count)
            let end = first.index(start, offsetBy: label.count)
            lines[0] = String(first[..<start]) + styling.apply(style, to: label) + String(first[end...])
        }
        try? StandardStreams.writeError(lines.joined(separator: "\n"))
    }
}
