import ExportParsers

/// The process's exit codes, from sysexits(3), mapped from errors in this one place.
enum ExitStatus: Int32 {
    case success = 0
    /// The command line was wrong: unknown option, missing argument, bad value.
    case usage = 64
    /// The input is not what it should be: malformed, truncated, the wrong kind of file, an invalid record.
    case dataError = 65
    /// The input file does not exist.
    case noInput = 66
    /// A bug in stepimport.
    case software = 70
    /// The input exists but could not be read (permissions, I/O error, no room for a temporary copy).
    case ioError = 74

    init(for error: CommandError) {
        switch error {
        case .export(let error): self.init(for: error)
        case .output: self = .ioError
        }
    }

    init(for error: ExportError) {
        switch error {
        case .notFound: self = .noInput
        case .unreadable: self = .ioError
        case .notAnExport, .ambiguous, .badArchive, .malformed, .invalidRecord: self = .dataError
        }
    }
}

/// Why a command failed: the export, or writing the results.
enum CommandError: Error, CustomStringConvertible {
    case export(ExportError)
    case output(String)

    var description: String {
        switch self {
        case .export(let error): return error.description
        case .output(let message): return message
        }
    }
}
