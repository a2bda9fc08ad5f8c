import Foundation
@testable import HTTPClient
import Testing

/// The rules that keep the bearer token with the server it is meant for.
@Suite struct SecurityTests {
    static let token = "s3cr3t-T0KEN-4f9a"
    static let authorization = ("Authorization", "Bearer \(token)")

    @Test(arguments: [301, 302, 303, 307, 308])
    func redirectToAnotherServerIsNotFollowed(status: Int) throws {
        let first = try TestServer(.http)
        let second = try TestServer(.http)
        // The server even puts the token into the address it redirects to.
        let target = second.url("/steal?t=\(Self.token)")
        let query = "status=\(status)&location=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let client = try HTTPClient()
        let error = #expect(throws: HTTPClientError.self) {
            try client.send(.post(first.url("/v1/trainee/health/days?" + query), headers: [Self.authorization], body: Array("{}".utf8)))
        }

        #expect(error == .redirectRefused(host: "127.0.0.1:\(first.port)", status: status, location: second.url("/steal?t=[redacted]")))
        #expect(error?.isTransient == false)
        #expect(error?.description.contains(Self.token) == false)
        // The token went to the first server only; the second saw not even a connection.
        #expect(try first.requests().map { $0.values("Authorization") } == [["Bearer \(Self.token)"]])
        #expect(try second.events().isEmpty)
    }

    @Test(arguments: [
        "http://10.1.2.3/", "http://example.com/v1/trainee/health/days", "http://127.0.0.1.example.com/",
        "http://localhost.example.com/", "http://[::2]/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0:8080/",
        "HTTP://EXAMPLE.COM/",
    ])
    func plainHTTPToAnotherHostIsRefusedBeforeAnyTraffic(url: String) throws {
        // Were the rule broken, the request would go to a closed port here, not out.
        let closed = try ClosedPort()
        var options = HTTPClientOptions()
        options.testingConnectionPort = closed.port
        let client = try HTTPClient(options: options)
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(url, headers: [Self.authorization])) }

        guard case .insecureURL(let host) = error else {
            Issue.record("expected an insecure URL error, got \(String(describing: error))")
            return
        }
        #expect(!host.isEmpty && url.lowercased().contains(host.lowercased()))
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("https://") == true)
        #expect(ContinuousClock.now - start < .milliseconds(500))
    }

    /// The same rules, checked up front without a request (for configuration).
    @Test func urlsCanBeCheckedWithoutARequest() throws {
        #expect(throws: HTTPClientError.insecureURL(host: "example.com")) { try HTTPClient.check(url: "http://example.com/") }
        #expect(throws: HTTPClientError.self) { try HTTPClient.check(url: "https://user:pw@example.com/") }
        #expect(throws: Never.self) { try HTTPClient.check(url: "https://api.example.com/v1") }
        #expect(throws: Never.self) { try HTTPClient.check(url: "http://localhost:8080/") }
    }

    /// The guard `plainHTTPToAnotherHostIsRefusedBeforeAnyTraffic` relies on: with it, a
    /// connection goes to the test's port whatever the URL says.
    @Test func testingConnectionPortRedirectsEveryConnection() throws {
        let server = try TestServer(.http)
        var options = HTTPClientOptions()
        options.testingConnectionPort = server.port
        let response = try HTTPClient(options: options).send(.get("http://localhost:1/elsewhere"))

        #expect(try RecordedRequest(echo: response.body).values("Host") == ["localhost:1"])
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.255.255.254", true), ("127.0.0.53", true), ("localhost", true), ("LocalHost", true),
        ("[::1]", true), ("128.0.0.1", false), ("10.1.2.3", false), ("126.255.255.255", false), ("[::2]", false),
        ("[::ffff:127.0.0.1]", false), ("localhost.", false), ("localhost.example.com", false), ("127.0.0.1.nip.io", false),
        ("example.com", false), ("127.1", false), ("0x7f000001", false), ("", false), ("[::1", false),
    ])
    func loopbackHosts(host: String, isLoopback: Bool) {
        #expect(ServerAddress.isLoopback(host: host) == isLoopback)
    }

    @Test func plainHTTPToLoopbackNamesIsAllowed() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        // libcurl normalises these spellings of 127.0.0.1 before the loopback check sees them.
        for url in ["http://127.0.0.1:\(server.port)/", "http://2130706433:\(server.port)/", "http://127.1:\(server.port)/"] {
            #expect(try client.send(.get(url)).status == 200, "\(url)")
        }
    }

    @Test(arguments: [
        "ftp://127.0.0.1/", "file:///etc/passwd", "gopher://127.0.0.1/", "dict://127.0.0.1/", "127.0.0.1/v1", "",
        "https://", "https://127.0.0 .1/", "https://user:hunter2-password@127.0.0.1:1/",
    ])
    func onlyAbsoluteHTTPURLsWithoutCredentials(url: String) throws {
        let client = try HTTPClient()
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(url)) }

        guard case .invalidURL = error else {
            Issue.record("expected an invalid URL error, got \(String(describing: error))")
            return
        }
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func badHeadersAreRefusedBeforeAnyTraffic() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let requests: [HTTPRequest] = [
            .get(server.url("/"), headers: [("X-Test", "a\r\nX-Injected: 1")]),
            .get(server.url("/"), headers: [("Authorization", "Bearer \(Self.token)\nX-Injected: 1")]),
            .get(server.url("/"), headers: [("X-Test\r\nX-Injected", "1")]),
            .get(server.url("/"), headers: [("Bad Name", "1")]),
            .get(server.url("/"), headers: [("", "1")]),
            .get(server.url("/"), headers: [("Host", "other.example")]),
            .post(server.url("/"), headers: [("Content-Length", "0")], body: [1, 2, 3]),
            .post(server.url("/"), headers: [("Transfer-Encoding", "chunked")], body: []),
            .post(server.url("/"), headers: [("Expect", "100-continue")], body: []),
            HTTPRequest(method: .get, url: server.url("/"), body: [1]),
        ]
        for request in requests {
            let error = #expect(throws: HTTPClientError.self) { try client.send(request) }
            guard case .invalidRequest = error else {
                Issue.record("expected an invalid request, got \(String(describing: error))")
                continue
            }
            #expect(error?.description.contains(Self.token) == false)
        }
        #expect(try server.events().isEmpty)
    }

    @Test func privateCAIsNotTrustedByDefault() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let client = try HTTPClient()
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/"), headers: [Self.authorization])) }

        guard case .tls(let host, _) = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1:\(server.port)")
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("--cacert") == true)
        #expect(try server.requests().isEmpty)
    }

    @Test func privateCAIsTrustedWhenGiven() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let client = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile))
        let body = Array(#"{"days":[{"date":"2026-10-06","steps":8421}]}"#.utf8)
        let first = try client.send(
            .post(server.url("/v1/trainee/health/days?status=201"), headers: [Self.authorization, ("Content-Type", "application/json")], body: body))
        let second = try client.send(.get(server.url("/v1/trainee/health/summary"), headers: [Self.authorization]))

        #expect(first.status == 201)
        let seen = try RecordedRequest(echo: first.body)
        #expect(seen.body == body)
        #expect(seen.values("Authorization") == ["Bearer \(Self.token)"])
        #expect(second.status == 200)
        // Keep-alive works over TLS too.
        #expect(try server.connectionCount() == 1)
    }

    @Test func anotherCAIsNotEnough() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let client = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.otherCAFile))
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/"), headers: [Self.authorization])) }

        guard case .tls = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
        #expect(try server.requests().isEmpty)
    }

    @Test func certificateForAnotherNameIsRefused() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try TestServer(.https, certificate: certificates.wrongNameCertificate, key: certificates.wrongNameKey)
        let client = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile))
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/"), headers: [Self.authorization])) }

        guard case .tls(_, let detail) = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("127.0.0.1"))
        #expect(error?.description.contains("another name") == true)
        #expect(try server.requests().isEmpty)
    }

    /// Proxy variables in the environment are ignored: the request goes straight to the
    /// server, and the would-be proxy sees nothing.
    @Test func proxyVariablesAreIgnored() throws {
        let certificates = try TestCertificates.shared.get()
        let proxy = try TestServer(.http)
        let plain = try TestServer(.http)
        let secure = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let client = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile))

        let plainResponse: HTTPResponse
        let secureResponse: HTTPResponse
        do {
            let saved = ProxyEnvironment.set(proxy.url())
            defer { ProxyEnvironment.restore(saved) }
            plainResponse = try client.send(.get(plain.url("/plain"), headers: [Self.authorization]))
            secureResponse = try client.send(.get(secure.url("/secure"), headers: [Self.authorization]))
        }

        #expect(try RecordedRequest(echo: plainResponse.body).path == "/plain")
        #expect(try RecordedRequest(echo: secureResponse.body).path == "/secure")
        #expect(try proxy.events().isEmpty)
    }

    /// Whatever fails, the token is not in the message.
    @Test func tokenIsInNoErrorMessage() throws {
        let server = try TestServer(.http)
        let closed = try ClosedPort()
        let client = try HTTPClient(options: HTTPClientOptions(timeout: .seconds(1), maxResponseBytes: 100))
        let urls = [
            server.url("/?sleep=3"), server.url("/?drop=1"), server.url("/?bytes=500"), "http://127.0.0.1:\(closed.port)/",
            server.url("/?status=302&location=/\(Self.token)"), "http://[::2]:\(closed.port)/",
        ]
        for url in urls {
            let error = #expect(throws: HTTPClientError.self) { try client.send(.get(url, headers: [Self.authorization])) }
            #expect(error?.description.contains(Self.token) == false, "\(url)")
            #expect(error.map { String(reflecting: $0) }?.contains(Self.token) == false, "\(url)")
        }
    }
}
