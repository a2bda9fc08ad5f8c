/// Gathers one response from libcurl's header and body callbacks, within size limits.
final class ResponseCollector {
    /// Header bytes accepted per response; libcurl limits single lines, not their number.
    static let maxHeaderBytes = 256 * 1024

    let maxBodyBytes: Int
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    private var headerBytes = 0
    /// Set when the body went over `maxBodyBytes` and the transfer was stopped.
    private(set) var bodyTooLarge = false
    /// Set when the headers went over `maxHeaderBytes` and the transfer was stopped.
    private(set) var headersTooLarge = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// Takes one chunk of body; false stops the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= maxBodyBytes - body.count else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Takes one header line as libcurl hands it over (status lines and the blank line
    /// included); false stops the transfer.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= Self.maxHeaderBytes else {
            headersTooLarge = true
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response begins (after a 1xx): its headers replace the interim ones.
            headers = [:]
            return true
        }
        guard let colon = line.firstIndex(of: ":") else {
            return true
        }
        let name = line[..<colon].lowercased().trimmingSpaces()
        let value = String(line[line.index(after: colon)...]).trimmingLineEnd().trimmingSpaces()
        guard !name.isEmpty else { return true }
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
        return true
    }
}

extension String {
    /// The text without trailing CR and LF.
    fileprivate func trimmingLineEnd() -> String {
        var result = Substring(self)
        while let last = result.unicodeScalars.last, last == "\r" || last == "\n" {
            result = Substring(result.unicodeScalars.dropLast())
        }
        return String(result)
    }
}
