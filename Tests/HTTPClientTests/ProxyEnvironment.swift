import Foundation

/// Sets and restores the proxy variables libcurl would read.
enum ProxyEnvironment {
    static let names = ["http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "no_proxy", "NO_PROXY"]

    static func set(_ proxy: String) -> [String: String?] {
        var saved: [String: String?] = [:]
        for name in names {
            saved[name] = getenv(name).map { String(cString: $0) }
            setenv(name, name.lowercased() == "no_proxy" ? "" : proxy, 1)
        }
        return saved
    }

    static func restore(_ saved: [String: String?]) {
        for (name, value) in saved {
            if let value {
                setenv(name, value, 1)
            } else {
                unsetenv(name)
            }
        }
    }
}
