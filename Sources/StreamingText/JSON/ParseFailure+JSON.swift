import HealthDays
/// How the JSON lexer and grammar word their failures: one copy of each phrase for both.
extension ParseFailure {
    /// Malformed JSON at `position`.
    static func json(_ message: String, at position: JSONPosition) -> ParseFailure {
        ParseFailure(kind: .malformed, at: position.sourcePosition, message: message)
    }

    /// The input stops inside `place` (a string, a number, an array...), at its end.
    static func jsonTruncated(inside place: String, at end: JSONPosition) -> ParseFailure {
        json("the input ends inside \(place): the file is truncated", at: end)
    }

    /// A byte as the user would name it in a message: `'x'`, `a tab`, `the byte 0xC3 (...)`.
    static func describeJSON(_ b: UInt8) -> String {
        switch b {
        case 0x0A: return "a line break"
        case 0x0D: return "a carriage return"
        case 0x09: return "a tab"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(b)))'"
        case 0x20: return "a space"
        case 0x00..<0x20, 0x7F: return "the control character U+00\(hex(UInt32(b)).suffix(2))"
        default: return "the byte 0x\(hex(UInt32(b)).suffix(2)) (a character outside a string)"
        }
    }

    /// A byte as it appears after a backslash in a message: itself when printable, else `<0xNN>`.
    static func describeJSONInline(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? String(Character(Unicode.Scalar(b))) : "<0x\(hex(UInt32(b)).suffix(2))>"
    }

    /// At least four upper-case hexadecimal digits, as in a `\u` escape.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
