import FuzzSupport
import HealthDays
import StreamingText

/// The push-style JSON tokenizer alone (`JSONLexer` + `JSONGrammar`), in chunks, with a handler
/// that reads every byte it is handed. Small depth and string limits on some inputs so that the
/// limit paths run too.
final class ReadingHandler: JSONTokenHandler {
    var sum: UInt64 = 0
    var tokens = 0

    private func touch(_ bytes: UnsafeRawBufferPointer, _ position: JSONPosition) {
        tokens += 1
        for byte in bytes { sum = sum &* 31 &+ UInt64(byte) }
        sum &+= UInt64(truncatingIfNeeded: position.line &+ position.column)
    }

    func objectStart(at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
    func objectEnd(at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
    func arrayStart(at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
    func arrayEnd(at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
    func key(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) { touch(utf8, position) }
    func string(_ utf8: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) {
        touch(utf8, position)
        // Every string handed over must be valid UTF-8: the tokenizer checks it.
        expect(String(validating: utf8, as: UTF8.self) != nil, "the tokenizer handed over a string that is not UTF-8")
    }
    func number(_ text: UnsafeRawBufferPointer, at position: JSONPosition) throws(ParseFailure) { touch(text, position) }
    func bool(_ value: Bool, at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
    func null(at position: JSONPosition) throws(ParseFailure) { touch(UnsafeRawBufferPointer(start: nil, count: 0), position) }
}

/// What one run of the tokenizer saw: a digest of its tokens and how it ended.
struct Run: Equatable {
    var digest: UInt64
    var tokens: Int
    var failure: ParseFailure?
}

func tokenize(_ input: FuzzInput, chunked: Bool, small: Bool, multiple: Bool) -> Run {
    let tokenizer = JSONTokenizer(handler: ReadingHandler(), maxDepth: small ? 4 : 512,
                                  maxStringLength: small ? 8 : 1 << 20, allowsMultipleValues: multiple)
    var failure: ParseFailure?
    do throws(ParseFailure) {
        if chunked {
            try input.forEachChunk { (chunk) throws(ParseFailure) in try tokenizer.feed(chunk) }
        } else {
            try input.forEachChunk(whole: true) { (all) throws(ParseFailure) in try tokenizer.feed(all) }
        }
        try tokenizer.finish()
    } catch {
        failure = error
        // After an error every later call throws the same error.
        do throws(ParseFailure) {
            try tokenizer.finish()
            fatalError("finish after a failure did not throw")
        } catch let again {
            expect(again == error, "a later call threw another error: \(again) after \(error)")
        }
    }
    blackHole(tokenizer.position)
    return Run(digest: tokenizer.handler.sum, tokens: tokenizer.handler.tokens, failure: failure)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let small = (size / 7) % 3 == 2
    let multiple = (size / 21) % 2 == 0
    let chunked = tokenize(input, chunked: true, small: small, multiple: multiple)
    // Chunk boundaries must not matter: the same tokens, the same error at the same place. One
    // exception, left as it is: a value over the length limit that is also wrong further on (a
    // control character after the limit) may be reported for either, because a value that lies
    // whole in one chunk is measured when it ends. Both are clear errors about the same value.
    let whole = tokenize(input, chunked: false, small: small, multiple: multiple)
    if let one = chunked.failure, let other = whole.failure, one != other,
       isLengthLimit(one) || isLengthLimit(other) {
        expect(chunked.tokens == whole.tokens && chunked.digest == whole.digest,
               "chunks of \(input.chunkSize) gave \(chunked), one chunk \(whole)")
        return 0
    }
    expect(chunked == whole, "chunks of \(input.chunkSize) gave \(chunked), one chunk \(whole)")
    return 0
}

/// The tokenizer's error for a string or number over `maxStringLength`.
func isLengthLimit(_ failure: ParseFailure) -> Bool {
    failure.message.contains("over the limit for one value")
}
