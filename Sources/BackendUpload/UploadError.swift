import HTTPClient

/// Why posting stopped, in words a user can act on. Never holds the token.
public enum UploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The API URL, token or CA file is missing or unusable (checked before any parsing).
    case configuration(String)
    /// The server refused the request as invalid (400): its own message.
    case rejected(status: Int, message: String)
    /// The server refused the token (401, 403).
    case unauthorized(status: Int, message: String)
    /// The server could not be reached (refused, no such host, TLS failure), after retries.
    case unavailable(String)
    /// The server kept failing (429, 5xx, time-outs, dropped connections) until the attempts ran out.
    case temporary(String)
    /// The server answered something the contract does not allow (a redirect, a bad body).
    case protocolViolation(String)
    /// The server wrote fewer days than were sent: it skips days outside its window in the
    /// trainee's zone, so the zone the days were cut in is likely not the trainee's.
    case fewerDaysWritten(written: Int, sent: Int)
    /// Ctrl-C: stopped between requests.
    case interrupted

    public var description: String {
        switch self {
        case .configuration(let message): return message
        case .rejected(let status, let message): return "the server rejected the request (\(status)): \(message)"
        case .unauthorized(let status, let message):
            return "the server refused the token (\(status))\(message.isEmpty ? "" : ": \(message)")"
        case .unavailable(let message): return "the server cannot be reached: \(message)"
        case .temporary(let message): return "the server kept failing: \(message)"
        case .protocolViolation(let message): return "unexpected answer from the server: \(message)"
        case .fewerDaysWritten: return "unexpected answer from the server: \(shortfall)"
        case .interrupted: return "interrupted"
        }
    }
}

extension UploadError {
    /// For `fewerDaysWritten`: what the server did and why, without the remedy.
    public var shortfall: String {
        guard case .fewerDaysWritten(let written, let sent) = self else { return description }
        return "the server wrote \(written) of the \(sent) days sent; it skips days outside its window in the trainee's zone"
    }

    /// A transport failure that retries did not cure.
    static func fromTransport(_ error: HTTPClientError) -> UploadError {
        switch error {
        case .timeout, .connectionFailed:
            return .unavailable(error.description)
        case .tls:
            return .unavailable(error.description + " (for a private CA, pass --cacert FILE)")
        case .invalidURL, .insecureURL, .invalidOptions, .libcurlMissing:
            return .configuration(error.description)
        case .redirectRefused, .responseTooLarge:
            return .protocolViolation(error.description)
        case .invalidRequest, .other:
            return .unavailable(error.description)
        }
    }
}
