import DisplayText

/// JSON string literals for output written by hand (the API body, the batch journal).
public enum JSONString {
    /// `text` as a JSON string literal (RFC 8259): quotes and backslashes escaped, and every
    /// control character (C0, DEL and C1: `isControlCharacter`) and U+2028/U+2029 written as
    /// `\uXXXX`, so that a literal never holds a raw line break of any kind, one JSON document per
    /// line stays one line, and printing the JSON never lets a terminal act on a source's name.
    public static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.isControlCharacter || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
