import BackendUpload
import Foundation
import HTTPClient

/// Where to post and with which token, from the command line and the environment: `--api-url`
/// or `STEPIMPORT_API_URL`, and `STEPIMPORT_TOKEN` or `--token-file` (never a command-line
/// value, which would show in `ps` and shell history).
extension UploadConfiguration {
    /// Resolves the configuration. Every problem is found, with `others` (the zone's), and all
    /// of them make one `.configuration` error, each naming what to fix: one run shows them all.
    static func resolve(apiURL flag: String?, tokenFile: String?, caCertificateFile: String?, proxy proxyFlag: String? = nil,
                        environment: [String: String], others: [String] = []) throws(UploadError) -> UploadConfiguration {
        var problems = others
        var proxy: HTTPProxy?
        do { proxy = try self.proxy(proxyFlag, environment: environment) } catch { problems.append(error.description) }
        var url: String?
        do { url = try apiURL(flag, environment: environment) } catch { problems.append(error.description) }
        var token: (BearerToken, String)?
        do { token = try self.token(tokenFile: tokenFile, environment: environment) } catch { problems.append(error.description) }
        do { try checkCACertificate(caCertificateFile) } catch { problems.append(error.description) }
        guard problems.isEmpty, let url, let (token, origin) = token else { throw .configuration(words(problems)) }
        return UploadConfiguration(apiURL: url, token: token, caCertificateFile: caCertificateFile, tokenOrigin: origin,
                                   proxy: proxy)
    }

    /// The proxy from `--proxy`, else `https_proxy`, `HTTPS_PROXY`, `all_proxy` or `ALL_PROXY` (as
    /// curl reads them), with the hosts `no_proxy` or `NO_PROXY` names; nil for none. `--proxy ""`
    /// turns one from the environment off.
    static func proxy(_ flag: String?, environment: [String: String]) throws(UploadError) -> HTTPProxy? {
        let names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        let origin = flag != nil ? "--proxy" : names.first { !(environment[$0] ?? "").isEmpty }
        guard let origin, let text = flag ?? environment[origin], !text.isEmpty else { return nil }
        let bypass = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map(String.init)
        guard let proxy = HTTPProxy(url: text, bypass: bypass) else {
            throw .configuration("\(origin): not a proxy URL stepimport can use (http://host:port or https://host:port; "
                                 + "requests go through it as a CONNECT tunnel, the token inside TLS)")
        }
        return proxy
    }

    /// Several problems as one message: one a line.
    static func words(_ problems: [String]) -> String {
        problems.count == 1 ? problems[0]
            : "--post cannot start, \(problems.count) problems:\n  - " + problems.joined(separator: "\n  - ")
    }

    /// The token from `--token-file`, else `STEPIMPORT_TOKEN`, with where it came from.
    static func token(tokenFile: String?, environment: [String: String]) throws(UploadError) -> (BearerToken, String) {
        if let tokenFile {
            return (try BearerToken.read(from: tokenFile, name: "--token-file \(tokenFile)"), tokenFile)
        }
        guard let value = environment["STEPIMPORT_TOKEN"] else {
            throw .configuration("no token: set STEPIMPORT_TOKEN or pass --token-file PATH (a token is never taken from the command line)")
        }
        guard let parsed = BearerToken(value) else {
            throw .configuration("STEPIMPORT_TOKEN is empty or holds characters a bearer token cannot have")
        }
        return (parsed, "STEPIMPORT_TOKEN")
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
