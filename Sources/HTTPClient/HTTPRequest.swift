/// One request: a method, an absolute `http` or `https` URL, header fields and a body.
///
/// Header values named `Authorization`, `Proxy-Authorization` or `Cookie` are treated as
/// secrets: the client never puts them in an error message.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// An absolute URL; `http://` is allowed only to this computer (see `HTTPClient`).
    public var url: String
    /// Header fields in the order they are sent. The client sets `Host`, `Content-Length`,
    /// `Transfer-Encoding`, `Expect` and `Connection` itself and refuses them here.
    public var headers: [(name: String, value: String)]
    /// The body of a POST (`nil` sends an empty one); a GET must have none.
    public var body: [UInt8]?

    public init(method: HTTPMethod, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A GET without a body.
    public static func get(_ url: String, headers: [(name: String, value: String)] = []) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, headers: headers)
    }

    /// A POST of `body`. Without a `Content-Type` header none is sent (libcurl's default
    /// would be `application/x-www-form-urlencoded`).
    public static func post(_ url: String, headers: [(name: String, value: String)] = [], body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: .post, url: url, headers: headers, body: body)
    }
}
