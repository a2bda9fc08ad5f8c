import BackendUpload
import Batch

extension AccountFailure {
    /// The failure in the words of a batch, for its lines, journal and report: a refused token is
    /// the account's token, not STEPIMPORT_TOKEN.
    func message(for account: BatchAccount) -> String {
        switch self {
        case .export(let error):
            return error.message
        case .output(let words):
            return words.escapingControlCharacters()
        case .token(let error), .upload(let error):
            if case .unauthorized(let status, let text) = error {
                return "the server refused the account's token (\(status))\(text.isEmpty ? "" : ": \(text)"); check its \(account.token.map(String.init(describing:)) ?? "token")"
            }
            return error.message
        }
    }
}

extension AccountOutcome {
    /// Why the account failed or was interrupted, in words; nil when it was not.
    var error: String? {
        failure?.message(for: account)
    }
}

extension BatchScheduler.Stop {
    /// Why the server stopped the batch, for the closing line and the report; nil for other stops.
    var serverTroubleMessage: String? {
        guard case .serverTrouble(let error, let count, let last) = self else { return nil }
        return "\(count) accounts in a row failed on the server (the last: \(AccountFailure.upload(error).message(for: last))); "
            + "no new accounts were started"
    }
}
