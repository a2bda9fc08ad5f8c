@testable import StreamingText
import HealthDays
import Foundation
import Testing

@Suite struct JSONStringTests {
    @Test func escapesWhatJSONRequiresAndEveryKindOfLineBreak() {
        #expect(JSONString.literal("Anna’s \"iPhone\" \\ 12") == #""Anna’s \"iPhone\" \\ 12""#)
        #expect(JSONString.literal("a\nb\r\tc\u{0}\u{1F}\u{7F}") == #""a\nb\r\tc\u0000\u001f\u007f""#)
        #expect(JSONString.literal("x\u{2028}y\u{2029}") == #""x\u2028y\u2029""#)
    }

    @Test func whatItWritesReadsBackAsTheSameText() throws {
        let text = "Mi Fit \u{1}\u{7F}\u{2028}😀 \"q\" \\"
        let decoded = try JSONDecoder().decode(String.self, from: Data(JSONString.literal(text).utf8))
        #expect(decoded == text)
    }
}
