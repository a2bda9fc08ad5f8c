import BackendUpload
import Foundation
import HTTPClient

/// Where to post and with which token, from the command line and the environment: `--api-url`
/// or `STEPIMPORT_API_URL`, and `STEPIMPORT_TOKEN` or `--token-file` (never a command-line
/// value, which would show in `ps` and shell history).
extension UploadConfiguration {
    /// Resolves the configuration; every problem is a `.configuration` error naming what to fix.
    static func resolve(apiURL flag: String?, tokenFile: String?, caCertificateFile: String?,
                        environment: [String: String]) throws(UploadError) -> UploadConfiguration {
        let url = try apiURL(flag, environment: environment)
        let token: BearerToken
        let origin: String
        if let tokenFile {
            token = try BearerToken.read(from: tokenFile, name: "--token-file \(tokenFile)")
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

    /// The API URL from `--api-url`, else `STEPIMPORT_API_URL`, checked for use.
    static func apiURL(_ flag: String?, environment: [String: String]) throws(UploadError) -> String {
        guard let url = (flag ?? environment["STEPIMPORT_API_URL"]).map({ $0.trimmingCharacters(in: .whitespaces) }),
              !url.isEmpty
        else {
            throw .configuration("no API URL: pass --api-url URL or set STEPIMPORT_API_URL")
        }
        do {
            try HTTPClient.check(url: url)
        } catch .libcurlMissing(let why) {
            // Not the URL's fault.
            throw .configuration(HTTPClientError.libcurlMissing(why).description)
        } catch {
            throw .configuration("the API URL \(url) cannot be used: \(error)")
        }
        return url
    }

    /// Fails unless the `--cacert` file, when given, can be read.
    static func checkCACertificate(_ path: String?) throws(UploadError) {
        if let path, !FileManager.default.isReadableFile(atPath: path) {
            throw .configuration("--cacert \(path): no such readable file")
        }
    }
}
