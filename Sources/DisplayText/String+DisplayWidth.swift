extension Character {
    /// The columns this character takes on a terminal: 2 for an East Asian wide or fullwidth
    /// character or an emoji shown as emoji, 0 for a mark, joiner or other character that is not
    /// shown on its own, 1 otherwise.
    ///
    /// Derived from `Unicode.Scalar.Properties` (there is no East Asian Width property in Swift's
    /// standard library, so wide is: ideographic, emoji presentation, or a scalar whose name places
    /// it in a wide script: Hangul syllables and leading jamo, kana, Bopomofo, Yi, CJK symbols,
    /// fullwidth forms). A character is one grapheme cluster: a letter with its combining accents,
    /// a flag, an emoji with its skin tone or a family joined by zero-width joiners each count once.
    /// Ambiguous-width characters (Greek, Cyrillic, box drawing) count 1, as terminals outside East
    /// Asian locales show them.
    public var displayWidth: Int {
        if isASCII { return 1 }
        let scalars = unicodeScalars
        var shown = false
        for scalar in scalars {
            let properties = scalar.properties
            if properties.isEmojiPresentation || scalar.isEastAsianWide { return 2 }
            if !scalar.isZeroWidth { shown = true }
        }
        // A text-style emoji (U+2764 HEAVY BLACK HEART) asked to show as emoji by VS16.
        if let first = scalars.first, first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        return shown ? 1 : 0
    }
}

extension String {
    /// The columns this text takes on a terminal: the sum of its characters' `displayWidth`.
    ///
    /// Tables align by it, never by `count`: a Chinese or Japanese source name, or one with an emoji,
    /// is wider than it has characters.
    public var displayWidth: Int {
        var width = 0
        for character in self { width += character.displayWidth }
        return width
    }
}

extension Unicode.Scalar {
    /// Name prefixes of the scalars East Asian Width calls wide or fullwidth that are neither
    /// ideographic nor emoji.
    private static let wideNamePrefixes = [
        "HIRAGANA", "KATAKANA", "HANGUL SYLLABLE ", "HANGUL CHOSEONG ", "HANGUL LETTER ", "BOPOMOFO ", "YI SYLLABLE ",
        "YI RADICAL ", "CJK ", "IDEOGRAPHIC ", "FULLWIDTH ", "PARENTHESIZED HANGUL ", "PARENTHESIZED IDEOGRAPH ",
        "CIRCLED HANGUL ", "CIRCLED IDEOGRAPH ", "CIRCLED KATAKANA ", "KANGXI RADICAL ",
    ]

    /// Wide or fullwidth in East Asian Width: ideographs (CJK, Tangut, Nushu, ...), kana, Hangul,
    /// Bopomofo, Yi, CJK strokes and radicals, fullwidth letters and signs.
    var isEastAsianWide: Bool {
        // Nothing below U+1100 (the first Hangul leading jamo) is wide.
        guard value >= 0x1100 else { return false }
        if properties.isIdeographic { return true }
        guard let name = properties.name else { return false }
        return Self.wideNamePrefixes.contains { name.hasPrefix($0) }
    }

    /// Takes no column: combining and enclosing marks, format characters (zero-width joiner and
    /// space, soft hyphen, direction marks) and the other default-ignorable code points
    /// (variation selectors, the Hangul filler).
    var isZeroWidth: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return properties.isDefaultIgnorableCodePoint
        }
    }
}
