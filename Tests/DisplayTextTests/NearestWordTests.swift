import Testing
@testable import DisplayText

@Suite struct NearestWordTests {
    static let options = ["--format", "--by-source", "--tz", "--since", "--until", "--skip-invalid", "--quiet", "--post"]

    @Test(arguments: [
        ("--fromat", "--format"),     // two letters swapped
        ("--formt", "--format"),      // one dropped
        ("--by-sorce", "--by-source"),
        ("--SINCE", "--since"),       // case alone
        ("--tx", "--tz"),
        ("--quite", "--quiet"),
    ])
    func findsWhatWasMeant(_ typed: String, _ meant: String) {
        #expect(NearestWord.among(Self.options, for: typed) == meant)
    }

    @Test(arguments: ["--frobnicate", "--verbose", "x", "", "--tzzzzzzzz"])
    func saysNothingWhenNothingIsClose(_ typed: String) {
        #expect(NearestWord.among(Self.options, for: typed) == nil)
    }

    @Test func theEditDistanceCountsASwapAsOne() {
        func edits(_ a: String, _ b: String) -> Int { NearestWord.edits(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
        #expect(edits("ab", "ba") == 1)
        #expect(edits("kitten", "sitting") == 3)
        #expect(edits("", "abc") == 3)
        #expect(edits("Europe/Berln", "Europe/Berlin") == 1)
    }
}
