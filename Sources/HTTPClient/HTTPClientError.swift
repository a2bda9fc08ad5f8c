/// What can go wrong with a request, in words a user can act on.
///
/// Messages name the server (`host:port`) but never a request's credentials. `isTransient`
/// tells a caller whether sending the same request again may succeed.
public enum HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL cannot be parsed, or is not an `http` or `https` URL.
    case invalidURL(String, reason: String)
    /// An `http://` URL to a host other than this computer: the token would travel in clear.
    case insecureURL(host: String)
    /// The request itself is wrong (a header with a line break, a GET with a body).
    case invalidRequest(String)
    /// The client's options are wrong (an unreadable CA file, a zero timeout).
    case invalidOptions(String)
    /// The connection or the whole request took longer than its timeout.
    case timeout(host: String, detail: String)
    /// The server could not be reached, or dropped the connection before answering in full:
    /// name not found, connection refused or reset, an empty or cut-off answer.
    case connectionFailed(host: String, detail: String)
    /// The TLS handshake failed: an untrusted or expired certificate, one for another name.
    case tls(host: String, detail: String)
    /// The server answered with a redirect, which the client never follows so that the
    /// token stays with the server it was meant for.
    case redirectRefused(host: String, status: Int, location: String?)
    /// The response body was larger than `HTTPClientOptions.maxResponseBytes`.
    case responseTooLarge(host: String, limit: Int)
    /// libcurl, which the client loads when first needed, could not be loaded: the loader's words.
    case libcurlMissing(String)
    /// Anything else libcurl reported.
    case other(host: String?, detail: String)

    /// Whether the same request may succeed if sent again later (after a pause): true for
    /// timeouts and failed or dropped connections, false for everything that needs a change
    /// of URL, options, certificates or server configuration.
    ///
    /// A request that timed out or lost its connection may still have reached the server,
    /// so only idempotent requests (like the backend's upsert) should be resent.
    public var isTransient: Bool {
        switch self {
        case .timeout, .connectionFailed: return true
        case .invalidURL, .insecureURL, .invalidRequest, .invalidOptions, .tls, .redirectRefused, .responseTooLarge,
             .libcurlMissing, .other:
            return false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid server URL \(url): \(reason)"
        case .insecureURL(let host):
            return "refusing to send to http://\(host): plain http is only allowed to this computer "
                + "(localhost, 127.0.0.1, ::1); use https://\(host) instead"
        case .invalidRequest(let problem):
            return "invalid request: \(problem)"
        case .invalidOptions(let problem):
            return problem
        case .timeout(let host, let detail):
            return "\(host) did not answer in time (\(detail)); try again later or with a longer timeout"
        case .connectionFailed(let host, let detail):
            return "cannot reach \(host) (\(detail)); check the server address and the network, then try again"
        case .tls(let host, let detail):
            // libcurl's wording for a certificate issued to another name.
            if detail.contains("subject name") || detail.contains("does not match") {
                return "secure connection to \(host) failed (\(detail)); the server's certificate is for "
                    + "another name: check the host in the server URL"
            }
            return "secure connection to \(host) failed (\(detail)); if the server uses a private CA, "
                + "give its certificate with --cacert FILE"
        case .redirectRefused(let host, let status, let location):
            let target = location.map { " to \($0)" } ?? ""
            return "\(host) answered \(status), a redirect\(target), which is not followed so that the token "
                + "is only sent where it was meant to go; use the final address as the server URL if you trust it"
        case .responseTooLarge(let host, let limit):
            return "\(host) sent a response larger than \(limit) bytes; is the server URL right?"
        case .libcurlMissing(let why):
            return "libcurl could not be loaded (\(why)); sending needs it: install Debian's libcurl4 "
                + "(apt install libcurl4)"
        case .other(let host, let detail):
            return (host.map { "request to \($0) failed: " } ?? "HTTP client failure: ") + detail
        }
    }
}
