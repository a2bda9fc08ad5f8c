import Testing
@testable import StreamingText
import HealthDays

extension JSONToken {
    /// The token as the tests write it: `{@1:1`, `<"@1:2` (a string begins), `str:a@1:2`, `<-@2:5`
    /// (a number or literal begins), `num:-1@2:5`, `true@3:1`, `ws`, `?64#12@3:9` (a byte that
    /// begins no token, at offset 12).
    var recorded: String {
        let at = "@\(position.line):\(position.column)"
        switch kind {
        case .objectStart: return "{" + at
        case .objectEnd: return "}" + at
        case .arrayStart: return "[" + at
        case .arrayEnd: return "]" + at
        case .comma: return "," + at
        case .colon: return ":" + at
        case .stringStart: return "<\"" + at
        case .string: return "str:" + String(decoding: text, as: UTF8.self) + at
        case .scalarStart: return "<" + String(Character(Unicode.Scalar(byte))) + at
        case .number: return "num:" + String(decoding: text, as: UTF8.self) + at
        case .true: return "true" + at
        case .false: return "false" + at
        case .null: return "null" + at
        case .whiteSpace: return "ws"
        case .unexpected: return "?\(byte)#\(offset)" + at
        }
    }
}

@Suite struct JSONLexerTests {
    /// Lexes `bytes` cut at each of `cuts` (offsets, ascending) and finishes; the last word is
    /// `end@line:column`, or `end(empty)@...` when the input held nothing but a byte order mark.
    static func lex(_ bytes: [UInt8], cuts: [Int], maxStringLength: Int = 1 << 20) throws(ParseFailure) -> [String] {
        var lexer = JSONLexer(maxStringLength: maxStringLength)
        defer { lexer.deallocate() }
        var tokens: [String] = []
        func note(_ token: JSONToken) {
            // A run of white space cut between chunks is a token in each: one word for all.
            if token.kind != .whiteSpace || tokens.last != "ws" { tokens.append(token.recorded) }
        }
        var start = 0
        for end in cuts + [bytes.count] where end >= start {
            let piece = Array(bytes[start..<end])
            let result = piece.withUnsafeBytes { buffer in
                Result { () throws(ParseFailure) in
                    var chunk = try lexer.startChunk(buffer)
                    while let token = try lexer.next(&chunk) { note(token) }
                    try lexer.endChunk(chunk)
                }
            }
            try result.get()
            start = end
        }
        if let last = try lexer.finish() { note(last) }
        let end = lexer.endPosition
        tokens.append((lexer.inputIsEmpty ? "end(empty)" : "end") + "@\(end.line):\(end.column)")
        return tokens
    }

    /// Lexes `bytes` in pieces of `chunk` bytes.
    static func lex(_ bytes: [UInt8], chunk: Int, maxStringLength: Int = 1 << 20) throws(ParseFailure) -> [String] {
        try lex(bytes, cuts: Array(stride(from: chunk, to: bytes.count, by: chunk)), maxStringLength: maxStringLength)
    }

    /// Every way to feed `bytes` that the tests try: each chunk size, and each cut into two pieces.
    static func feedings(_ count: Int) -> [[Int]] {
        let sizes = (1...max(1, count)).map { chunk in Array(stride(from: chunk, to: count, by: chunk)) }
        return sizes + (0...count).map { [$0] }
    }

    /// The error for `bytes`, checked to be the same at every feeding.
    static func failure(_ bytes: [UInt8], maxStringLength: Int = 1 << 20) -> ParseFailure? {
        var first: ParseFailure?
        for cuts in feedings(bytes.count) {
            do {
                let tokens = try lex(bytes, cuts: cuts, maxStringLength: maxStringLength)
                Issue.record("no error with cuts \(cuts): \(tokens)")
                return nil
            } catch {
                if let first, first != error {
                    Issue.record("cuts \(cuts) gave \(error), the first feeding gave \(first)")
                    return nil
                }
                first = first ?? error
            }
        }
        return first
    }

    // Every kind of token, in an order no grammar allows (the lexer does not care), with every
    // escape, surrogate pairs in both cases of hex, UTF-8 of 2, 3 and 4 bytes, numbers in all
    // their forms and ended by every kind of byte, tokens with no space between them, and a
    // number that runs up to the end of the input.
    static let sample = "\u{FEFF}{\"k\\u00e9y\":[\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\",\r\n"
        + "\"😀\\ud83d\\ude00\\uD834\\uDD1E\\u20ac\", \"é₿𝄞\", \"\"],\n"
        + "\t[0, -0, 12, -3.25, 1e10, 2E-3, -1.5e+7, 0.5, 0e5, 0E+1, 10.01e-02, -0.0e0,\n"
        + "123456789012345678901234567890]}} : , ][ null\ttrue false\n"
        + "truefalse 1-2 0]1}2:3,4\"x\"\"y\"null[]@ 5"

