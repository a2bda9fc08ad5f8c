import Platform

/// Where an output's bytes go: standard output, memory (tests). Writers hand it text as they go,
/// row by row; `finish()` makes the last of it land.
///
/// A class protocol: a writer and its caller share one sink and its buffer.
public protocol OutputSink: AnyObject {
    /// Takes `text`'s UTF-8 bytes, in order after those before.
    func write(_ text: String) throws(OutputError)
    /// Writes whatever is still held; nothing may be written after it.
    func finish() throws(OutputError)
}

/// Why an output could not be written.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `write(2)` on standard output failed (a full disk, a closed pipe).
    case standardOutput(SystemError)

    public var description: String {
        switch self {
        case .standardOutput(let error): return "\(error)"
        }
    }
}
