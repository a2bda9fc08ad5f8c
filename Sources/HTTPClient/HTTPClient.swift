internal import CCurlShim
import Synchronization

/// Sends HTTP requests over one libcurl handle, reusing its connections (keep-alive).
///
/// The rules cannot be turned off: redirects are never followed (a 3xx throws
/// `redirectRefused`), certificates and host names are always checked, plain `http://` only
/// goes to this computer, only HTTP(S) is spoken, and a proxy is used only as the options name
/// one, for `https`, as a CONNECT tunnel. Requests from several
/// threads are safe and run one after the other; `send` blocks until the answer is complete.
public final class HTTPClient: Sendable {
    /// The libcurl file to load (a path, or a file name for the dynamic loader); nil loads
    /// `libcurl.so.4`. libcurl is loaded once per process, by the first client, URL check or
    /// `libraryVersion`, from the path set then: set it before any of those.
    public static var libraryPath: String? {
        get { requestedLibrary.withLock { $0 } }
        set { requestedLibrary.withLock { $0 = newValue } }
    }
    private static let requestedLibrary = Mutex<String?>(nil)

    /// Loads libcurl from `libraryPath` if no call has yet; throws `libcurlMissing` with the
    /// loader's words when it is not loaded.
    static func loadLibrary() throws(HTTPClientError) {
        let status = if let path = libraryPath { path.withCString { ccurl_load($0) } } else { ccurl_load(nil) }
        guard status == 0 else {
            throw .libcurlMissing(String(cString: ccurl_load_error()))
        }
    }

    /// The version of libcurl the process runs with and its TLS library: `7.88.1 (OpenSSL/3.0.17)`;
    /// when it cannot be loaded, why.
    public static var libraryVersion: String {
        guard (try? loadLibrary()) != nil, let text = ccurl_version() else {
            return "not loaded (\(String(cString: ccurl_load_error()))); sending needs it"
        }
        // curl_version() says "libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 ...".
        let words = String(cString: text).split(separator: " ")
        let version = words.first.map { $0.hasPrefix("libcurl/") ? String($0.dropFirst(8)) : String($0) } ?? "unknown"
        return words.count > 1 ? "\(version) (\(words[1]))" : version
    }

    public let options: HTTPClientOptions
    private let session: Mutex<CurlSession>

    /// Makes a client; fails if the options are wrong (an unreadable CA file, a zero
    /// timeout) or libcurl cannot be loaded or cannot start.
    public init(options: HTTPClientOptions = HTTPClientOptions()) throws(HTTPClientError) {
        try options.validate()
        try Self.loadLibrary()
        let code = ccurl_global_init_once()
        guard code == CURLE_OK else {
            throw .other(host: nil, detail: "libcurl failed to start: \(String(cString: ccurl_easy_strerror(code)))")
        }
        guard let handle = ccurl_easy_init() else {
            throw .other(host: nil, detail: "libcurl failed to make a handle")
        }
        self.options = options
        session = Mutex(CurlSession(handle: handle, options: options))
    }

    /// Sends `request` and returns the server's answer, whatever its status (except a
    /// redirect). Checks the URL and headers before any network traffic.
    public func send(_ request: HTTPRequest) throws(HTTPClientError) -> HTTPResponse {
        let headerLines = try request.validatedHeaderLines()
        return try session.withLock { session throws(HTTPClientError) -> HTTPResponse in
            // Parsed here so that the parsed URL never leaves the lock.
            let address = try ServerAddress(request.url)
            return try session.perform(request, to: address, headerLines: headerLines)
        }
    }
}
