internal import CCurlShim

import Glibc

/// A request URL parsed by libcurl's own URL parser and checked against the client's rules,
/// handed to libcurl as the parsed handle so that what was checked is what gets used.
final class ServerAddress {
    /// The parsed URL (a `CURLU`), owned.
    let handle: OpaquePointer
    /// `http` or `https`.
    let scheme: String
    /// The host as libcurl normalised it (IPv6 in brackets, IPv4 numbers as dotted quads).
    let host: String
    let port: Int

    /// `host:port`, for messages.
    var display: String { "\(host):\(port)" }

    /// Parses `text`; refuses anything but an absolute `http` or `https` URL without user
    /// name or password, and `http` to anything but this computer. Nothing touches the
    /// network here, not even a name lookup.
    init(_ text: String) throws(HTTPClientError) {
        try HTTPClient.loadLibrary()
        guard let handle = ccurl_url() else {
            throw .other(host: nil, detail: "out of memory parsing a URL")
        }
        do throws(HTTPClientError) {
            (scheme, host, port) = try Self.parse(text, into: handle)
        } catch {
            ccurl_url_cleanup(handle)
            throw error
        }
        self.handle = handle
    }

    private static func parse(_ text: String, into handle: OpaquePointer) throws(HTTPClientError) -> (String, String, Int) {
        let shown = HTTPRequest.quoted(text)
        let parsed = text.withCString { ccurl_url_set(handle, CURLUPART_URL, $0, 0) }
        guard parsed == CURLUE_OK else {
            throw .invalidURL(
                shown, reason: String(cString: ccurl_url_strerror(parsed)) + " (expected a full URL such as https://host/path)")
        }
        guard let scheme = part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidURL(shown, reason: "only http:// and https:// URLs are supported")
        }
        guard part(handle, CURLUPART_USER) == nil, part(handle, CURLUPART_PASSWORD) == nil else {
            // The text is not shown: the part before '@' may be a password.
            throw .invalidURL(
                "(not shown)", reason: "a server URL must not hold a user name or password; the token is given separately")
        }
        guard let host = part(handle, CURLUPART_HOST), !host.isEmpty else {
            throw .invalidURL(shown, reason: "the URL names no host")
        }
        let port = part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap { Int($0) } ?? 0
        if scheme == "http" && !isLoopback(host: host) {
            throw .insecureURL(host: port == 80 ? host : "\(host):\(port)")
        }
        return (scheme, host, port)
    }

    deinit {
        ccurl_url_cleanup(handle)
    }

    /// Whether `host` (as libcurl's URL parser gives it) is certainly this computer:
    /// `localhost`, 127.0.0.0/8 or `[::1]`. Other names, even ones that resolve to a loopback
    /// address, are not: checking them would need a name lookup.
    static func isLoopback(host: String) -> Bool {
        if host.lowercased() == "localhost" {
            return true
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            var address = in6_addr()
            let literal = String(host.dropFirst().dropLast())
            guard inet_pton(AF_INET6, literal, &address) == 1 else { return false }
            return withUnsafeBytes(of: &address) { bytes in
                bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
            }
        }
        var address = in_addr()
        // inet_pton accepts only the dotted-quad form, not "127.1" or "0x7f000001".
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { $0[0] == 127 }
    }

    /// One part of the URL, `nil` when it is absent.
    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ccurl_url_get(handle, part, &value, flags) == CURLUE_OK, let value else {
            return nil
        }
        defer { ccurl_free(value) }
        return String(cString: value)
    }
}
