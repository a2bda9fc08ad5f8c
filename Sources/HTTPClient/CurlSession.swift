internal import CCurlShim
import DisplayText

/// One libcurl easy handle and the options every request gets: the security rules live here.
///
/// Every request starts from `curl_easy_reset`, which clears all options but keeps open
/// connections, so nothing from one request (a POST body, a header list) leaks into the
/// next while keep-alive still works. Not thread-safe: `HTTPClient` serialises access.
final class CurlSession {
    private let handle: UnsafeMutableRawPointer
    private let options: HTTPClientOptions
    /// libcurl's CURLOPT_ERRORBUFFER, CURL_ERROR_SIZE bytes.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init(handle: UnsafeMutableRawPointer, options: HTTPClientOptions) {
        self.handle = handle
        self.options = options
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        ccurl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sends `request` to `address` and waits for the whole answer.
    func perform(_ request: HTTPRequest, to address: ServerAddress, headerLines: [String]) throws(HTTPClientError) -> HTTPResponse {
        ccurl_easy_reset(handle)

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { ccurl_slist_free_all(headerList) }
        for line in headerLines {
            guard let appended = ccurl_slist_append(headerList, line) else {
                throw .other(host: address.display, detail: "out of memory building the request headers")
            }
            headerList = appended
        }

        var connectTo: UnsafeMutablePointer<curl_slist>?
        defer { ccurl_slist_free_all(connectTo) }
        if let port = options.testingConnectionPort {
            connectTo = ccurl_slist_append(nil, "::127.0.0.1:\(port)")
        }

        let collector = ResponseCollector(maxBodyBytes: options.maxResponseBytes)
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        // Runs first: leaves no pointer to this request's lists, URL or collector in the handle.
        defer { ccurl_easy_reset(handle) }

        try configure(address: address, request: request, headerList: headerList, context: context.toOpaque())
        if let connectTo {
            try check(ccurl_setopt_slist(handle, CURLOPT_CONNECT_TO, connectTo), CURLOPT_CONNECT_TO, host: address.display)
        }
        errorBuffer[0] = 0
        let code = ccurl_easy_perform(handle)
        guard code == CURLE_OK else {
            throw failure(code, collector: collector, address: address, request: request)
        }

        var status = 0
        if ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK || status < 100 {
            throw .other(host: address.display, detail: "the server's answer had no HTTP status")
        }
        if (300..<400).contains(status) && status != 304 {
            var target: UnsafePointer<CChar>?
            let location: String? =
                if ccurl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &target) == CURLE_OK, let target {
                    request.redacting(String(cString: target).escapingControlCharacters(limit: 300))
                } else {
                    collector.headers["location"].map { request.redacting($0.escapingControlCharacters(limit: 300)) }
                }
            throw .redirectRefused(host: address.display, status: status, location: location)
        }
        return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
    }

    /// Sets every option for one request on the freshly reset handle.
    private func configure(
        address: ServerAddress, request: HTTPRequest, headerList: UnsafeMutablePointer<curl_slist>?,
        context: UnsafeMutableRawPointer
    ) throws(HTTPClientError) {
        let host = address.display
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer), host: host)
        try set(CURLOPT_CURLU, pointer: UnsafeMutableRawPointer(address.handle), host: host)

        // Only HTTP(S), for the request and for any redirect libcurl might be asked to take.
        try set(CURLOPT_PROTOCOLS_STR, "http,https", host: host)
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https", host: host)
        // Never follow a redirect: the Authorization header stays with the URL's own host.
        try set(CURLOPT_FOLLOWLOCATION, 0, host: host)
        try set(CURLOPT_MAXREDIRS, 0, host: host)

        // Certificates are always checked, and the name must match.
        try set(CURLOPT_SSL_VERIFYPEER, 1, host: host)
        try set(CURLOPT_SSL_VERIFYHOST, 2, host: host)
        try set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2), host: host)
        if let file = options.caCertificateFile {
            try set(CURLOPT_CAINFO, file, host: host)
            // Debian's libcurl also reads /etc/ssl/certs; the file replaces the system store.
            try set(CURLOPT_CAPATH, nil, host: host)
        }

        // The proxy given, for https only and as a CONNECT tunnel (the token stays inside TLS);
        // never one libcurl would take from http_proxy, https_proxy or ALL_PROXY itself.
        if let proxy = options.proxy, address.scheme == "https", proxy.applies(to: address.host) {
            try set(CURLOPT_PROXY, proxy.url, host: host)
            try set(CURLOPT_HTTPPROXYTUNNEL, 1, host: host)
            // Empty: every host goes through it (the bypass list was applied above), whatever no_proxy says.
            try set(CURLOPT_NOPROXY, "", host: host)
        } else {
            try set(CURLOPT_PROXY, "", host: host)
        }
        try set(CURLOPT_NETRC, Int(CURL_NETRC_IGNORED.rawValue), host: host)
        // No signals (SIGALRM for name lookups), which would hit whichever thread runs.
        try set(CURLOPT_NOSIGNAL, 1, host: host)
        try set(CURLOPT_TCP_KEEPALIVE, 1, host: host)
        try set(CURLOPT_CONNECTTIMEOUT_MS, HTTPClientOptions.milliseconds(options.connectTimeout), host: host)
        try set(CURLOPT_TIMEOUT_MS, HTTPClientOptions.milliseconds(options.timeout), host: host)
        // Refuses an announced Content-Length over the limit before reading the body;
        // the body callback enforces it for answers without one.
        try set(CURLOPT_MAXFILESIZE_LARGE, offset: curl_off_t(options.maxResponseBytes), host: host)
        try set(CURLOPT_USERAGENT, options.userAgent, host: host)
        try check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER, host: host)

        switch request.method {
        case .get:
            try set(CURLOPT_HTTPGET, 1, host: host)
        case .post:
            let body = request.body ?? []
            try set(CURLOPT_POST, 1, host: host)
            try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(body.count), host: host)
            // libcurl copies the body. The pointer must not be NULL even for an empty body:
            // without POSTFIELDS libcurl would read the body from standard input.
            var empty: UInt8 = 0
            let code =
                body.isEmpty
                ? ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, &empty)
                : body.withUnsafeBytes { ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
            try check(code, CURLOPT_COPYPOSTFIELDS, host: host)
        }

        try check(
            ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
                let length = size * count
                return collector.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            }, CURLOPT_WRITEFUNCTION, host: host)
        try set(CURLOPT_WRITEDATA, pointer: context, host: host)
        try check(
            ccurl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
                let length = size * count
                return collector.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            }, CURLOPT_HEADERFUNCTION, host: host)
        try set(CURLOPT_HEADERDATA, pointer: context, host: host)
    }

    /// The error for a transfer that libcurl ended with `code`.
    private func failure(_ code: CURLcode, collector: ResponseCollector, address: ServerAddress, request: HTTPRequest) -> HTTPClientError {
        let host = address.display
        let explanation = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: ccurl_easy_strerror(code))
        let detail = request.redacting(explanation.escapingControlCharacters(limit: 300))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout(host: host, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
            CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR:
            return .connectionFailed(host: host, detail: detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_SHUTDOWN_FAILED:
            return .tls(host: host, detail: detail)
        case CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(host: host, limit: options.maxResponseBytes)
        case CURLE_WRITE_ERROR where collector.bodyTooLarge:
            return .responseTooLarge(host: host, limit: options.maxResponseBytes)
        case CURLE_WRITE_ERROR where collector.headersTooLarge:
            return .other(host: host, detail: "the server sent more than \(ResponseCollector.maxHeaderBytes) bytes of headers")
        case CURLE_URL_MALFORMAT:
            return .invalidURL(HTTPRequest.quoted(request.url), reason: detail)
        default:
            return .other(host: host, detail: detail)
        }
    }

    private func set(_ option: CURLoption, _ value: Int, host: String) throws(HTTPClientError) {
        try check(ccurl_setopt_long(handle, option, value), option, host: host)
    }

    private func set(_ option: CURLoption, offset value: curl_off_t, host: String) throws(HTTPClientError) {
        try check(ccurl_setopt_off(handle, option, value), option, host: host)
    }

    private func set(_ option: CURLoption, _ value: String?, host: String) throws(HTTPClientError) {
        let code = value.map { $0.withCString { ccurl_setopt_string(handle, option, $0) } } ?? ccurl_setopt_string(handle, option, nil)
        try check(code, option, host: host)
    }

    private func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer, host: String) throws(HTTPClientError) {
        try check(ccurl_setopt_pointer(handle, option, value), option, host: host)
    }

    /// A refused option aborts the request: each one is there for a reason.
    private func check(_ code: CURLcode, _ option: CURLoption, host: String) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            throw .other(
                host: host,
                detail: "this libcurl refused option \(option.rawValue) (\(String(cString: ccurl_easy_strerror(code)))); "
                    + "stepimport needs libcurl 7.85 or later")
        }
    }
}
