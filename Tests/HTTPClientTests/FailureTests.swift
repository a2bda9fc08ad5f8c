import HTTPClient
import Testing

/// Failures a retry may cure (timeouts, lost connections) and ones it cannot.
@Suite struct FailureTests {
    @Test func slowServerTimesOut() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient(options: HTTPClientOptions(timeout: .seconds(1)))
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/?sleep=6"))) }
        let elapsed = ContinuousClock.now - start

        guard case .timeout(let host, _) = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1:\(server.port)")
        #expect(error?.isTransient == true)
        #expect(elapsed < .seconds(4))
        // The handle is usable again after a failure.
        #expect(try client.send(.get(server.url("/after"))).status == 200)
    }

    /// The connect timeout covers the TLS handshake: a server that accepts and says nothing.
    @Test func silentServerHitsTheConnectTimeout() throws {
        let server = try TestServer(.stall)
        let client = try HTTPClient(options: HTTPClientOptions(connectTimeout: .milliseconds(500), timeout: .seconds(30)))
        let start = ContinuousClock.now
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get("https://127.0.0.1:\(server.port)/")) }

        guard case .timeout = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
        #expect(error?.isTransient == true)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(try server.connectionCount() == 1)
    }

    @Test func closedPortIsAConnectionFailure() throws {
        let closed = try ClosedPort()
        let client = try HTTPClient()
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get("http://127.0.0.1:\(closed.port)/")) }

        guard case .connectionFailed(let host, _) = error else {
            Issue.record("expected a connection failure, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1:\(closed.port)")
        #expect(error?.isTransient == true)
        #expect(error?.description.contains("127.0.0.1:\(closed.port)") == true)
    }

    @Test(arguments: ["drop=1", "partial=1"])
    func connectionClosedBeforeTheAnswerEnds(query: String) throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/?" + query))) }

        guard case .connectionFailed = error else {
            Issue.record("expected a connection failure, got \(String(describing: error))")
            return
        }
        #expect(error?.isTransient == true)
        #expect(try server.requests().count == 1)
    }

    @Test(arguments: ["bytes=5000", "bytes=5000&chunked=1", "bytes=1001&chunked=1"])
    func oversizedResponseIsRefused(query: String) throws {
        let server = try TestServer(.http)
        let client = try HTTPClient(options: HTTPClientOptions(maxResponseBytes: 1000))
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/?" + query))) }

        #expect(error == .responseTooLarge(host: "127.0.0.1:\(server.port)", limit: 1000))
        #expect(error?.isTransient == false)
    }

    @Test func floodOfHeadersIsRefused() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        #expect(try client.send(.get(server.url("/?header_lines=100"))).headers["x-pad-99"]?.count == 200)
        let error = #expect(throws: HTTPClientError.self) { try client.send(.get(server.url("/?header_lines=2000"))) }

        guard case .other(_, let detail) = error else {
            Issue.record("expected a failure, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("bytes of headers"))
    }

    @Test(arguments: ["bytes=1000", "bytes=1000&chunked=1"])
    func responseOfExactlyTheLimitIsAccepted(query: String) throws {
        let server = try TestServer(.http)
        let client = try HTTPClient(options: HTTPClientOptions(maxResponseBytes: 1000))
        let response = try client.send(.get(server.url("/?" + query)))

        #expect(response.body == [UInt8](repeating: UInt8(ascii: "x"), count: 1000))
    }

    @Test func badOptionsAreRefusedWhenTheClientIsMade() throws {
        let certificates = try TestCertificates.shared.get()
        let cases: [HTTPClientOptions] = [
            HTTPClientOptions(caCertificateFile: "/nonexistent/ca.pem"),
            HTTPClientOptions(caCertificateFile: certificates.notACertificate),
            HTTPClientOptions(timeout: .zero),
            HTTPClientOptions(connectTimeout: .seconds(-1)),
            HTTPClientOptions(userAgent: "stepimport\r\nX-Evil: 1"),
            HTTPClientOptions(maxResponseBytes: 0),
        ]
        for options in cases {
            let error = #expect(throws: HTTPClientError.self) { try HTTPClient(options: options) }
            guard case .invalidOptions = error else {
                Issue.record("expected invalid options for \(options), got \(String(describing: error))")
                continue
            }
            #expect(error?.isTransient == false)
        }
        #expect(throws: Never.self) { try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile)) }
    }
}
