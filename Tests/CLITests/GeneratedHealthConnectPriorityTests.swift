import Foundation
import Testing

/// `stepimport hc --rule hc-priority` on databases made by `stepimport-synth hc-db`, against the
/// generator's `--expected-priority`: Health Connect's own total worked out from its own notes of
/// the records it wrote, by another method (`HealthConnectExpectedPriority`: every piece of a day
/// given to the highest record covering it, found by looking at all of them), never by the tool's code.
@Suite struct GeneratedHealthConnectPriorityTests {
    static let variants = [
        "--out 'Health Connect.zip' --days 120 --seed 21",
        "--out export.db --days 60 --seed 22 --user-version 9",
        "--out export.db --days 90 --seed 23 --start 2024-10-01 --steps-only",
    ]

    @Test(arguments: variants)
    func totalsEqualTheGeneratorsModel(_ arguments: String) throws {
        let output = arguments.contains("'Health Connect.zip'") ? "'Health Connect.zip'" : "export.db"
        let command = """
        "$SYNTH" hc-db \(arguments) --expected-priority expected.json 2> /dev/null || exit 70
        "$STEPIMPORT" hc \(output) --rule hc-priority --format json -q > printed.json 2> /dev/null || exit
        cmp expected.json printed.json > /dev/null || { diff <(tr '}' '\\n' < expected.json) <(tr '}' '\\n' < printed.json) | head -20; exit 1; }
        tr '}' '\\n' < printed.json | grep -c steps
        """
        let result = try CommandRunner.run(command)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "exit \(result.status): \(stdout)")
        // Not an empty agreement: the model has its days.
        #expect((Int(stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 50, "\(stdout)")
    }
}
