import Testing
import TestSupport
@testable import HealthDays

@Suite struct SourcePatternTests {
    static func pattern(_ text: String) -> SourcePattern { try! SourcePattern(text) }

    @Test(arguments: [
        ("Anna’s iPhone", "Anna’s iPhone", true),
        ("Anna’s iPhone", "anna’s iphone", true),
        ("Anna's iPhone", "Anna’s iPhone", true),
        ("anna‘s IPHONE", "Anna’s iPhone", true),
        ("\"Coach\" app", "“Coach” app", true),
        ("Mi fit", "Mi Fit", true),
        ("Anna's iPhone", "Annas iPhone", false),
        ("[A-C]x", "bx", true),
        ("Anna’s iPhone", "Anna’s iPhone 2", false),
        ("*Watch*", "Anna’s Apple Watch", true),
        ("*Watch", "Watch", true),
        ("*Watch", "Watches", false),
        ("?rit", "Brit", true),
        ("?rit", "rit", false),
        ("[ABC]*", "Brit", true),
        ("[!ABC]*", "Brit", false),
        ("[a-c]x", "bx", true),
        ("[a-c]x", "dx", false),
        ("[]]", "]", true),
        ("\\*", "*", true),
        ("\\*", "a", false),
        ("*;*", "a;b", true),
        ("Дмитрий 🏃*", "Дмитрий 🏃 Pixel", true),
        ("*", "", true),
        ("a*b*c", "aXbYc", true),
        ("a*b*c", "aXbY", false),
    ])
    func matches(_ text: String, _ name: String, _ expected: Bool) {
        #expect(Self.pattern(text).matches(name) == expected, "\(text) against \(name)")
    }

    @Test func badPatternsAreRefusedWithTheirProblem() {
        #expect(throws: SourcePattern.Problem.empty) { try SourcePattern("") }
        #expect(throws: SourcePattern.Problem.unclosedSet) { try SourcePattern("[abc") }
        #expect(throws: SourcePattern.Problem.trailingEscape) { try SourcePattern("abc\\") }
    }

    @Test func manyStarsOnALongNameStayQuick() {
        // Backtracking over every star would take 2^n steps; one backtrack point takes n·m.
        let name = String(repeating: "a", count: 5000)
        #expect(!Self.pattern(String(repeating: "*a", count: 40) + "b").matches(name))
    }

    @Test func theExclusionLeavesMatchingSourcesOutAndCountsThem() {
        let collector = SampleCollector()
        let exclusion = SourceExclusion(patterns: [Self.pattern("*Watch*"), Self.pattern("Nobody")], next: collector)
        let sample = HealthSample(startMs: 0, endMs: 60_000, offsetSeconds: 0, value: 5)
        for source in ["Phone", "Apple Watch", "Apple Watch", "Phone", "Old Watch"] {
            exclusion.add(sample, source: source)
        }
        exclusion.addDayTotal(LocalDate("2024-01-01")!, steps: 9, source: "Apple Watch")
        #expect(collector.entries.map(\.source) == ["Phone", "Phone"])
        #expect(exclusion.excluded.map(\.source) == ["Apple Watch", "Old Watch"])
        #expect(exclusion.excluded.map(\.records) == [3, 1])
        #expect(exclusion.unmatchedPatterns == [Self.pattern("Nobody")])
    }
}
