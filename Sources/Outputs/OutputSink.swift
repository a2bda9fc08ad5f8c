import Platform

/// Where an output's bytes go: standard output, a file (`-o`), memory (tests). Writers hand it
/// text as they go, row by row; `finish()` makes the last of it land.
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
    /// A file of `-o` (`path` as given) could not be made, written or put in place; the file that
    /// was there, if any, is as it was.
    case file(path: String, FileReplacement.Step, SystemError)
    /// A database of `-o` (`path` as given) could not be opened, checked or written; `problem`
    /// says what, in words.
    case database(path: String, problem: String)

    public var description: String {
        switch self {
        case .standardOutput(let error): return "\(error)"
        case .file(let path, let step, let error):
            switch step {
            case .create(let folder): return "\(path): cannot create a file in \(folder): \(error)"
            case .write: return "\(path): cannot write it: \(error)"
            case .sync: return "\(path): cannot flush it to the disk: \(error)"
            case .rename: return "\(path): cannot put it in place: \(error)"
            }
        case .database(let path, let problem): return "\(path): \(problem)"
        }
    }
}
