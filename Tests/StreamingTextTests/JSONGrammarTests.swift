import Testing
@testable import StreamingText
import HealthDays

@Suite struct JSONGrammarTests {
    /// Plays a script of tokens into a grammar as the lexer would, the n-th token at column n on
    /// line 1, then ends the input. A token is `{ } [ ] , :`, `" "` (white space), `"x` (a string
    /// holding x), `true`, `false`, `null`, `?x` (a byte x that begins no token), or a number.
    static func play(_ script: [String], maxDepth: Int = 512, multiple: Bool = true) throws(ParseFailure) -> TokenRecorder {
        let recorder = TokenRecorder()
        var grammar = JSONGrammar(maxDepth: maxDepth, allowsMultipleValues: multiple)
        defer { grammar.deallocate() }
        for (index, token) in script.enumerated() {
            let at = JSONPosition(line: 1, column: index + 1, offset: Int64(index))
            let text = Array(token.utf8)
            let result = text.withUnsafeBytes { bytes in
                Result { () throws(ParseFailure) in
                    for token in tokens(token, bytes, at: at, offset: Int64(index)) {
                        try grammar.accept(token, to: recorder)
                    }
                }
            }
            try result.get()
        }
        try grammar.end(at: JSONPosition(line: 1, column: script.count + 1, offset: Int64(script.count)), inputIsEmpty: script.isEmpty)
        return recorder
    }

