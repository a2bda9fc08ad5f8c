import Testing
@testable import StreamingText
import HealthDays

@Suite struct CSVTokenizerTests {
    struct Record: Equatable, CustomStringConvertible {
        let line: Int
        let fields: [String]
        var description: String { "\(line): \(fields)" }
    }

    /// Runs the tokenizer over `bytes` cut into pieces of `chunk` bytes.
    static func tokenize(_ bytes: [UInt8], chunk: Int, limits: CSVTokenizer.Limits = .standard) throws(ParseFailure) -> [Record] {
        let tokenizer = CSVTokenizer(limits: limits)
        var records: [Record] = []
        let collect: CSVTokenizer.RecordHandler = { record in
            records.append(Record(line: record.line, fields: record.strings))
        }
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            let outcome = bytes[start..<end].withUnsafeBytes { piece in
                Result { () throws(ParseFailure) in try tokenizer.feed(piece, onRecord: collect) }
            }
            try outcome.get()
            start = end
        }
        try tokenizer.finish(onRecord: collect)
        return records
    }

    static func tokenize(_ text: String, chunk: Int, limits: CSVTokenizer.Limits = .standard) throws(ParseFailure) -> [Record] {
        try tokenize(Array(text.utf8), chunk: chunk, limits: limits)
    }

    /// A byte order mark, every line end, quoted commas, quotes and line breaks, empty fields,
    /// blank lines, multi-byte characters and no final line end.
    static let text = "\u{FEFF}name,count,note\r\n"           // line 1
        + "\"Anna’s \"\"Phone\"\"\",12,\"a, b\"\r\n"          // line 2
        + "plain,,\"line one\r\nline two\"\n"                 // lines 3-4
        + "\"\",7,\r"                                         // line 5, lone CR
        + "ü,3,\"x\ny\"\n"                                    // lines 6-7
        + "\n"                                                // line 8, blank
        + "\r\n"                                              // line 9, blank
        + "\"\"\"\",\"\",\r\n"                                // line 10
        + "Дмитрий 🏃,,\"\"\"quoted\"\"\"\n"                  // line 11
        + "last,1,end"                                        // line 12, no line end

    static let expected: [Record] = [
        Record(line: 1, fields: ["name", "count", "note"]),
        Record(line: 2, fields: ["Anna’s \"Phone\"", "12", "a, b"]),
        Record(line: 3, fields: ["plain", "", "line one\r\nline two"]),
        Record(line: 5, fields: ["", "7", ""]),
        Record(line: 6, fields: ["ü", "3", "x\ny"]),
        Record(line: 10, fields: ["\"", "", ""]),
        Record(line: 11, fields: ["Дмитрий 🏃", "", "\"quoted\""]),
        Record(line: 12, fields: ["last", "1", "end"]),
    ]

    @Test func readsEveryFormOfField() throws {
        #expect(try Self.tokenize(Self.text, chunk: 1 << 16) == Self.expected)
    }

    @Test func everyChunkSizeGivesTheSameRecords() throws {
        let length = Self.text.utf8.count
        for chunk in 1...length {
            let records = try Self.tokenize(Self.text, chunk: chunk)
            if records != Self.expected {
                Issue.record("chunk size \(chunk) gave \(records)")
                return
            }
        }
    }

    @Test func aFinalLineEndMakesNoEmptyRecord() throws {
        #expect(try Self.tokenize("a,b\n", chunk: 1) == [Record(line: 1, fields: ["a", "b"])])
        #expect(try Self.tokenize("a,b\r\n", chunk: 1) == [Record(line: 1, fields: ["a", "b"])])
        #expect(try Self.tokenize("a,b\r", chunk: 1) == [Record(line: 1, fields: ["a", "b"])])
        #expect(try Self.tokenize("a,b\n\n\n", chunk: 2) == [Record(line: 1, fields: ["a", "b"])])
    }

    @Test func aLastRecordWithoutLineEndKeepsItsEmptyFields() throws {
        #expect(try Self.tokenize("a,", chunk: 1) == [Record(line: 1, fields: ["a", ""])])
        #expect(try Self.tokenize("\"a\"", chunk: 1) == [Record(line: 1, fields: ["a"])])
        #expect(try Self.tokenize("x\n,", chunk: 1) == [Record(line: 1, fields: ["x"]), Record(line: 2, fields: ["", ""])])
    }

    @Test func emptyInputsHaveNoRecords() throws {
        #expect(try Self.tokenize("", chunk: 1).isEmpty)
        #expect(try Self.tokenize("\u{FEFF}", chunk: 1).isEmpty)
        #expect(try Self.tokenize("\n\r\n\r", chunk: 1).isEmpty)
    }

    @Test func bytesThatStartLikeAByteOrderMarkAreData() throws {
        for chunk in 1...4 {
            let records = try Self.tokenize([0xEF, 0xBB, 0x41, 0x0A, 0xEF, 0x0A], chunk: chunk)
            #expect(records == [Record(line: 1, fields: ["\u{FFFD}A"]), Record(line: 2, fields: ["\u{FFFD}"])])
        }
        // Only the first bytes of a file can be a byte order mark.
        let records = try Self.tokenize("a\n\u{FEFF}b\n", chunk: 1)
        #expect(records[1].fields == ["\u{FEFF}b"])
    }

    @Test func fieldsAreDeliveredAsTheirExactBytes() throws {
        let tokenizer = CSVTokenizer()
        var fields: [[UInt8]] = []
        let bytes: [UInt8] = Array("\"a\u{0}b\",\t x \r\n".utf8)
        // (A closure with typed throws handed to withUnsafeBytes crashes Swift 6.3.1's IRGen: use a Result.)
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(ParseFailure) in
                try tokenizer.feed(buffer) { record in
                    for index in 0..<record.count { fields.append(Array(record[index])) }
                }
            }
        }
        try outcome.get()
        try tokenizer.finish { _ in }
        #expect(fields == [[0x61, 0x00, 0x62], [0x09, 0x20, 0x78, 0x20]])
        #expect(tokenizer.records == 1)
        #expect(tokenizer.line == 2)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { message + " in " + text.debugDescription }
    }

    static let malformed: [Malformed] = [
        Malformed(text: "a,b\nc,d\"e\n", line: 2, column: 4, message: "a quote (\") in the middle of field 2"),
        Malformed(text: "a,\"bc\"d\n", line: 1, column: 7, message: "text after the closing quote of field 2"),
        Malformed(text: "x\r\n\"a\"\"b\"c", line: 2, column: 7, message: "text after the closing quote of field 1"),
        // Columns count characters, not bytes, and not the byte order mark.
        Malformed(text: "ää,x\"y\n", line: 1, column: 5, message: "in the middle of field 2"),
        Malformed(text: "\u{FEFF}🏃\"\n", line: 1, column: 2, message: "in the middle of field 1"),
        Malformed(text: "\"Zoë, ü\",x\"y\n", line: 1, column: 11, message: "in the middle of field 2"),
        // Lines count the line breaks inside quoted fields.
        Malformed(text: "\"a\r\nb\",c\"d\n", line: 2, column: 5, message: "in the middle of field 2"),
        Malformed(text: "\"a\rb\",\"c\" \n", line: 2, column: 7, message: "after the closing quote of field 2"),
        // An unclosed quote is found at the end, and reported where it opens.
        Malformed(text: "a,b\n\"open,\nmore\n", line: 2, column: 1, message: "field 1 opens a quote here that is never closed: the file is truncated or a quote is not closed"),
        Malformed(text: "a,b\nc,\"", line: 2, column: 3, message: "field 2 opens a quote here that is never closed"),
        Malformed(text: "a,\"b\"\"", line: 1, column: 3, message: "the file is truncated or a quote is not closed"),
    ]

    @Test(arguments: malformed)
    func malformedCSVFailsWithLineAndColumnAtEveryChunkSize(_ test: Malformed) throws {
        for chunk in 1...test.text.utf8.count {
            do {
                let records = try Self.tokenize(test.text, chunk: chunk)
                Issue.record("chunk size \(chunk): no error, records \(records)")
                return
            } catch {
                guard error.kind == .malformed, error.line == test.line, error.column == test.column,
                      error.message.contains(test.message)
                else {
                    Issue.record("chunk size \(chunk): \(error)")
                    return
                }
            }
        }
    }

    static let small = CSVTokenizer.Limits(maxFieldBytes: 8, maxFields: 3, maxRecordBytes: 20)

    @Test func theLimitsStopRunawayInput() throws {
        func failure(_ text: String) -> ParseFailure? {
            do {
                _ = try Self.tokenize(text, chunk: 3, limits: Self.small)
                return nil
            } catch {
                return error
            }
        }
        // At the limits: fine.
        #expect(try Self.tokenize("12345678,12345678,1234\n", chunk: 3, limits: Self.small).count == 1)

        let long = try #require(failure("ok\n123456789\n"))
        #expect(long.kind == .malformed && long.line == 2 && long.column == 9)
        #expect(long.position.byteOffset == 11, "the 9th byte of line 2, which starts at byte 3")
        #expect(long.message.contains("field 1 of the record that starts at line 2 is longer than 8 bytes"))

        let unclosed = try #require(failure("a,b\nc,\"unclosed, and on\nand on\n"))
        #expect(unclosed.line == 2 && unclosed.column == 3)
        #expect(unclosed.position.byteOffset == 6, "the quote that opens the field")
        #expect(unclosed.message.contains("a quote is probably not closed"))

        let wide = try #require(failure("a,b,c\nd,e,f,g\n"))
        #expect(wide.line == 2 && wide.column == 7)
        #expect(wide.position.byteOffset == 12)
        #expect(wide.message.contains("more than 3 fields"))

        let record = try #require(failure("12345678,12345678,12345\n"))
        #expect(record.line == 1 && record.column == 23)
        #expect(record.position.byteOffset == 22)
        #expect(record.message.contains("the record that starts at line 1 is longer than 20 bytes"))
    }

    @Test(arguments: [1, 2, 5, 1000])
    func recordsKnowTheOffsetOfTheirFirstByte(chunk: Int) throws {
        let bytes = Array(Self.text.utf8)
        let tokenizer = CSVTokenizer()
        var offsets: [Int64] = []
        let collect: CSVTokenizer.RecordHandler = { record in offsets.append(record.offset) }
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try bytes[start..<end].withUnsafeBytes { piece in
                try Result { () throws(ParseFailure) in try tokenizer.feed(piece, onRecord: collect) }.get()
            }
            start = end
        }
        try tokenizer.finish(onRecord: collect)
        // Where each record's first byte is in `text` (after the 3-byte mark, past blank lines,
        // counting ’, ü, Cyrillic and 🏃 in bytes).
        #expect(offsets == [3, 20, 52, 80, 86, 100, 110, 144])
    }

    @Test func buffersAreReusedFromRecordToRecord() throws {
        // A long record grows the buffers once; thousands of short ones after it need nothing more.
        var text = String(repeating: "x", count: 100_000) + "," + String(repeating: "y,", count: 1000) + "\n"
        for index in 0..<5000 { text += "\(index),\"\(index)\"\n" }
        let records = try Self.tokenize(text, chunk: 4096)
        #expect(records.count == 5001)
        #expect(records[0].fields.count == 1002)
        #expect(records[5000] == Record(line: 5001, fields: ["4999", "4999"]))
    }
}
