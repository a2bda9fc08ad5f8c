import Foundation

/// A proxy that `https` requests go through as a CONNECT tunnel: the proxy is asked for a
/// connection to the server's host and port and sees nothing of the request, whose headers (the
/// bearer token among them) travel inside TLS from end to end. Plain `http` requests, which only
/// go to this computer, never use it.
public struct HTTPProxy: Sendable, Equatable, CustomStringConvertible {
    /// `http://host:port` or `https://host:port`, user and password allowed (for the proxy).
    public let url: String
    /// Hosts that are reached directly (`no_proxy`): a name, a name's suffix (`.example.com` or
    /// `example.com` for its subdomains too), or `*` for every host.
    public let bypass: [String]

    /// A proxy from its URL; nil when it is not an `http` or `https` URL naming a host.
    public init?(url: String, bypass: [String] = []) {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.path.isEmpty || components.path == "/", components.query == nil
        else { return nil }
        self.url = trimmed
        self.bypass = bypass.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// Whether a request to `host` goes through the proxy: not when `bypass` names it.
    public func applies(to host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in bypass {
            if entry == "*" { return false }
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == name || host.hasSuffix("." + name) { return false }
        }
        return true
    }

    /// The URL without its user name and password, for messages.
    public var description: String {
        guard var components = URLComponents(string: url), components.user != nil || components.password != nil else { return url }
        components.user = nil
        components.password = nil
        return components.string ?? "(proxy)"
    }
}
