import DisplayText

extension HTTPRequest {
    /// Headers the client controls: letting a caller set them could desynchronise the
    /// connection (length, framing) or send the request to another virtual host.
    static let reservedHeaderNames: Set<String> = ["host", "content-length", "transfer-encoding", "expect", "connection"]

    /// Headers whose values are credentials, kept out of every message.
    static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The header lines for libcurl, checked: field names are tokens, values hold no line
    /// breaks, and the request has a body only if it is a POST.
    func validatedHeaderLines() throws(HTTPClientError) -> [String] {
        if method == .get && body != nil {
            throw .invalidRequest("a GET request cannot carry a body")
        }
        var lines: [String] = []
        var hasContentType = false
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw .invalidRequest("the header name \(Self.quoted(name)) is not a valid HTTP field name")
            }
            let lowered = name.lowercased()
            if Self.reservedHeaderNames.contains(lowered) {
                throw .invalidRequest("the \(name) header is set by the HTTP client and cannot be given")
            }
            // A line break would start a new header (or the body) of the caller's choosing.
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                let shown = Self.secretHeaderNames.contains(lowered) ? "" : " \(Self.quoted(value))"
                throw .invalidRequest("the value\(shown) of the \(name) header holds a line break or NUL")
            }
            hasContentType = hasContentType || lowered == "content-type"
            // "Name:" would tell libcurl to remove the header; "Name;" sends it empty.
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if method == .post && !hasContentType {
            lines.append("Content-Type:")
        }
        // libcurl sends `Expect: 100-continue` before large bodies and waits for an answer
        // some servers never give; an empty value turns that off.
        lines.append("Expect:")
        return lines
    }

    /// The credentials in this request, for `redacting`.
    var secrets: [String] {
        var found: [String] = []
        for (name, value) in headers where Self.secretHeaderNames.contains(name.lowercased()) {
            let trimmed = value.trimmingSpaces()
            guard !trimmed.isEmpty else { continue }
            found.append(trimmed)
            // "Bearer abc": the token alone may be quoted by a server or a library.
            if let space = trimmed.firstIndex(of: " ") {
                let credential = String(trimmed[trimmed.index(after: space)...]).trimmingSpaces()
                if !credential.isEmpty { found.append(credential) }
            }
        }
        return found
    }

    /// `text` with every credential of this request replaced by `[redacted]`.
    func redacting(_ text: String) -> String {
        text.redacting(secrets)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.escapingControlCharacters(limit: 100) + "\""
    }
}
