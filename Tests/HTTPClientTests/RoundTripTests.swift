import Foundation
import HTTPClient
import Testing

/// Requests that work: what goes out is what the server sees, what comes back is what it sent.
@Suite struct RoundTripTests {
    @Test func getSendsHeadersAndReadsResponseHeaders() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient(options: HTTPClientOptions(userAgent: "stepimport/9.8.7"))
        let response = try client.send(
            .get(server.url("/v1/trainee/health/summary?from=2026-10-01"), headers: [
                ("Authorization", "Bearer token-1"), ("X-Test-Trace", "Abc 123"), ("Accept", "application/json"),
            ]))

        #expect(response.status == 200)
        let seen = try RecordedRequest(echo: response.body)
        #expect(seen.method == "GET")
        #expect(seen.path == "/v1/trainee/health/summary?from=2026-10-01")
        #expect(seen.values("Authorization") == ["Bearer token-1"])
        #expect(seen.values("X-Test-Trace") == ["Abc 123"])
        #expect(seen.values("Accept") == ["application/json"])
        #expect(seen.values("User-Agent") == ["stepimport/9.8.7"])
        #expect(seen.values("Expect").isEmpty)
        #expect(seen.values("Content-Length").isEmpty)
        // Response header names come back lower-cased, values as sent.
        #expect(response.headers["x-test-trace"] == "Abc 123")
        #expect(response.header("X-Test-Trace") == "Abc 123")
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
        #expect(response.headers["content-length"] == String(response.body.count))
    }

    @Test func postSendsTheBodyByteForByte() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let body = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 7) }  // NUL bytes included
        let response = try client.send(
            .post(server.url("/v1/trainee/health/days?status=201"), headers: [("Content-Type", "application/json")], body: body))

        #expect(response.status == 201)
        let seen = try RecordedRequest(echo: response.body)
        #expect(seen.method == "POST")
        #expect(seen.body == body)
        #expect(seen.values("Content-Length") == ["1024"])
        #expect(seen.values("Content-Type") == ["application/json"])
        #expect(seen.values("Expect").isEmpty)
    }

    /// libcurl would send `Expect: 100-continue` before a body this large and wait for an
    /// interim answer.
    @Test func largePostHasNoExpectHeader() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
        let response = try client.send(.post(server.url("/days"), headers: [("Content-Type", "application/json")], body: body))

        #expect(response.status == 200)
        let seen = try #require(try server.requests().first)
        #expect(seen.values("Expect").isEmpty)
        #expect(seen.body.count == body.count)
    }

    @Test func emptyPostSendsNoBodyAndNoFormContentType() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let response = try client.send(HTTPRequest(method: .post, url: server.url("/days")))

        #expect(response.status == 200)
        let seen = try RecordedRequest(echo: response.body)
        #expect(seen.method == "POST")
        #expect(seen.values("Content-Length") == ["0"])
        #expect(seen.values("Content-Type").isEmpty)
        #expect(seen.body.isEmpty)
    }

    @Test(arguments: [201, 400, 401, 429, 503])
    func statusCodesComeBackAsResponses(status: Int) throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let retry = status == 429 || status == 503
        let response = try client.send(.get(server.url("/?status=\(status)" + (retry ? "&retry_after=120" : ""))))

        #expect(response.status == status)
        #expect(response.retryAfterSeconds == (retry ? 120 : nil))
        #expect(response.headers["retry-after"] == (retry ? "120" : nil))
        #expect(try RecordedRequest(echo: response.body).method == "GET")
    }

    @Test func oneConnectionServesSuccessiveRequests() throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let first = try RecordedRequest(echo: client.send(.get(server.url("/1"))).body)
        let second = try RecordedRequest(echo: client.send(.post(server.url("/2"), body: Array("{}".utf8))).body)
        let third = try RecordedRequest(echo: client.send(.get(server.url("/3?status=503"))).body)

        #expect(first.clientPort == second.clientPort)
        #expect(second.clientPort == third.clientPort)
        #expect(try server.connectionCount() == 1)
        #expect(try server.requests().map(\.path) == ["/1", "/2", "/3?status=503"])
        // Nothing of the POST (method, body) carries over into the next request.
        #expect(third.method == "GET")
        #expect(third.body.isEmpty)
        #expect(third.values("Content-Type").isEmpty)
    }

    @Test func requestsFromManyThreadsShareTheClient() async throws {
        let server = try TestServer(.http)
        let client = try HTTPClient()
        let url = server.url("/")
        let statuses = [200, 201, 202, 204, 400, 401, 429, 503]
        let received = try await withThrowingTaskGroup(of: [Int].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    try (0..<5).map { index in
                        try client.send(.post(url + "?status=\(statuses[worker])", body: [UInt8(index)])).status
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(received.count == 40)
        #expect(Set(received) == Set(statuses))
        // The requests took turns on the one handle, so one connection served them all.
        #expect(try server.connectionCount() == 1)
    }
}
