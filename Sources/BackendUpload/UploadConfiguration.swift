import Foundation
import HTTPClient

/// Where to post and with which token: from `--api-url` or `STEPIMPORT_API_URL`, and from
/// `STEPIMPORT_TOKEN` or `--token-file` (never a command-line value, which would show in `ps`
/// and shell history).
public struct UploadConfiguration: Sendable {
    /// The backend's base URL, e.g. `https://api.example.com` (routes are appended).
    public let apiURL: String
    /// The trainee's bearer token; `description` never shows it.
    public let token: BearerToken
    /// A private CA to trust instead of the system store (`--cacert`).
    public let caCertificateFile: String?
    /// Where the token came from, for messages ("STEPIMPORT_TOKEN" or the file).
    public let tokenOrigin: String

    /// Resolves the configuration; every problem is a `.configuration` error naming what to fix.
    public static func resolve(apiURL flag: String?, tokenFile: String?, caCertificateFile: String?,
                               environment: [String: String]) throws(UploadError) -> UploadConfiguration {
        let url = try apiURL(flag, environment: environment)
        let token: BearerToken
        let origin: String
        if let tokenFile {
            token = try BearerToken.read(from: tokenFile)
            origin = tokenFile
        } else if let value = environment["STEPIMPORT_TOKEN"] {
            guard let parsed = BearerToken(value) else {
                throw .configuration("STEPIMPORT_TOKEN is empty or holds characters a bearer token cannot have")
            }
            token = parsed
            origin = "STEPIMPORT_TOKEN"
        } else {
            throw .configuration("no token: set STEPIMPORT_TOKEN or pass --token-file PATH (a token is never taken from the command line)")
        }
        try checkCACertificate(caCertificateFile)
        return UploadConfiguration(apiURL: url, token: token, caCertificateFile: caCertificateFile, tokenOrigin: origin)
    }

    /// A configuration from parts already checked (`apiURL(_:environment:)`, `checkCACertificate(_:)`),
    /// as a batch builds one per account.
    public init(apiURL: String, token: BearerToken, caCertificateFile: String?, tokenOrigin: String) {
        self.apiURL = apiURL
        self.token = token
        self.caCertificateFile = caCertificateFile
        self.tokenOrigin = tokenOrigin
    }

    /// The API URL from `--api-url`, else `STEPIMPORT_API_URL`, checked for use.
    public static func apiURL(_ flag: String?, environment: [String: String]) throws(UploadError) -> String {
        guard let url = (flag ?? environment["STEPIMPORT_API_URL"]).map({ $0.trimmingCharacters(in: .whitespaces) }),
              !url.isEmpty
        else {
            throw .configuration("no API URL: pass --api-url URL or set STEPIMPORT_API_URL")
        }
        do {
            try HTTPClient.check(url: url)
        } catch {
            throw .configuration("the API URL \(url) cannot be used: \(error)")
        }
        return url
    }

    /// Fails unless the `--cacert` file, when given, can be read.
    public static func checkCACertificate(_ path: String?) throws(UploadError) {
        if let path, !FileManager.default.isReadableFile(atPath: path) {
            throw .configuration("--cacert \(path): no such readable file")
        }
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
    public static func read(from path: String, name: String? = nil) throws(UploadError) -> BearerToken {
        let name = name ?? "--token-file \(path)"
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

    public var description: String { "<token>" }
    public var debugDescription: String { "<token>" }
}
