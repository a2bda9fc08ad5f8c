import DisplayText
import Testing

@Suite struct EscapingTests {
    @Test func controlCharactersAreWrittenVisibly() {
        #expect("Ph\u{1B}[31mone\u{07}".escapingControlCharacters() == "Ph\\u{1b}[31mone\\u{7}")
        #expect("a\tb\nc\rd\u{0}".escapingControlCharacters() == "a\\u{9}b\\u{a}c\\u{d}d\\u{0}")
        #expect("del\u{7F} csi\u{9B} nel\u{85}".escapingControlCharacters() == "del\\u{7f} csi\\u{9b} nel\\u{85}")
    }

    @Test func otherTextIsKeptAsItIs() {
        let text = "Ольга’s Apple Watch ⌚️ \u{A0}é \\u{1b} \u{2028}"
        #expect(text.escapingControlCharacters() == text)
    }

    @Test func escapingTwiceChangesNothingMore() {
        let once = "x\u{1B}y\u{85}".escapingControlCharacters()
        #expect(once.escapingControlCharacters() == once)
    }

    @Test func theLimitCountsCharactersOfTheOriginal() {
        #expect("abcdef".escapingControlCharacters(limit: 3) == "abc...")
        #expect("abc".escapingControlCharacters(limit: 3) == "abc")
        #expect("\u{1B}\u{1B}\u{1B}\u{1B}".escapingControlCharacters(limit: 2) == "\\u{1b}\\u{1b}...")
    }

    @Test func theControlCharactersAreC0DelAndC1() {
        let controls = (0...0x10FFFF as ClosedRange<UInt32>).compactMap(Unicode.Scalar.init).filter(\.isControlCharacter).map(\.value)
        #expect(controls == Array(0..<0x20) + Array(0x7F...0x9F))
    }
}

@Suite struct RedactionTests {
    @Test func everyOccurrenceOfASecretIsReplaced() {
        let text = "bad header Authorization: Bearer s3cr3t-T0k; token s3cr3t-T0k again"
        #expect(text.redacting(["Bearer s3cr3t-T0k", "s3cr3t-T0k"]) == "bad header Authorization: [redacted]; token [redacted] again")
    }

    @Test func theLongestSecretGoesFirstWhateverTheOrder() {
        #expect("Bearer abc".redacting(["abc", "Bearer abc"]) == "[redacted]")
    }

    @Test func comparisonIsCaseSensitiveAndByteForByte() {
        #expect("ABC abc".redacting(["abc"]) == "ABC [redacted]")
        #expect("bearer abc".redacting(["Bearer abc", "abc"]) == "bearer [redacted]")
    }

    @Test func anEmptySecretChangesNothing() {
        #expect("text".redacting([""]) == "text")
        #expect("text".redacting([]) == "text")
    }
}
