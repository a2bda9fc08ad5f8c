import Foundation
import Outputs
import Platform

extension TableDisplay {
    /// How tables are shown where the results go. On standard output: split into blocks of the
    /// terminal's width (`TerminalDisplay`: COLUMNS, else the terminal's) and coloured as `color`
    /// says when it is a terminal; whole rows in a pipe. In a file (`-o`): whole rows, whatever the
    /// terminal, and colour only with `--color always`.
    static func results(toFile: Bool, color: ColorChoice) -> TableDisplay {
        let environment = ProcessInfo.processInfo.environment
        guard !toFile else { return TableDisplay(width: nil, styling: color.stylingOfAFile) }
        let terminal = StandardStreams.Stream.output.isTerminal
        return TableDisplay(width: terminal ? TerminalDisplay.columns(for: .output, environment: environment) : nil,
                            styling: color.styling(for: .output, environment: environment))
    }
}
