import Testing
@testable import StreamingText
import HealthDays

/// Writes every token down as text, e.g. `key:name`, `str:value`, `num:1e5`, `{`, `]`.
final class TokenRecorder: JSONTokenHandler {
    var events: [String] = []
    var positions: [JSONPosition] = []
    /// Throws from the handler when a string value equals this.
    var stopAt: String?

    private func note(_ event: String, _ position: JSONPosition) {
        events.append(event)
        positions.append(position)
    }

    func objectStart(at position: JSONPosition) throws(ParseFailure) { note("{", position) }
    func objectEnd(at position: JSONPosition) throws(ParseFailure) { note("}", position) }
    func arrayStart(at position: JSONPosition) throws(ParseFailure) { note("[", position) }
    func arrayEnd(at position: JSONPosition) throws(ParseFailure) { note("]", position) }
    func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
        note("key:" + String(decoding: utf8, as: UTF8.self), position)
    }
    func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
        let text = String(decoding: utf8, as: UTF8.self)
        if text == stopAt {
            throw ParseFailure(kind: .invalidRecord, line: position.line, column: position.column, message: "stop")
        }
        note("str:" + text, position)
    }
    func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
        note("num:" + String(decoding: text, as: UTF8.self), position)
    }
    func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure) { note(value ? "true" : "false", position) }
    func null(at position: JSONPosition) throws(ParseFailure) { note("null", position) }
}

