extension Unicode.Scalar {
    /// A C0 control character (U+0000 to U+001F, tab and line breaks included), DEL, or a C1 control
    /// character (U+0080 to U+009F): the characters a terminal may act on instead of showing.
    ///
    /// The one definition of a control character for everything stepimport shows or writes.
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}

extension String {
    /// The text with every control character (`isControlCharacter`) written as `\u{1b}`, cut at
    /// `limit` characters (then `...`): for every text that came from a file or a server (a source
    /// name, a zip entry, a value quoted in a message, a server's answer) before it is shown or
    /// written as text.
    ///
    /// The one escaping function: ESC, BEL or a line break in an export or an answer never reaches
    /// a terminal, a log or a CSV file raw. Text without control characters comes back unchanged,
    /// so escaping twice is harmless.
    public func escapingControlCharacters(limit: Int = .max) -> String {
        var result = ""
        for (index, scalar) in unicodeScalars.enumerated() {
            if index == limit {
                result += "..."
                break
            }
            if scalar.isControlCharacter {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text with every occurrence of each secret (compared byte for byte, case-sensitively,
    /// the longest first) replaced by `[redacted]`: the one redaction of credentials in text that
    /// a server or a library may have echoed.
    public func redacting(_ secrets: [String]) -> String {
        var result = self
        for secret in secrets.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            result = result.replacingEvery(secret, with: "[redacted]")
        }
        return result
    }

    /// The text with every occurrence of `target` (compared byte for byte) replaced.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return self }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                output.append(contentsOf: replacement.utf8)
                index += pattern.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
