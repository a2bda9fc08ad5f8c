import DisplayText
import Testing

/// Lines for people by display width: wrapped between words, cut with an ellipsis, padded.
@Suite struct WrappingTests {
    @Test func wordsFillLinesByDisplayWidth() {
        #expect("a bb ccc dd".wrapped(width: 4) == ["a bb", "ccc", "dd"])
        #expect("one two three four five six".wrapped(width: 9) == ["one two", "three", "four five", "six"])
        #expect("one two three".wrapped(width: 100) == ["one two three"])
        // Two columns a character: "华为 运动" is 9 columns, though 5 characters.
        #expect("华为 运动 健康".wrapped(width: 9) == ["华为 运动", "健康"])
        #expect("华为 运动 健康".wrapped(width: 8) == ["华为", "运动", "健康"])
        #expect("歩数 歩数 歩数".wrapped(width: 9) == ["歩数 歩数", "歩数"])
        #expect("Ольга’s Apple Watch".wrapped(width: 13) == ["Ольга’s Apple", "Watch"])
        // Marks take no column.
        #expect("e\u{301}te\u{301} e\u{301}te\u{301}".wrapped(width: 7) == ["e\u{301}te\u{301} e\u{301}te\u{301}"])
        for line in "Anna’s 🍎 Watch 手表 counted 12,345 steps on 2024-03-01 华为运动健康".wrapped(width: 12) {
            #expect(line.displayWidth <= 12, "\(line)")
        }
    }

    /// Each line break starts a paragraph, wrapped on its own; an empty one stays an empty line.
    @Test func lineBreaksStartParagraphs() {
        #expect("one\n\ntwo three".wrapped(width: 20) == ["one", "", "two three"])
        #expect("one two\nthree four".wrapped(width: 9, continuationIndent: 2) == ["one two", "three", "  four"])
        #expect("".wrapped(width: 10) == [""])
        #expect("a\n".wrapped(width: 10) == ["a", ""])
    }

    @Test func laterLinesHangAtTheIndentGiven() {
        #expect("stepimport: a warning that goes on and on".wrapped(width: 20, continuationIndent: 2)
                == ["stepimport: a", "  warning that goes", "  on and on"])
    }

    /// A paragraph's own leading spaces and the spaces inside a line are kept (help's two-column
    /// lines need them); those at a break, and at a paragraph's end, go.
    @Test func spacesInsideALineAreKept() {
        #expect("  64  Usage error: unknown option".wrapped(width: 20, continuationIndent: 6)
                == ["  64  Usage error:", "      unknown option"])
        #expect("one\n\ntwo  three".wrapped(width: 20) == ["one", "", "two  three"])
        #expect("two  three   ".wrapped(width: 20) == ["two  three"])
        #expect("two   three".wrapped(width: 5) == ["two", "three"])
    }

    /// A word wider than the line keeps a line of its own, whole, so that a path can be copied.
    @Test func aWordWiderThanTheLineIsNotCut() {
        #expect("a extraordinarily b".wrapped(width: 5) == ["a", "extraordinarily", "b"])
        #expect("see /a/very/long/path/to/a/file here".wrapped(width: 10)
                == ["see", "/a/very/long/path/to/a/file", "here"])
    }

    @Test func cutToADisplayWidthWithAnEllipsis() {
        #expect("Mi Fit".truncated(toDisplayWidth: 6) == "Mi Fit")
        #expect("Ольга’s Apple Watch".truncated(toDisplayWidth: 10) == "Ольга’s A…")
        #expect("Ольга’s Apple Watch".truncated(toDisplayWidth: 10, ellipsis: "...") == "Ольга’s...")
        // A wide character that would cross the width stays out: one column narrower.
        #expect("华为运动健康".truncated(toDisplayWidth: 7) == "华为运…")
        #expect("华为运动健康".truncated(toDisplayWidth: 6) == "华为…")
        // An emoji with its skin tone, a letter with its accent: whole or not at all.
        #expect("🏃🏽🏃🏽".truncated(toDisplayWidth: 3) == "🏃🏽…")
        #expect("e\u{301}te\u{301} app".truncated(toDisplayWidth: 3) == "e\u{301}t…")
        // Without room for the ellipsis and a character: what fits, without one.
        #expect("abc".truncated(toDisplayWidth: 1) == "a")
        #expect("abc".truncated(toDisplayWidth: 0) == "")
        #expect("abc".truncated(toDisplayWidth: -4) == "")
        for width in 0...30 {
            #expect("Anna’s 🍎 Watch 手表".truncated(toDisplayWidth: width).displayWidth <= width)
        }
    }

    /// Without an ellipsis: whole characters within the width (a line redrawn in place).
    @Test func cutWithoutAnEllipsis() {
        #expect("stepimport: batch: 3 done".truncated(toDisplayWidth: 10, ellipsis: "") == "stepimport")
        #expect("歩数計".truncated(toDisplayWidth: 5, ellipsis: "") == "歩数")
        #expect("short".truncated(toDisplayWidth: 80, ellipsis: "") == "short")
    }

    @Test func paddedToADisplayWidth() {
        #expect("华为".padded(toDisplayWidth: 6) == "华为  ")
        #expect("Mi Fit".padded(toDisplayWidth: 3) == "Mi Fit")
    }
}
