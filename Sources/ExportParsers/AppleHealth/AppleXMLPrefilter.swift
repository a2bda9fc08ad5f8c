import HealthDays
/// Cleans an Apple Health XML byte stream before the XML parser sees it.
///
/// Two real-world defects make every XML parser give up on otherwise good exports:
/// the internal DTD of iOS 16 exports is broken (an `<!ATTLIST` never closed), and some
/// exports carry stray C0 control characters such as `\x0b`. This filter drops the
/// `<!DOCTYPE ...>` declaration of the prolog (keeping its line breaks, so that line numbers
/// in later errors still match the file) and drops C0 controls other than TAB, LF and CR.
/// It is push-style: bytes can arrive in chunks of any size, split anywhere.
public struct AppleXMLPrefilter: Sendable {
    private enum State: Sendable {
        /// Before the root element: looking for `<!DOCTYPE`; `matched` bytes of it are held back.
        case prolog(matched: Int)
        /// Inside `<!DOCTYPE` before `[` or `>`.
        case doctypeHead
        /// Inside the internal subset; `sawBracket` after a `]` that may end it.
        case internalSubset(sawBracket: Bool)
        /// After the root element has started: only control characters are filtered.
        case body
    }

    private static let doctype: [UInt8] = Array("<!DOCTYPE".utf8)
    private var state = State.prolog(matched: 0)

    /// Stray control characters dropped so far.
    public private(set) var droppedControlCharacters = 0
    /// Whether a DOCTYPE declaration was removed.
    public private(set) var skippedDoctype = false
    /// Where bytes were dropped, to place failures in the input.
    public private(set) var dropped = DroppedBytes()
    /// Bytes written by earlier calls.
    private var emitted: Int64 = 0

    public init() {}

    /// How much larger than the input the output of one call can be (bytes held back from an earlier call).
    public static let maxGrowth = 9

    /// Writes the cleaned form of `input` to `output` and returns the number of bytes written.
    ///
    /// `output` must have room for `input.count + AppleXMLPrefilter.maxGrowth` bytes.
    public mutating func filter(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        precondition(output.count >= input.count + AppleXMLPrefilter.maxGrowth, "prefilter output buffer too small")
        var writer = Writer(output: output)
        var index = 0
        let count = input.count
        while index < count {
            if case .body = state {
                copyBody(input, from: index, into: &writer)
                emitted += Int64(writer.count)
                return writer.count
            }
            step(input[index], into: &writer)
            index += 1
        }
        emitted += Int64(writer.count)
        return writer.count
    }

    /// Writes the bytes still held back at the end of the input (a partial `<!DOCTYPE` that never completed).
    public mutating func finish(into output: UnsafeMutableRawBufferPointer) -> Int {
        var writer = Writer(output: output)
        if case .prolog(let matched) = state, matched > 0 {
            writer.append(AppleXMLPrefilter.doctype[0..<matched])
            state = .prolog(matched: 0)
        }
        emitted += Int64(writer.count)
        return writer.count
    }

    /// Cleans a whole byte array at once (for tests and small inputs).
    public mutating func filter(_ input: [UInt8], final: Bool = true) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: input.count + AppleXMLPrefilter.maxGrowth)
        let count = result.withUnsafeMutableBytes { output in
            input.withUnsafeBytes { source in
                let written = filter(source, into: output)
                return written + (final ? finish(into: UnsafeMutableRawBufferPointer(rebasing: output[written...])) : 0)
            }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// Appends bytes to the caller's buffer.
    private struct Writer {
        let output: UnsafeMutableRawBufferPointer
        var count = 0

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            output[count] = byte
            count += 1
        }

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            for byte in bytes { append(byte) }
        }

        @inline(__always)
        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            (output.baseAddress! + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            count += bytes.count
        }
    }

    /// The fast path for everything after the prolog: copy runs of good bytes, skip controls.
    ///
    /// It looks at eight bytes at a time and only at single bytes in a word that holds one below
    /// 0x20 (mostly a line break): it runs on the reader thread, which the parse waits for.
    private mutating func copyBody(_ input: UnsafeRawBufferPointer, from start: Int, into writer: inout Writer) {
        let count = input.count
        guard start < count, let base = input.baseAddress else { return }
        var runStart = start
        var index = start
        while index < count {
            while index + 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // Non-zero exactly when some byte of the word is below 0x20.
                if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            let end = min(count, index + 8)
            while index < end {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                    writer.append(UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
                    droppedControlCharacters += 1
                    dropped.record(1, at: emitted + Int64(writer.count))
                    runStart = index + 1
                }
                index += 1
            }
        }
        writer.append(UnsafeRawBufferPointer(rebasing: input[runStart..<count]))
    }

    private mutating func step(_ byte: UInt8, into output: inout Writer) {
        let isControl = byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
        switch state {
        case .prolog(let matched):
            if isControl {
                droppedControlCharacters += 1
                // After the bytes held back, which are written later.
                dropped.record(1, at: emitted + Int64(output.count + matched))
                return
            }
            let pattern = AppleXMLPrefilter.doctype
            if byte == pattern[matched] {
                if matched + 1 == pattern.count {
                    state = .doctypeHead
                    skippedDoctype = true
                    dropped.record(Int64(pattern.count), at: emitted + Int64(output.count))
                } else {
                    state = .prolog(matched: matched + 1)
                }
                return
            }
            // Not a DOCTYPE after all: release what was held back.
            output.append(pattern[0..<matched])
            if matched == 1 && byte != UInt8(ascii: "!") && byte != UInt8(ascii: "?") {
                // `<` followed by a name: the root element has begun.
                output.append(byte)
                state = .body
            } else if byte == UInt8(ascii: "<") {
                state = .prolog(matched: 1)
            } else {
                output.append(byte)
                state = .prolog(matched: 0)
            }
        case .doctypeHead:
            keepLineBreak(byte, into: &output)
            if byte == UInt8(ascii: "[") {
                state = .internalSubset(sawBracket: false)
            } else if byte == UInt8(ascii: ">") {
                state = .prolog(matched: 0)
            }
        case .internalSubset(let sawBracket):
            keepLineBreak(byte, into: &output)
            if byte == UInt8(ascii: "]") {
                state = .internalSubset(sawBracket: true)
            } else if sawBracket && byte == UInt8(ascii: ">") {
                state = .prolog(matched: 0)
            } else if sawBracket && (byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
                // `]` and `>` may be separated by white space.
            } else {
                state = .internalSubset(sawBracket: false)
            }
        case .body:
            preconditionFailure("body bytes take the fast path")
        }
    }

    /// Inside the DOCTYPE: a line break is kept, anything else dropped.
    @inline(__always)
    private mutating func keepLineBreak(_ byte: UInt8, into output: inout Writer) {
        if byte == 0x0A {
            output.append(0x0A)
        } else {
            dropped.record(1, at: emitted + Int64(output.count))
        }
    }
}
