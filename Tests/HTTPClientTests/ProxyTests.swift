import Foundation
import Testing
@testable import HTTPClient

/// A CONNECT proxy on loopback (scripts/connect_proxy.py), started for one test.
final class ConnectProxy {
    let port: Int
    private let process: Process
    private let lifeline = Pipe()
    private let log: URL

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/connect_proxy.py")
        log = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-proxy-\(UUID().uuidString).jsonl")
        try Data().write(to: log)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, log.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, let port = Int(words[1]) else { throw TestFailure("the proxy did not start") }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// What the proxy saw: one object an event (`connect` with its `target`, or `plain`).
    func events() throws -> [[String: Any]] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

/// https requests through a proxy go inside a CONNECT tunnel: the proxy sees the host and port,
/// never the request or its token; plain http and the hosts bypassed go straight.
@Suite(.serialized) struct ProxyTests {
    @Test func httpsGoesThroughATunnelAndTheTokenStaysInsideTLS() throws {
        let certificates = try TestCertificates.shared.get()
        let server = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let proxy = try ConnectProxy()
        let client = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile,
                                                               proxy: try #require(HTTPProxy(url: proxy.url))))
        let response = try client.send(.get(server.url("/v1/trainee/health/summary"), headers: [SecurityTests.authorization]))
        #expect(response.status == 200)
        #expect(try RecordedRequest(echo: response.body).values("Authorization") == ["Bearer \(SecurityTests.token)"])
        let events = try proxy.events()
        #expect(events.count == 1)
        #expect(events.first?["event"] as? String == "connect")
        #expect(events.first?["target"] as? String == "127.0.0.1:\(server.port)")
        let seen = String(decoding: try JSONSerialization.data(withJSONObject: events), as: UTF8.self)
        #expect(!seen.contains(SecurityTests.token))
    }

    @Test func plainHTTPAndBypassedHostsGoStraight() throws {
        let certificates = try TestCertificates.shared.get()
        let plain = try TestServer(.http)
        let secure = try TestServer(.https, certificate: certificates.serverCertificate, key: certificates.serverKey)
        let proxy = try ConnectProxy()
        let direct = try HTTPClient(options: HTTPClientOptions(caCertificateFile: certificates.caFile,
                                                               proxy: try #require(HTTPProxy(url: proxy.url, bypass: ["127.0.0.1"]))))
        #expect(try direct.send(.get(secure.url("/"), headers: [SecurityTests.authorization])).status == 200)
        let tunnelling = try HTTPClient(options: HTTPClientOptions(proxy: try #require(HTTPProxy(url: proxy.url))))
        #expect(try tunnelling.send(.get(plain.url("/"), headers: [SecurityTests.authorization])).status == 200)
        #expect(try proxy.events().isEmpty)
    }

    @Test func onlyHTTPProxiesNamingAHostAreTaken() {
        #expect(HTTPProxy(url: "http://proxy.example:3128") != nil)
        #expect(HTTPProxy(url: "https://user:secret@proxy.example:443")?.description == "https://proxy.example:443")
        #expect(HTTPProxy(url: "socks5://proxy.example:1080") == nil)
        #expect(HTTPProxy(url: "proxy.example:3128") == nil)
        let proxy = HTTPProxy(url: "http://p:1", bypass: [".corp.example", "localhost", " "])!
        #expect(!proxy.applies(to: "api.corp.example") && !proxy.applies(to: "corp.example") && !proxy.applies(to: "localhost"))
        #expect(proxy.applies(to: "api.example.com"))
        #expect(!HTTPProxy(url: "http://p:1", bypass: ["*"])!.applies(to: "anything"))
    }
}
