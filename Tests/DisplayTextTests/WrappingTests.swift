import DisplayText
import Testing

/// Lines for people by display width: wrapped between words, cut with an ellipsis, padded.
@Suite struct WrappingTests {
    @Test func wordsFillLinesByDisplayWidth() {
        #expect("a bb ccc dd".wrapped(width: 4) == ["a bb", "ccc", "dd"])
        // Two columns a character: "华为 运动" is 9 columns, though 5 characters.
        #expect("华为 运动 健康".wrapped(width: 9) == ["华为 运动", "健康"])
        #expect("华为 运动 健康".wrapped(width: 8) == ["华为", "运动", "健康"])
        #expect("Ольга’s Apple Watch".wrapped(width: 13) == ["Ольга’s Apple", "Watch"])
    }

    @Test func lineBreaksAndLongWordsAreKept() {
        #expect("one\n\ntwo  three".wrapped(width: 20) == ["one", "", "two three"])
        #expect("a extraordinarily b".wrapped(width: 5) == ["a", "extraordinarily", "b"])
        #expect("".wrapped(width: 10) == [""])
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

    @Test func paddedToADisplayWidth() {
        #expect("华为".padded(toDisplayWidth: 6) == "华为  ")
        #expect("Mi Fit".padded(toDisplayWidth: 3) == "Mi Fit")
    }
}