    // Checked against an independent reading of `sample` (Python's json module for the strings).
    static let expected: [String] = [
        "{@1:1", "<\"@1:2", "str:kéy@1:2", ":@1:12", "[@1:13",
        "<\"@1:14", "str:a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti@1:14", ",@1:41", "ws",
        "<\"@2:1", "str:😀😀𝄞€@2:1", ",@2:34", "ws", "<\"@2:36", "str:é₿𝄞@2:36", ",@2:41", "ws",
        "<\"@2:43", "str:@2:43", "]@2:45", ",@2:46", "ws",
        "[@3:2", "<0@3:3", "num:0@3:3", ",@3:4", "ws", "<-@3:6", "num:-0@3:6", ",@3:8", "ws",
        "<1@3:10", "num:12@3:10", ",@3:12", "ws", "<-@3:14", "num:-3.25@3:14", ",@3:19", "ws",
        "<1@3:21", "num:1e10@3:21", ",@3:25", "ws", "<2@3:27", "num:2E-3@3:27", ",@3:31", "ws",
        "<-@3:33", "num:-1.5e+7@3:33", ",@3:40", "ws", "<0@3:42", "num:0.5@3:42", ",@3:45", "ws",
        "<0@3:47", "num:0e5@3:47", ",@3:50", "ws", "<0@3:52", "num:0E+1@3:52", ",@3:56", "ws",
        "<1@3:58", "num:10.01e-02@3:58", ",@3:67", "ws", "<-@3:69", "num:-0.0e0@3:69", ",@3:75", "ws",
        "<1@4:1", "num:123456789012345678901234567890@4:1", "]@4:31", "}@4:32", "}@4:33", "ws",
        ":@4:35", "ws", ",@4:37", "ws", "]@4:39", "[@4:40", "ws", "<n@4:42", "null@4:42", "ws",
        "<t@4:47", "true@4:47", "ws", "<f@4:52", "false@4:52", "ws",
        "<t@5:1", "true@5:1", "<f@5:5", "false@5:5", "ws", "<1@5:11", "num:1@5:11", "<-@5:12", "num:-2@5:12",
        "ws", "<0@5:15", "num:0@5:15", "]@5:16", "<1@5:17", "num:1@5:17", "}@5:18", "<2@5:19", "num:2@5:19",
        ":@5:20", "<3@5:21", "num:3@5:21", ",@5:22", "<4@5:23", "num:4@5:23", "<\"@5:24", "str:x@5:24",
        "<\"@5:27", "str:y@5:27", "<n@5:30", "null@5:30", "[@5:34", "]@5:35",
    ]

