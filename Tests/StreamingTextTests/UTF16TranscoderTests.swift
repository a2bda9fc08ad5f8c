import StreamingText
import Testing

@Suite struct UTF16TranscoderTests {
    /// Feeds `bytes` in pieces of `chunk` bytes; the UTF-8 out, the pieces' sizes and the replacements.
    static func transcode(_ bytes: [UInt8], _ order: UTF16Transcoder.ByteOrder,
                          chunk: Int = .max) -> (text: [UInt8], pieces: [Int], replacements: Int) {
        let transcoder = UTF16Transcoder(byteOrder: order)
        var text: [UInt8] = []
        var pieces: [Int] = []
        let collect: (UnsafeRawBufferPointer) -> Void = { piece in
            text.append(contentsOf: piece)
            pieces.append(piece.count)
        }
        var start = 0
        while start < bytes.count {
            let end = bytes.count - start > chunk ? start + chunk : bytes.count
            bytes[start..<end].withUnsafeBytes { transcoder.feed($0, to: collect) }
            start = end
        }
        transcoder.finish(to: collect)
        return (text, pieces, transcoder.replacements)
    }

    static func utf16(_ text: String, _ order: UTF16Transcoder.ByteOrder) -> [UInt8] {
        text.utf16.flatMap { unit -> [UInt8] in
            let low = UInt8(unit & 0xFF), high = UInt8(unit >> 8)
            return order == .littleEndian ? [low, high] : [high, low]
        }
    }

    static let text = "\u{FEFF}com.samsung.shealth.step_daily_trend,6307003,6\r\nSão Paulo,ß,中文,😀🏃‍♀️,\u{10FFFF}\n"

    @Test(arguments: [1, 2, 3, 5, 7, 64, Int.max])
    func everyCharacterSurvivesAnyCutInEitherOrder(chunk: Int) {
        for order in [UTF16Transcoder.ByteOrder.littleEndian, .bigEndian] {
            let result = Self.transcode(Self.utf16(Self.text, order), order, chunk: chunk)
            #expect(result.text == Array(Self.text.utf8), "\(order), chunks of \(chunk)")
            #expect(result.replacements == 0)
        }
    }

    @Test func theByteOrderMarkBecomesUTF8s() {
        let result = Self.transcode([0xFF, 0xFE, 0x41, 0x00], .littleEndian)
        #expect(result.text == [0xEF, 0xBB, 0xBF, 0x41])
    }

    @Test(arguments: [
        // A high surrogate, then a letter: the surrogate alone is replaced, the letter kept.
        ([0xD8, 0x3D, 0x00, 0x41], [0xEF, 0xBF, 0xBD, 0x41], 1),
        // A low surrogate alone.
        ([0xDE, 0x00, 0x00, 0x41], [0xEF, 0xBF, 0xBD, 0x41], 1),
        // A high surrogate at the very end.
        ([0x00, 0x41, 0xD8, 0x3D], [0x41, 0xEF, 0xBF, 0xBD], 1),
        // An odd last byte.
        ([0x00, 0x41, 0x00], [0x41, 0xEF, 0xBF, 0xBD], 1),
        // Two high surrogates, then the low half of the second: one replacement, one character.
        ([0xD8, 0x3D, 0xD8, 0x3D, 0xDE, 0x00], [0xEF, 0xBF, 0xBD, 0xF0, 0x9F, 0x98, 0x80], 1),
    ] as [([UInt8], [UInt8], Int)])
    func whatIsNoCharacterBecomesTheReplacementCharacter(_ input: [UInt8], _ expected: [UInt8], _ replaced: Int) {
        for chunk in [1, 2, 3, Int.max] {
            let result = Self.transcode(input, .bigEndian, chunk: chunk)
            #expect(result.text == expected, "chunks of \(chunk)")
            #expect(result.replacements == replaced)
        }
    }

    @Test func aLongTextComesOutInBoundedPieces() {
        let line = String(repeating: "é,1234,", count: 30_000) + "\n"
        let result = Self.transcode(Self.utf16(line, .littleEndian), .littleEndian, chunk: 256 * 1024)
        #expect(result.text == Array(line.utf8))
        #expect(result.pieces.count > 2)
        #expect(result.pieces.allSatisfy { $0 <= 64 * 1024 })
    }

    @Test(arguments: [
        ([0xFF, 0xFE, 0x63, 0x00], UTF16Transcoder.ByteOrder.littleEndian),
        ([0xFE, 0xFF, 0x00, 0x63], .bigEndian),
        ([0x63, 0x00, 0x6F, 0x00], .littleEndian),
        ([0x00, 0x63, 0x00, 0x6F], .bigEndian),
    ] as [([UInt8], UTF16Transcoder.ByteOrder)])
    func theByteOrderComesFromTheMarkOrTheZeros(_ head: [UInt8], _ order: UTF16Transcoder.ByteOrder) {
        #expect(UTF16Transcoder.byteOrder(of: head) == order)
    }

    @Test func textThatIsNotUTF16HasNoByteOrder() {
        for head in [[0xEF, 0xBB, 0xBF, 0x63], Array("com.samsung".utf8), [0x00, 0x00, 0x00, 0x63], [0x63], []] as [[UInt8]] {
            #expect(UTF16Transcoder.byteOrder(of: head) == nil, "\(head)")
        }
    }
}