    /// The lexer's tokens for one word of a script: two for a string or a scalar, its start and
    /// the whole; `bytes` are the word's.
    private static func tokens(_ word: String, _ bytes: UnsafeRawBufferPointer, at position: JSONPosition,
                               offset: Int64) -> [JSONToken] {
        let punctuation: [String: JSONToken.Kind] = ["{": .objectStart, "}": .objectEnd, "[": .arrayStart,
                                                     "]": .arrayEnd, ",": .comma, ":": .colon, " ": .whiteSpace]
        let literals: [String: JSONToken.Kind] = ["true": .true, "false": .false, "null": .null]
        let first = bytes[0]
        if let kind = punctuation[word] {
            return [JSONToken(kind, at: position)]
        } else if first == UInt8(ascii: "?") {
            return [JSONToken(.unexpected, at: position, byte: bytes[1], offset: offset)]
        } else if first == UInt8(ascii: "\"") {
            return [JSONToken(.stringStart, at: position),
                    JSONToken(.string, at: position, text: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))]
        } else if let kind = literals[word] {
            return [JSONToken(.scalarStart, at: position, byte: first), JSONToken(kind, at: position)]
        }
        return [JSONToken(.scalarStart, at: position, byte: first), JSONToken(.number, at: position, text: bytes)]
    }

    static func failure(_ script: [String], maxDepth: Int = 512, multiple: Bool = true) -> ParseFailure? {
        do {
            let recorder = try play(script, maxDepth: maxDepth, multiple: multiple)
            Issue.record("no error: \(recorder.events)")
            return nil
        } catch {
            return error
        }
    }

    @Test func tokensInOrderBecomeHandlerEvents() throws {
        let script = ["{", "\"a", ":", "[", "1", ",", "\"s", ",", "true", ",", "null", ",", "{", "}", ",", "[", "]", "]",
                      ",", "\"b", ":", "false", "}"]
        let recorder = try Self.play(script)
        #expect(recorder.events == ["{", "key:a", "[", "num:1", "str:s", "true", "null", "{", "}", "[", "]", "]",
                                    "key:b", "false", "}"])
        // The handler gets each token's own position; commas and colons make no event.
        #expect(recorder.positions.map(\.column) == [1, 2, 4, 5, 7, 9, 11, 13, 14, 16, 17, 18, 20, 22, 23])
    }

    @Test func aStringIsAKeyOnlyWhereAKeyMayStand() throws {
        let recorder = try Self.play(["[", "\"v", ",", "{", "\"k", ":", "\"v", ",", "\"k2", ":", "\"v", "}", "]"])
        #expect(recorder.events == ["[", "str:v", "{", "key:k", "str:v", "key:k2", "str:v", "}", "]"])
    }

    @Test func severalTopLevelValuesNeedSpaceAfterAScalar() throws {
        #expect(try Self.play(["1", " ", "2", " ", "\"s", "{", "}", "[", "]", "true", " ", "null"]).events
                == ["num:1", "num:2", "str:s", "{", "}", "[", "]", "true", "null"])
        let glued = try #require(Self.failure(["true", "false"]))
        #expect(glued.message == "expected white space or the end of the input after the top-level value, found 'f'")
        #expect(glued.column == 2)
        let one = try #require(Self.failure(["{", "}", " ", "1"], multiple: false))
        #expect(one.message == "expected the end of the input after the top-level value, found '1'")
        let scalar = try #require(Self.failure(["1", " ", "\"s"], multiple: false))
        #expect(scalar.message == "expected the end of the input after the top-level value, found '\"'")
    }

    struct BadScript: CustomTestStringConvertible, Sendable {
        let script: [String]
        let column: Int
        let message: String
        var testDescription: String { script.joined(separator: " ") }
    }

    static let badScripts: [BadScript] = [
        BadScript(script: ["{", "\"a", "\"b"], column: 3, message: "expected ':' after the key, found '\"'"),
        BadScript(script: ["{", "\"a", ":", "1", "\"b"], column: 5, message: "expected ',' or '}', found '\"' (a comma is missing)"),
        BadScript(script: ["[", "1", "2"], column: 3, message: "expected ',' or ']', found '2'"),
        BadScript(script: ["[", "1", "}"], column: 3, message: "expected ',' or ']', found '}'"),
        BadScript(script: ["{", "\"a", ":", "1", "]"], column: 5, message: "expected ',' or '}', found ']'"),
        BadScript(script: ["[", "1", ",", "]"], column: 4, message: "expected a value after ',', found ']' (JSON allows no comma before a closing bracket)"),
        BadScript(script: ["{", "\"a", ":", "1", ",", "}"], column: 6, message: "expected a key in double quotes after ',', found '}' (JSON allows no comma before a closing bracket)"),
        BadScript(script: ["{", "\"a", ":", "}"], column: 4, message: "expected a value after ':', found '}'"),
        BadScript(script: ["{", "\"a", ":", ","], column: 4, message: "expected a value after ':', found ','"),
        BadScript(script: ["{", "1"], column: 2, message: "expected a key in double quotes or '}', found '1'"),
        BadScript(script: ["{", "?'"], column: 2, message: "expected a key in double quotes or '}', found ''' (JSON strings use double quotes)"),
        BadScript(script: ["{", "]"], column: 2, message: "expected a key in double quotes or '}', found ']'"),
        BadScript(script: ["[", ":"], column: 2, message: "expected a value or ']', found ':'"),
        BadScript(script: ["[", "}"], column: 2, message: "expected a value or ']', found '}'"),
        BadScript(script: [","], column: 1, message: "expected a JSON value (an object, array, string, number, true, false or null), found ','"),
        BadScript(script: ["]"], column: 1, message: "expected a JSON value (an object, array, string, number, true, false or null), found ']'"),
        BadScript(script: ["?/"], column: 1, message: "expected a JSON value (an object, array, string, number, true, false or null), found '/' (JSON has no comments)"),
        BadScript(script: ["?\u{0}"], column: 1, message: "expected a JSON value (an object, array, string, number, true, false or null), found the control character U+0000 (the file looks like UTF-16; JSON must be UTF-8)"),
        BadScript(script: [" ", " ", "?\u{0}"], column: 3, message: "expected a JSON value (an object, array, string, number, true, false or null), found the control character U+0000"),
        BadScript(script: ["[", "]", "]"], column: 3, message: "expected another top-level value or the end of the input, found ']'"),
        BadScript(script: ["[", "]", ":"], column: 3, message: "expected another top-level value or the end of the input, found ':'"),
        BadScript(script: ["1", ","], column: 2, message: "expected white space or the end of the input after the top-level value, found ','"),
        BadScript(script: ["\"k", ":"], column: 2, message: "expected another top-level value or the end of the input, found ':'"),
        BadScript(script: [], column: 1, message: "the input is empty: expected a JSON value"),
        BadScript(script: [" "], column: 2, message: "the input holds only white space: expected a JSON value"),
        BadScript(script: ["[", "{"], column: 3, message: "the input ends inside an object that begins at line 1, column 2 (2 objects and arrays are open): the file is truncated"),
        BadScript(script: ["[", "1", ","], column: 4, message: "the input ends inside an array that begins at line 1, column 1: the file is truncated"),
        BadScript(script: ["{", "\"a"], column: 3, message: "the input ends inside an object that begins at line 1, column 1: the file is truncated"),
    ]

    @Test(arguments: badScripts)
    func tokensOutOfOrderFailWhereTheyBegin(_ bad: BadScript) throws {
        let error = try #require(Self.failure(bad.script))
        #expect(error.kind == .malformed)
        #expect(error.message == bad.message)
        #expect(error.line == 1 && error.column == bad.column)
    }

    @Test func aMisplacedStringFailsBeforeItIsRead() throws {
        // The grammar refuses the opening quote; what follows it is never read.
        let error = try #require(JSONTokenizerTests.failure("{\"a\" \"b\\x"))
        #expect(error.message == "expected ':' after the key, found '\"'")
        #expect(error.column == 6)
        let number = try #require(JSONTokenizerTests.failure("{\"a\": 1 -"))
        #expect(number.message == "expected ',' or '}', found '-'")
    }

    @Test func nestingIsLimitedWhereTheContainerOpens() throws {
        #expect(try Self.play(["[", "{", "\"a", ":", "[", "]", "}", "]"], maxDepth: 3).events.count == 7)
        // Closing gives the level back.
        #expect(try Self.play(["[", "[", "]", ",", "[", "]", "]"], maxDepth: 2).events.count == 6)
        let error = try #require(Self.failure(["[", "{", "\"a", ":", "[", "[", "]"], maxDepth: 3))
        #expect(error.message == "objects and arrays are nested more than 3 levels deep")
        #expect(error.column == 6)
        let object = try #require(Self.failure(["[", "{", "}"], maxDepth: 1))
        #expect(object.message == "objects and arrays are nested more than 1 levels deep")
        #expect(object.column == 2)
    }

    @Test func theHandlersErrorComesOutUnchanged() throws {
        let recorder = TokenRecorder()
        recorder.stopAt = "stop"
        var grammar = JSONGrammar(maxDepth: 4, allowsMultipleValues: true)
        defer { grammar.deallocate() }
        try grammar.accept(JSONToken(.arrayStart, at: JSONPosition(line: 1, column: 1, offset: 0)), to: recorder)
        try grammar.accept(JSONToken(.stringStart, at: JSONPosition(line: 2, column: 3, offset: 4)), to: recorder)
        let result = Array("stop".utf8).withUnsafeBytes { bytes in
            Result { () throws(ParseFailure) in
                try grammar.accept(JSONToken(.string, at: JSONPosition(line: 2, column: 3, offset: 4), text: bytes), to: recorder)
            }
        }
        #expect(throws: ParseFailure(kind: .invalidRecord, line: 2, column: 3, message: "stop")) { try result.get() }
        #expect(recorder.events == ["["])
    }
}
