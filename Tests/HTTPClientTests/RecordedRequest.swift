import Foundation

/// A request as the test server saw it, from its log or from the echo in a response body.
struct RecordedRequest {
    let method: String
    let path: String
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    let clientPort: Int

    init(_ fields: [String: Any]) throws {
        guard let method = fields["method"] as? String, let path = fields["path"] as? String,
            let headers = fields["headers"] as? [[String]], let body = fields["body"] as? String,
            let bodyBytes = Data(base64Encoded: body), let clientPort = fields["client_port"] as? Int
        else {
            throw TestFailure("unexpected request record \(fields)")
        }
        self.method = method
        self.path = path
        self.headers = headers.map { (name: $0[0], value: $0[1]) }
        self.body = [UInt8](bodyBytes)
        self.clientPort = clientPort
    }

    /// The echo the test server puts in the body of a normal answer.
    init(echo body: [UInt8]) throws {
        guard let fields = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw TestFailure("the answer is not an echo: \(String(decoding: body, as: UTF8.self))")
        }
        try self.init(fields)
    }

    /// The values of the header `name`, in any case.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}
