import BackendUpload
import HealthDays

/// Why one account of a batch stopped short, as the libraries said it; the front end chooses the
/// words and the exit status.
public enum AccountFailure: Error, Equatable, Sendable {
    /// The account's token could not be read from its file or environment variable.
    case token(UploadError)
    /// Its export could not be opened or read.
    case export(ExportError)
    /// Planning or posting failed; `.interrupted` when Ctrl-C stopped it between requests.
    case upload(UploadError)
    /// Its days could not be written (`batch --output`), in the writer's words.
    case output(String)

    /// The upload error when it says the server is in trouble (unreachable, or failing until the
    /// attempts ran out) rather than this account; nil otherwise.
    public var serverTrouble: UploadError? {
        guard case .upload(let error) = self else { return nil }
        switch error {
        case .unavailable, .temporary: return error
        default: return nil
        }
    }
}