    @Test func readsEveryKindOfTokenWithItsPosition() throws {
        // The `@` begins no token: the lexer hands it over, with its offset, for the grammar to refuse.
        #expect(try Self.lex(Array(Self.sample.utf8), cuts: [])
                == Self.expected + ["?64#270@5:36", "ws", "<5@5:38", "num:5@5:38", "end@5:39"])
    }

    @Test func everyFeedingGivesTheSameTokens() throws {
        let bytes = Array(Self.sample.utf8)
        let whole = try Self.lex(bytes, cuts: [])
        for cuts in Self.feedings(bytes.count) {
            let tokens = try Self.lex(bytes, cuts: cuts)
            if tokens != whole {
                Issue.record("cuts \(cuts.prefix(3))... gave \(tokens)")
                return
            }
        }
    }

    @Test func aNumberEndsAtTheFirstByteThatCannotContinueIt() throws {
        #expect(try Self.lex(Array("7".utf8), chunk: 1) == ["<7@1:1", "num:7@1:1", "end@1:2"])
        #expect(try Self.lex(Array("-0.5E+10]".utf8), chunk: 2) == ["<-@1:1", "num:-0.5E+10@1:1", "]@1:9", "end@1:10"])
        // The byte that ends it is read again, between tokens.
        #expect(try Self.lex(Array("12x".utf8), chunk: 1) == ["<1@1:1", "num:12@1:1", "?120#2@1:3", "end@1:4"])
    }

    @Test func theEndOfTheInputIsTold() throws {
        #expect(try Self.lex([], cuts: []) == ["end(empty)@1:1"])
        #expect(try Self.lex([0xEF, 0xBB, 0xBF], chunk: 1) == ["end(empty)@1:1"])
        #expect(try Self.lex(Array(" \n ".utf8), chunk: 1) == ["ws", "end@2:2"])
    }

    @Test func aByteThatBeginsNoTokenIsHandedOverWithItsOffset() throws {
        // The offset counts bytes from the very start, a byte order mark included; columns do not.
        #expect(try Self.lex([0xFF, 0xFE], chunk: 1) == ["?255#0@1:1", "?254#1@1:2", "end@1:3"])
        #expect(try Self.lex([0xEF, 0xBB, 0xBF, 0x20, 0x00], chunk: 2) == ["ws", "?0#4@1:2", "end@1:3"])
        #expect(try Self.lex(Array("\"é\"#".utf8), chunk: 1) == ["<\"@1:1", "str:é@1:1", "?35#4@1:4", "end@1:5"])
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let message: String
        init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
            self.init(Array(text.utf8), line, column, message)
        }
        init(_ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
            self.bytes = bytes
            self.line = line
            self.column = column
            self.message = message
        }
        var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    static let badInputs: [BadInput] = [
        BadInput("tru}", 1, 4, "expected true but found \"tru\" followed by '}'"),
        BadInput("nul", 1, 4, "the input ends inside the literal null that begins at line 1, column 1: the file is truncated"),
        BadInput("\n  fAlse", 2, 4, "expected false but found \"f\" followed by 'A'"),
        BadInput("\"abc", 1, 5, "the input ends inside a string that begins at line 1, column 1: the file is truncated"),
        BadInput("\"ab\\", 1, 5, "the input ends inside a string that begins at line 1, column 1: the file is truncated"),
        BadInput("\"ab\\u00", 1, 8, "the input ends inside a string that begins at line 1, column 1: the file is truncated"),
        BadInput("\"\\ud83d\\", 1, 9, "the input ends inside a string that begins at line 1, column 1: the file is truncated"),
        BadInput("\"é", 1, 3, "the input ends inside a string that begins at line 1, column 1: the file is truncated"),
        BadInput("-", 1, 2, "the input ends inside a number that begins at line 1, column 1: the file is truncated"),
        BadInput("1.", 1, 3, "the input ends inside a number that begins at line 1, column 1: the file is truncated"),
        BadInput("1e+", 1, 4, "the input ends inside a number that begins at line 1, column 1: the file is truncated"),
        BadInput("-x", 1, 2, "expected a digit after '-', found 'x'"),
        BadInput("1.]", 1, 3, "expected a digit after the decimal point, found ']'"),
        BadInput("1.e5", 1, 3, "expected a digit after the decimal point, found 'e'"),
        BadInput("1e]", 1, 3, "expected a digit or a sign in the exponent, found ']'"),
        BadInput("1E- ", 1, 4, "expected a digit in the exponent, found a space"),
        BadInput("01", 1, 2, "a number may not start with 0 followed by more digits"),
        BadInput("-00", 1, 3, "a number may not start with 0 followed by more digits"),
        BadInput("\"x\ty\"", 1, 3, "the control character U+0009 (a tab, write it as \\t) must be escaped inside a string"),
        BadInput("\"\r\"", 1, 2, "the control character U+000D (a carriage return, write it as \\r) must be escaped inside a string"),
        BadInput("\"\u{1}\"", 1, 2, "the control character U+0001 must be escaped inside a string"),
        BadInput("\"\\x\"", 1, 3, "invalid escape \\x in a string; JSON allows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX"),
        BadInput("\"\\\t\"", 1, 3, "invalid escape \\<0x09> in a string; JSON allows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX"),
        BadInput("\"\\u12G4\"", 1, 6, "expected a hexadecimal digit in a \\u escape, found 'G'"),
        BadInput("\"\\ud83d\"", 1, 8, "the escape \\uD83D (a high surrogate) must be followed by a \\u escape of a low surrogate, found '\"'"),
        BadInput("\"\\ud83d\\n\"", 1, 9, "the escape \\uD83D (a high surrogate) must be followed by a \\u escape of a low surrogate, found 'n'"),
        BadInput("\"\\ud83d\\u0041\"", 1, 13, "the escape \\uD83D (a high surrogate) must be followed by a low surrogate \\uDC00-\\uDFFF, not \\u0041"),
        BadInput("\"\\ud83d\\ud83d\"", 1, 13, "the escape \\uD83D (a high surrogate) must be followed by a low surrogate \\uDC00-\\uDFFF, not \\uD83D"),
        BadInput("\"\\uDFFF\"", 1, 7, "the escape \\uDFFF is a low surrogate without the high surrogate that must come before it"),
        BadInput([0x22, 0x61, 0xC3, 0x28, 0x22], 1, 4, "invalid UTF-8 in a string (byte 0x28): JSON text must be UTF-8"),
        BadInput([0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid UTF-8 in a string (byte 0xC0): JSON text must be UTF-8"),
        BadInput([0x22, 0xE0, 0x9F, 0x80, 0x22], 1, 3, "invalid UTF-8 in a string (byte 0x9F): JSON text must be UTF-8"),
        BadInput([0x22, 0xED, 0xA0, 0x80, 0x22], 1, 3, "invalid UTF-8 in a string (byte 0xA0): JSON text must be UTF-8"),
        BadInput([0x22, 0xF0, 0x8F, 0x80, 0x80, 0x22], 1, 3, "invalid UTF-8 in a string (byte 0x8F): JSON text must be UTF-8"),
        BadInput([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 3, "invalid UTF-8 in a string (byte 0x90): JSON text must be UTF-8"),
        BadInput([0x22, 0xE2, 0x82, 0x22], 1, 3, "invalid UTF-8 in a string (byte 0x22): JSON text must be UTF-8"),
        BadInput([0x22, 0xFF, 0x22], 1, 2, "invalid UTF-8 in a string (byte 0xFF): JSON text must be UTF-8"),
        BadInput([0x22, 0xBF, 0x22], 1, 2, "invalid UTF-8 in a string (byte 0xBF): JSON text must be UTF-8"),
        BadInput([0xEF, 0xBB, 0x5B, 0x5D], 1, 1, "the input starts with a broken UTF-8 byte order mark"),
        BadInput([0xEF, 0xBB], 1, 1, "the input ends inside a byte order mark: the file is truncated or not JSON"),
    ]

    @Test(arguments: badInputs)
    func malformedTokensFailWithTheirPosition(_ input: BadInput) throws {
        let error = try #require(Self.failure(input.bytes))
        #expect(error.kind == .malformed)
        #expect(error.message == input.message)
        #expect(error.line == input.line)
        #expect(error.column == input.column)
    }

    @Test func stringsAndNumbersAreLimitedInUnescapedLength() throws {
        // 10 bytes fit, whole or split, escaped or not; 11 do not, and the error is where the token begins.
        for text in ["\"" + String(repeating: "a", count: 8) + "\\u00e9\"", "\"abcdefghi\\n\"", "-123456789",
                     "\"" + String(repeating: "a", count: 6) + "\\ud83d\\ude00\""] {
            #expect(throws: Never.self) { try Self.lex(Array(("  " + text).utf8), chunk: 3, maxStringLength: 10) }
        }
        for text in ["\"" + String(repeating: "a", count: 11) + "\"", "\"abcdefghij\\n\"",
                     "\"" + String(repeating: "a", count: 9) + "\\u00e9\"", "\"a\\ud83d\\ude00aaaaaa\"",
                     "-1234567890", "1.234567890", "12345678901"] {
            let error = try #require(Self.failure(Array(("  " + text).utf8), maxStringLength: 10), "\(text)")
            let what = text.hasPrefix("\"") ? "string" : "number"
            #expect(error.message == "a \(what) longer than 10 bytes begins here, over the limit for one value")
            #expect(error.line == 1 && error.column == 3)
        }
    }

    @Test func aTokenThatOutgrowsTheScratchBufferIsKeptWhole() throws {
        // Longer than the 4096 bytes the scratch buffer starts with, split and escaped.
        let long = String(repeating: "abcdefghij", count: 1000)
        let text = "\"" + long + "\\n" + long + "\" " + String(repeating: "9", count: 5000)
        let tokens = try Self.lex(Array(text.utf8), chunk: 999)
        #expect(tokens == ["<\"@1:1", "str:\(long)\n\(long)@1:1", "ws",
                           "<9@1:20006", "num:\(String(repeating: "9", count: 5000))@1:20006", "end@1:25006"])
    }

    @Test func theEndPositionCountsCharacters() throws {
        var lexer = JSONLexer(maxStringLength: 100)
        defer { lexer.deallocate() }
        var tokens: [String] = []
        let bytes = Array("\u{FEFF}[\"é😀\",\n  12".utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ParseFailure) in
                var chunk = try lexer.startChunk(buffer)
                while let token = try lexer.next(&chunk) { tokens.append(token.recorded) }
                try lexer.endChunk(chunk)
            }
        }
        try result.get()
        #expect(lexer.endPosition == JSONPosition(line: 2, column: 5, offset: 18), "mark 3, é 2, 😀 4 bytes")
        #expect(tokens == ["[@1:1", "<\"@1:2", "str:é😀@1:2", ",@1:6", "ws", "<1@2:3"])
    }
}
