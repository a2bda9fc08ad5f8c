import Foundation
import BackendUpload
import Batch
import ExportParsers
import HealthDays
import Outputs

/// The process's exit codes, from sysexits(3), mapped from errors in this one place.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// `batch`: some accounts failed (or were not run); the others are done. The report and the
    /// journal say which; running the same command again takes only those.
    case accountsFailed = 1
    /// `--post` wrote nothing because no day lies inside the server's window (the last 90 days
    /// in the trainee's zone); `batch`: no account failed, and at least one had no day inside it.
    case nothingWritten = 3
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
    /// The server could not be reached (refused, no such host, TLS failure).
    case unavailable = 69
    /// The server kept failing (429, 5xx, time-outs) until the attempts ran out: try again later.
    case temporaryFailure = 75
    /// The server answered against the contract: a redirect, a bad body, a `days` count other than the
    /// days sent (fewer written, more than sent, negative).
    case protocolError = 76
    /// The server refused the token (401, 403).
    case authRefused = 77
    /// The API URL, token or CA file is missing or unusable.
    case configuration = 78
    /// Interrupted by Ctrl-C: between requests, or at once while reading (SIGINT, 128 + 2).
    case interrupted = 130
    /// Ended by SIGHUP (128 + 1), its temporary files removed.
    case hungUp = 129
    /// Ended by SIGTERM (128 + 15), its temporary files removed.
    case terminated = 143

    init(for error: CommandError) {
        switch error {
        case .export(let error): self.init(for: error)
        case .output: self = .ioError
        case .upload(let error): self.init(for: error)
        }
    }

    init(for error: UploadError) {
        switch error {
        case .configuration: self = .configuration
        case .rejected: self = .dataError
        case .unauthorized: self = .authRefused
        case .unavailable: self = .unavailable
        case .temporary: self = .temporaryFailure
        case .protocolViolation, .fewerDaysWritten: self = .protocolError
        case .interrupted: self = .interrupted
        case .nothingInWindow: self = .nothingWritten
        }
    }

    /// The status the same failure gives `stepimport apple|hc`.
    init(for failure: AccountFailure) {
        switch failure {
        case .export(let error): self.init(for: error)
        case .token(let error), .upload(let error): self.init(for: error)
        case .output: self = .ioError
        }
    }

    init(for error: BatchError) {
        switch error {
        case .unreadableManifest(let path, _):
            self = FileManager.default.fileExists(atPath: path) ? .ioError : .noInput
        case .invalidManifest, .invalidShard: self = .dataError
        case .journal: self = .ioError
        case .journalInUse: self = .temporaryFailure
        }
    }

    init(for error: ExportError) {
        switch error {
        case .notFound: self = .noInput
        case .unreadable: self = .ioError
        case .notAnExport, .ambiguous, .badArchive, .malformed, .invalidRecord: self = .dataError
        // A zip bomb is bad data; no room in the temporary folder is the machine's problem.
        case .copyRefused(_, _, .room): self = .ioError
        case .copyRefused: self = .dataError
        // The rule asked for cannot be applied to this input without more on the command line.
        case .noPriorityList: self = .usage
        case .priorityRecordsBeyondLimit: self = .dataError
        }
    }
}

/// Why a command failed: the export, writing the results (exit 74), or posting.
enum CommandError: Error, CustomStringConvertible {
    case export(ExportError)
    case output(String)
    case upload(UploadError)

    var description: String {
        switch self {
        case .export(let error): return error.message
        case .output(let message): return message
        case .upload(let error): return error.message
        }
    }
}

extension AccountOutcome {
    /// The exit status the same failure gives `stepimport apple|hc`; nil when it did not fail.
    var errorStatus: ExitStatus? {
        failure.map { ExitStatus(for: $0) }
    }
}
