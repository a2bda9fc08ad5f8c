import Glibc

extension HTTPClientOptions {
    /// Refuses settings that cannot work, so that a mistake shows when the client is made
    /// rather than on the first request.
    func validate() throws(HTTPClientError) {
        guard connectTimeout > .zero, timeout > .zero else {
            throw .invalidOptions("timeouts must be longer than zero")
        }
        guard maxResponseBytes > 0 else {
            throw .invalidOptions("the largest response size must be at least 1 byte")
        }
        guard !userAgent.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalidOptions("the user agent \(HTTPRequest.quoted(userAgent)) holds control characters")
        }
        if let path = caCertificateFile {
            try Self.checkCertificateFile(path)
        }
    }

    /// Checks that `path` is a readable PEM file holding at least one certificate.
    private static func checkCertificateFile(_ path: String) throws(HTTPClientError) {
        guard let file = fopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw .invalidOptions("cannot read the CA certificate file \(path): \(reason)")
        }
        defer { fclose(file) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // A CA bundle is a few hundred KiB; reading stops at 16 MiB.
        while contents.count < 16 << 20 {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            contents.append(contentsOf: chunk[0..<count])
        }
        if ferror(file) != 0 {
            throw .invalidOptions("cannot read the CA certificate file \(path): read error")
        }
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        let hasCertificate = contents.count >= marker.count
            && (0...(contents.count - marker.count)).contains { contents[$0..<($0 + marker.count)].elementsEqual(marker) }
        guard hasCertificate else {
            throw .invalidOptions(
                "the CA certificate file \(path) holds no PEM certificate (a \"-----BEGIN CERTIFICATE-----\" block); "
                    + "convert a DER file with: openssl x509 -inform der -in FILE -out FILE.pem")
        }
    }

    /// A duration in whole milliseconds for libcurl, rounded up, at least 1.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let (whole, multiplyOverflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (total, addOverflow) = whole.addingReportingOverflow(fraction)
        if multiplyOverflow || addOverflow { return Int.max }
        return max(1, Int(clamping: total))
    }
}
