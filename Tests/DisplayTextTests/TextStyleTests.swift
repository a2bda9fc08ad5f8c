import DisplayText
import Testing

/// Styles are escapes around the text, only when styling is on.
@Suite struct TextStyleTests {
    @Test func stylesAreEscapesAroundTheText() {
        #expect(TextStyle.error.apply(to: "error:") == "\u{1B}[31merror:\u{1B}[0m")
        #expect(TextStyle.warning.apply(to: "warning:") == "\u{1B}[33mwarning:\u{1B}[0m")
        #expect(TextStyle.chosen.apply(to: "* Watch") == "\u{1B}[1;32m* Watch\u{1B}[0m")
        #expect(TextStyle.chosen.apply(to: "") == "")
    }

    @Test func offLeavesTheTextAsItIs() {
        #expect(TextStyling.off.apply(.error, to: "error:") == "error:")
        #expect(TextStyling(isOn: true).apply(.error, to: "error:") == TextStyle.error.apply(to: "error:"))
    }
}
