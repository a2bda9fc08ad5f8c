import DisplayText
import Testing

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Mi Fit", 6), ("Eric's Work iPhone", 18), ("", 0),
        // Latin, Cyrillic and Greek with precomposed or combining accents: one column a letter.
        ("Ольга’s Apple Watch", 19), ("e\u{301}te\u{301}", 3), ("Ελένη", 5),
        // CJK ideographs, kana, Hangul, Bopomofo, fullwidth forms: two columns each.
        ("华为运动健康", 12), ("歩数計アプリ", 12), ("ヘルスケア", 10), ("삼성 헬스", 9), ("ㄅㄆ", 4),
        ("ＡＢＣ", 6), ("\u{3000}", 2), ("、", 2),
        // Halfwidth katakana stay narrow.
        ("ｱｲ", 2),
        // Emoji: two columns, with a skin tone, a family joined by ZWJ, a flag, a keycap, VS16.
        ("🏃", 2), ("🏃🏽", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("🇩🇪", 2), ("1\u{FE0F}\u{20E3}", 2),
        ("⌚", 2), ("⌚\u{FE0F}", 2), ("\u{2764}\u{FE0F}", 2),
        // The same heart as text, and © (emoji only with VS16): one column.
        ("\u{2764}", 1), ("\u{2764}\u{FE0E}", 1), ("©", 1),
        // Zero width on their own: a combining mark, a joiner, a zero-width space, a soft hyphen.
        ("\u{301}", 0), ("\u{200D}", 0), ("\u{200B}", 0), ("a\u{200B}b", 2),
        // Mixed.
        ("Anna’s 🍎 Watch 手表", 20),
    ] as [(String, Int)])
    func columns(_ text: String, _ expected: Int) {
        #expect(text.displayWidth == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// Every character of the CJK Unified Ideographs block and of Hangul syllables is wide; the
    /// rule is not a list that could miss a few.
    @Test func wholeBlocksAreWide() {
        for value in Array(0x4E00...0x9FFF) + Array(0xAC00...0xD7A3) + Array(0x3041...0x3096) + Array(0x30A1...0x30FA) {
            let character = Character(Unicode.Scalar(UInt32(value))!)
            #expect(character.displayWidth == 2, "U+\(String(value, radix: 16))")
        }
    }

    /// Latin, Greek, Cyrillic, Arabic and Hebrew letters (U+0020 to U+06FF, the combining marks
    /// U+0300 to U+036F and control characters aside) are one column.
    @Test func alphabeticScriptsAreNarrow() {
        for value in 0x20...0x6FF where !(0x7F...0x9F).contains(value) {
            let scalar = Unicode.Scalar(UInt32(value))!
            let width = Character(scalar).displayWidth
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format:
                #expect(width == 0, "U+\(String(value, radix: 16))")
            default:
                #expect(width == 1, "U+\(String(value, radix: 16))")
            }
        }
    }
}
