/// A final (non-1xx, non-redirect) answer: status, header fields and body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, e.g. 201.
    public var status: Int
    /// Header fields by lower-cased name; a field sent several times is joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name`, in any case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// `Retry-After` when it gives a number of seconds (the form APIs use for 429 and 503);
    /// `nil` when it is absent or an HTTP date, which the caller can read from `headers`.
    public var retryAfterSeconds: Int? {
        guard let value = header("retry-after")?.trimmingSpaces(), !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(value) ?? Int.max
    }
}
