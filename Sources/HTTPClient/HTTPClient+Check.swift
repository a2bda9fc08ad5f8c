extension HTTPClient {
    /// Checks `url` against the client's rules (absolute http or https, no credentials, plain
    /// http only to this computer) without any network traffic, not even a name lookup, so
    /// that a bad configuration is refused before any work starts.
    public static func check(url: String) throws(HTTPClientError) {
        _ = try ServerAddress(url)
    }
}
