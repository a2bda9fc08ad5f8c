import HealthDays
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
    /// The server wrote fewer days than those sent inside its window (`outsideWindow` of the
    /// `sent` were older than it, which it skips): it files days in the trainee's zone, so the
    /// zone the days were cut in is likely not the trainee's.
    case fewerDaysWritten(written: Int, sent: Int, outsideWindow: Int)
    /// The export has days, none inside the server's window: nothing was written.
    case nothingInWindow(NothingInWindow)
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
        case .nothingInWindow(let nothing): return nothing.description
        case .interrupted: return "interrupted"
        }
    }
}

extension UploadError {
    /// For `fewerDaysWritten`: what the server did and why, without the remedy.
    public var shortfall: String {
        guard case .fewerDaysWritten(let written, let sent, let outsideWindow) = self else { return description }
        guard outsideWindow > 0 else {
            return "the server wrote \(written) of the \(sent) days sent; it skips days outside its window in the trainee's zone"
        }
        return "the server wrote \(written) of the \(sent) days sent, of which \(sent - outsideWindow) are inside its window "
            + "(it skips the \(outsideWindow) older ones); it files days in the trainee's zone"
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

/// A post that wrote nothing because no day lies inside the server's window (the API takes the
/// last 90 days and one ahead, in the trainee's zone).
public struct NothingInWindow: Equatable, Sendable, CustomStringConvertible {
    /// Days with steps, and the first and last of them.
    public let days: Int
    public let first: LocalDate
    public let last: LocalDate
    /// The days the server keeps.
    public let window: ClosedRange<LocalDate>
    /// Days sent anyway (`--send-all`), all skipped by the server.
    public let sent: Int

    public init(days: Int, first: LocalDate, last: LocalDate, window: ClosedRange<LocalDate>, sent: Int) {
        self.days = days
        self.first = first
        self.last = last
        self.window = window
        self.sent = sent
    }

    public var description: String {
        let span = days == 1 ? "the 1 day with steps (\(first))" : "all \(days) days with steps (\(first) to \(last))"
        let place = last < window.lowerBound ? "older than" : "outside"
        var text = "nothing was written: \(span) are \(place) the server's window, \(window.lowerBound) to "
            + "\(window.upperBound) in the trainee's zone; the API takes only the last \(UploadRules.windowPastDays) days"
        if sent > 0 { text += " (the \(sent) sent with --send-all were skipped by the server, as its contract says)" }
        return text
    }
}
