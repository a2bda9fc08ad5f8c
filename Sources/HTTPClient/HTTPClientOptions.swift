/// Settings for one `HTTPClient`, fixed when it is made.
///
/// There is deliberately no way to turn off certificate checks, to follow redirects or to
/// send a request through a proxy other than inside a CONNECT tunnel (`HTTPProxy`).
public struct HTTPClientOptions: Sendable, Equatable {
    /// The longest time to set up a connection, TCP and TLS handshake included.
    public var connectTimeout: Duration
    /// The longest time for a whole request, connection included.
    public var timeout: Duration
    /// A PEM file of CA certificates to trust **instead of** the system store (as
    /// `curl --cacert` does, and without curl's CA directory either), for a backend
    /// with a private CA. `nil` trusts the system store.
    public var caCertificateFile: String?
    /// The `User-Agent`, e.g. `stepimport/1.2.0`.
    public var userAgent: String
    /// The largest response body accepted; a larger one fails with `responseTooLarge`.
    public var maxResponseBytes: Int
    /// The proxy `https` requests tunnel through; nil goes straight to the server (proxy
    /// variables in the environment are not read here: the caller decides).
    public var proxy: HTTPProxy?
    /// For tests only: every connection goes to this port on 127.0.0.1 instead of the URL's
    /// host, so that a test of the URL rules cannot reach the network even if they break.
    var testingConnectionPort: Int?

    public init(
        connectTimeout: Duration = .seconds(10),
        timeout: Duration = .seconds(60),
        caCertificateFile: String? = nil,
        userAgent: String = "stepimport",
        maxResponseBytes: Int = 8 << 20,
        proxy: HTTPProxy? = nil
    ) {
        self.proxy = proxy
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.caCertificateFile = caCertificateFile
        self.userAgent = userAgent
        self.maxResponseBytes = maxResponseBytes
    }
}