@Suite struct JSONTokenizerTests {
    /// Feeds `bytes` in pieces of `chunk` bytes and finishes.
    static func tokenize(_ bytes: [UInt8], chunk: Int, multiple: Bool = true, maxDepth: Int = 512,
                         maxStringLength: Int = 1 << 20) throws(ParseFailure) -> TokenRecorder {
        let recorder = TokenRecorder()
        let tokenizer = JSONTokenizer(handler: recorder, maxDepth: maxDepth, maxStringLength: maxStringLength,
                                      allowsMultipleValues: multiple)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            let piece = Array(bytes[start..<end])
            let result = piece.withUnsafeBytes { buffer in
                Result { () throws(ParseFailure) in try tokenizer.feed(buffer) }
            }
            try result.get()
            start = end
        }
        try tokenizer.finish()
        return recorder
    }

    static func tokenize(_ text: String, chunk: Int = 1 << 16, multiple: Bool = true) throws(ParseFailure) -> [String] {
        try tokenize(Array(text.utf8), chunk: chunk, multiple: multiple).events
    }

    /// The error for `bytes`, checked to be the same at every chunk size.
    static func failure(_ bytes: [UInt8], multiple: Bool = true, maxDepth: Int = 512,
                        maxStringLength: Int = 1 << 20) -> ParseFailure? {
        var first: ParseFailure?
        let count = max(1, bytes.count)
        let sizes = count <= 200 ? Array(1...count) : Array(1...70) + [97, 256, count - 1, count]
        for chunk in sizes {
            do {
                _ = try tokenize(bytes, chunk: chunk, multiple: multiple, maxDepth: maxDepth, maxStringLength: maxStringLength)
                Issue.record("no error at chunk size \(chunk)")
                return nil
            } catch {
                if let first, first != error {
                    Issue.record("chunk size \(chunk) gave \(error), chunk size 1 gave \(first)")
                    return nil
                }
                first = first ?? error
            }
        }
        return first
    }

    static func failure(_ text: String, multiple: Bool = true) -> ParseFailure? {
        failure(Array(text.utf8), multiple: multiple)
    }

    // A document with every kind of token, escapes, multi-byte UTF-8, and white space of every kind.
    static let document = "\u{FEFF}{\n"
        + "  \"name\": \"caf\\u00e9 \\\"quoted\\\" back\\\\slash \\/ \\b\\f\\n\\r\\t\",\r\n"
        + "\t\"emoji\": \"😀 = \\ud83d\\ude00 = \\uD83D\\uDE00\",\n"
        + "  \"accents\": \"Ünïcödé ₿ 𝄞 кириллица\",\n"
        + "  \"numbers\": [0, -0, 12, -3.25, 1e10, 2E-3, -1.5e+7, 0.5, 123456789012345678901234567890],\n"
        + "  \"nested\": {\"a\": [[], {}, [{\"b\": null}]], \"t\": true, \"f\": false},\n"
        + "  \"\": \"\",\n"
        + "  \"k\\u00e9y\": \"\\u0000\\u001f\\u20AC\",\n"
        + "  \"ws\" : [ 1 ,\t2 ,\n  3 ]\n"
        + "}\n"

    static let expected: [String] = [
        "{",
        "key:name", "str:café \"quoted\" back\\slash / \u{8}\u{c}\n\r\t",
        "key:emoji", "str:😀 = 😀 = 😀",
        "key:accents", "str:Ünïcödé ₿ 𝄞 кириллица",
        "key:numbers", "[", "num:0", "num:-0", "num:12", "num:-3.25", "num:1e10", "num:2E-3", "num:-1.5e+7", "num:0.5",
        "num:123456789012345678901234567890", "]",
        "key:nested", "{", "key:a", "[", "[", "]", "{", "}", "[", "{", "key:b", "null", "}", "]", "]",
        "key:t", "true", "key:f", "false", "}",
        "key:", "str:",
        "key:kéy", "str:\u{0}\u{1f}€",
        "key:ws", "[", "num:1", "num:2", "num:3", "]",
        "}",
    ]

    @Test func readsEveryKindOfToken() throws {
        #expect(try Self.tokenize(Self.document) == Self.expected)
    }

    @Test func everyChunkSizeGivesTheSameTokens() throws {
        let bytes = Array(Self.document.utf8)
        for chunk in 1...bytes.count {
            let events = try Self.tokenize(bytes, chunk: chunk).events
            if events != Self.expected {
                Issue.record("chunk size \(chunk) gave \(events)")
                return
            }
        }
    }

    @Test func positionsAreLinesAndCharacterColumns() throws {
        let recorder = try Self.tokenize(Array("{\"é😀\": [1,\n  \"x\", {\"k\": true}]}".utf8), chunk: 3)
        let positions = recorder.positions.map { "\($0.line):\($0.column)" }
        #expect(recorder.events == ["{", "key:é😀", "[", "num:1", "str:x", "{", "key:k", "true", "}", "]", "}"])
        // Columns count characters: é and 😀 are one column each, not 2 and 4 bytes.
        #expect(positions == ["1:1", "1:2", "1:8", "1:9", "2:3", "2:8", "2:9", "2:14", "2:18", "2:19", "2:20"])
    }

    @Test func aByteOrderMarkIsSkippedAndNotCounted() throws {
        let recorder = try Self.tokenize([0xEF, 0xBB, 0xBF] + Array("[true]".utf8), chunk: 1)
        #expect(recorder.events == ["[", "true", "]"])
        #expect(recorder.positions.first == JSONPosition(line: 1, column: 1, offset: 3), "the mark is not a column but is 3 bytes")
        let broken = try #require(Self.failure([0xEF, 0xBB] + Array("[]".utf8)))
        #expect(broken.message.contains("byte order mark"))
    }

    @Test func severalTopLevelValuesAreJSONLines() throws {
        let text = "{\"a\":1}\n{\"a\":2}{}\n[3] 4 \"five\"\n"
        #expect(try Self.tokenize(text, chunk: 1) == ["{", "key:a", "num:1", "}", "{", "key:a", "num:2", "}", "{", "}",
                                                      "[", "num:3", "]", "num:4", "str:five"])
        let error = try #require(Self.failure(text, multiple: false))
        #expect(error.line == 2 && error.column == 1)
        #expect(error.position.byteOffset == 8, "after the 7 bytes of the first line and its line break")
        #expect(error.message == "expected the end of the input after the top-level value, found '{'")
    }

    @Test func thePositionIsWhereTheInputStops() throws {
        let tokenizer = JSONTokenizer(handler: TokenRecorder())
        let bytes = Array("[\"é\",\n  12".utf8)
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(ParseFailure) in try tokenizer.feed(buffer) } }
        try result.get()
        #expect(tokenizer.position == JSONPosition(line: 2, column: 5, offset: 11), "é is 2 bytes but 1 column")
        #expect(tokenizer.handler.events == ["[", "str:é"])
    }

    @Test func aNumberAtTheEndIsDeliveredByFinish() throws {
        #expect(try Self.tokenize("-12.5e3", chunk: 2) == ["num:-12.5e3"])
        #expect(try Self.tokenize("7") == ["num:7"])
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { text.debugDescription }
    }

    static let badInputs: [BadInput] = [
        BadInput(text: "{\"a\": tru}", line: 1, column: 10, message: "expected true but found \"tru\" followed by '}'"),
        BadInput(text: "[nul", line: 1, column: 5, message: "the input ends inside the literal null that begins at line 1, column 2: the file is truncated"),
        BadInput(text: "[True]", line: 1, column: 2, message: "expected a value or ']', found 'T'"),
        BadInput(text: "[1, 2,]", line: 1, column: 7, message: "expected a value after ',', found ']' (JSON allows no comma before a closing bracket)"),
        BadInput(text: "{\"a\": 1,\n }", line: 2, column: 2, message: "expected a key in double quotes after ',', found '}' (JSON allows no comma before a closing bracket)"),
        BadInput(text: "{\"a\": \"abc", line: 1, column: 11, message: "the input ends inside a string that begins at line 1, column 7: the file is truncated"),
        BadInput(text: "{\"a\": \"ab\\u00", line: 1, column: 14, message: "the input ends inside a string that begins at line 1, column 7: the file is truncated"),
        BadInput(text: "{\"records\": [\n  {\"a\": 1}", line: 2, column: 11, message: "the input ends inside an array that begins at line 1, column 13 (2 objects and arrays are open): the file is truncated"),
        BadInput(text: "{\"a\"", line: 1, column: 5, message: "the input ends inside an object that begins at line 1, column 1: the file is truncated"),
        BadInput(text: "{\"a\":", line: 1, column: 6, message: "the input ends inside an object that begins at line 1, column 1: the file is truncated"),
        BadInput(text: "[-", line: 1, column: 3, message: "the input ends inside a number that begins at line 1, column 2: the file is truncated"),
        BadInput(text: "[1.]", line: 1, column: 4, message: "expected a digit after the decimal point, found ']'"),
        BadInput(text: "[1e]", line: 1, column: 4, message: "expected a digit or a sign in the exponent, found ']'"),
        BadInput(text: "[01]", line: 1, column: 3, message: "a number may not start with 0 followed by more digits"),
        BadInput(text: "[+1]", line: 1, column: 2, message: "expected a value or ']', found '+'"),
        BadInput(text: "[.5]", line: 1, column: 2, message: "expected a value or ']', found '.'"),
        BadInput(text: "{\"a\": \"x\ty\"}", line: 1, column: 9, message: "the control character U+0009 (a tab, write it as \\t) must be escaped inside a string"),
        BadInput(text: "[\"line\nbreak\"]", line: 1, column: 7, message: "the control character U+000A (a line break, write it as \\n) must be escaped inside a string"),
        BadInput(text: "[\"\\x\"]", line: 1, column: 4, message: "invalid escape \\x in a string; JSON allows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX"),
        BadInput(text: "[\"\\u12G4\"]", line: 1, column: 7, message: "expected a hexadecimal digit in a \\u escape, found 'G'"),
        BadInput(text: "[\"\\ud83d\"]", line: 1, column: 9, message: "the escape \\uD83D (a high surrogate) must be followed by a \\u escape of a low surrogate, found '\"'"),
        BadInput(text: "[\"\\ud83d\\u0041\"]", line: 1, column: 14, message: "the escape \\uD83D (a high surrogate) must be followed by a low surrogate \\uDC00-\\uDFFF, not \\u0041"),
        BadInput(text: "[\"\\ude00\"]", line: 1, column: 8, message: "the escape \\uDE00 is a low surrogate without the high surrogate that must come before it"),
        BadInput(text: "{'a': 1}", line: 1, column: 2, message: "expected a key in double quotes or '}', found ''' (JSON strings use double quotes)"),
        BadInput(text: "{\"a\" 1}", line: 1, column: 6, message: "expected ':' after the key, found '1'"),
        BadInput(text: "{\"a\": 1 \"b\": 2}", line: 1, column: 9, message: "expected ',' or '}', found '\"' (a comma is missing)"),
        BadInput(text: "[1 2]", line: 1, column: 4, message: "expected ',' or ']', found '2'"),
        BadInput(text: "[1}", line: 1, column: 3, message: "expected ',' or ']', found '}'"),
        BadInput(text: "// comment\n[]", line: 1, column: 1, message: "expected a JSON value (an object, array, string, number, true, false or null), found '/' (JSON has no comments)"),
        BadInput(text: "{}]", line: 1, column: 3, message: "expected another top-level value or the end of the input, found ']'"),
        BadInput(text: "truefalse", line: 1, column: 5, message: "expected white space or the end of the input after the top-level value, found 'f'"),
        BadInput(text: "1-2", line: 1, column: 2, message: "expected white space or the end of the input after the top-level value, found '-'"),
        BadInput(text: "", line: 1, column: 1, message: "the input is empty: expected a JSON value"),
        BadInput(text: " \n\t", line: 2, column: 2, message: "the input holds only white space: expected a JSON value"),
        BadInput(text: "{\"é\": x}", line: 1, column: 7, message: "expected a value after ':', found 'x'"),
    ]

    @Test(arguments: badInputs)
    func malformedInputFailsWithItsPosition(_ input: BadInput) throws {
        let error = try #require(Self.failure(input.text))
        #expect(error.kind == .malformed)
        #expect(error.message == input.message)
        #expect(error.line == input.line)
        #expect(error.column == input.column)
    }

    @Test func invalidUTF8InAStringIsRefused() throws {
        for bad: [UInt8] in [[0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            let error = try #require(Self.failure(Array("[\"a".utf8) + bad + Array("\"]".utf8)), "\(bad)")
            #expect(error.message.contains("invalid UTF-8"), "\(bad): \(error.message)")
            #expect(error.line == 1)
        }
        let outside = try #require(Self.failure([0x5B, 0xC3, 0xA9, 0x5D]))
        #expect(outside.message == "expected a value or ']', found the byte 0xC3 (a character outside a string)")
        let utf16 = try #require(Self.failure([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]))
        #expect(utf16.message.contains("looks like UTF-16"))
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try Self.tokenize(deep).count == 1024)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(Self.depthFailure(tooDeep))
        #expect(error.column == 513)
        #expect(error.message == "objects and arrays are nested more than 512 levels deep")
    }

    static func depthFailure(_ text: String) -> ParseFailure? {
        do {
            _ = try tokenize(Array(text.utf8), chunk: 100)
            return nil
        } catch {
            return error
        }
    }

    @Test func stringsAreLimitedInLength() throws {
        // Whole in one chunk, split across chunks, and with escapes: the limit is on the unescaped bytes.
        let fits = "[\"" + String(repeating: "a", count: 8) + "\\u00e9\"]"
        #expect(throws: Never.self) { try Self.tokenize(Array(fits.utf8), chunk: 3, maxStringLength: 10) }
        for text in ["[\"" + String(repeating: "a", count: 11) + "\"]", "[\"" + String(repeating: "a", count: 9) + "\\n\\n\"]",
                     "[\"" + String(repeating: "a", count: 9) + "\\u00e9\"]", "[" + String(repeating: "1", count: 11) + "]"] {
            let error = try #require(Self.failure(Array(text.utf8), maxStringLength: 10), "\(text)")
            #expect(error.line == 1 && error.column == 2)
            #expect(error.message.hasSuffix("longer than 10 bytes begins here, over the limit for one value"))
        }
    }

    @Test func aHandlerErrorStopsTheTokenizerForGood() throws {
        let recorder = TokenRecorder()
        recorder.stopAt = "stop"
        let tokenizer = JSONTokenizer(handler: recorder)
        let bytes = Array("[\"go\", \"stop\", \"never\"]".utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ParseFailure) in try tokenizer.feed(buffer) }
        }
        guard case .failure(let thrown) = result else {
            Issue.record("the handler's error did not come out of feed")
            return
        }
        #expect(thrown.message == "stop")
        #expect(thrown.column == 8)
        #expect(recorder.events == ["[", "str:go"])
        #expect(throws: ParseFailure.self) { try tokenizer.finish() }
    }

    @Test func aStringWholeInOneChunkIsNotCopied() throws {
        // The same tokens whether strings arrive whole or split: a check of the zero-copy path
        // against the copying one, at a size where some strings straddle chunks and some do not.
        let text = (0..<200).map { "{\"key\($0)\": \"value number \($0) \\u00e9\"}" }.joined(separator: "\n")
        let whole = try Self.tokenize(text)
        for chunk in [7, 64, 100] {
            #expect(try Self.tokenize(text, chunk: chunk) == whole)
        }
    }
}
