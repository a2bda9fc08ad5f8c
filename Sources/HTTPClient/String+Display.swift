extension String {
    /// The text with control characters written as `\u{..}`, cut at `limit` characters, for
    /// messages that quote what a user or a server gave.
    func escapingControlCharacters(limit: Int) -> String {
        var result = ""
        for (index, scalar) in unicodeScalars.enumerated() {
            if index == limit {
                result += "..."
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
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
