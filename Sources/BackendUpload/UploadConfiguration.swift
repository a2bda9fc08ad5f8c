import DisplayText
import Foundation
import HTTPClient

/// Where to post and with which token. The executable resolves it from its options and the
/// environment (`Sources/stepimport/Commands/UploadConfiguration+Options.swift`).
public struct UploadConfiguration: Sendable {
    /// The backend's base URL, e.g. `https://api.example.com` (routes are appended).
    public let apiURL: String
    /// The trainee's bearer token; `description` never shows it.
    public let token: BearerToken
    /// A private CA to trust instead of the system store (`--cacert`).
    public let caCertificateFile: String?
    /// Where the token came from, for messages ("STEPIMPORT_TOKEN" or the file).
    public let tokenOrigin: String
    /// The proxy https requests tunnel through (`--proxy`, `https_proxy`); nil for none.
    public let proxy: HTTPProxy?

    /// A configuration from parts already checked.
    public init(apiURL: String, token: BearerToken, caCertificateFile: String?, tokenOrigin: String,
                proxy: HTTPProxy? = nil) {
        self.apiURL = apiURL
        self.token = token
        self.caCertificateFile = caCertificateFile
        self.tokenOrigin = tokenOrigin
        self.proxy = proxy
    }
}

/// A bearer token. Its text is only ever put in the `Authorization` header; printing it shows `<token>`.
public struct BearerToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String

    /// Accepts the RFC 6750 token characters (after trimming white space); nil otherwise.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=".unicodeScalars)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { return nil }
        value = trimmed
    }

    /// Reads the token from the first line of a file; `name` is how messages name the file.
    public static func read(from path: String, name: String) throws(UploadError) -> BearerToken {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .configuration("\(name): no such readable file")
        }
        let firstLine = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard let token = BearerToken(firstLine) else {
            throw .configuration("\(name): the first line is empty or holds characters a bearer token cannot have")
        }
        return token
    }

    /// The `Authorization` header value.
    var headerValue: String { "Bearer \(value)" }

    /// `text` with the token replaced by `[redacted]` wherever it appears (alone or as
    /// `Bearer <token>`, compared case-sensitively): for text a server sent back.
    func redacting(_ text: String) -> String {
        text.redacting([headerValue, value])
    }

    public var description: String { "<token>" }
    public var debugDescription: String { "<token>" }
}
