import Foundation
import Testing

/// End to end on Samsung Health exports made by `stepimport-synth samsung` in the variants real
/// ones come in: the binary's days (date, steps, winning source) and distance must equal the
/// generator's own model, and scripts/reference_samsung.py's (an independent Python
/// implementation) where the input is Samsung's alone.
@Suite struct GeneratedSamsungHealthTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let name: String
        /// `--out` and the options after it.
        let arguments: String
        var testDescription: String { name }
        /// What `--out` names, quoted for the shell.
        var output: String { "'" + String(arguments.split(separator: " ")[0]) + "'" }
        /// Whether the input holds another service's steps, which the Python reference does not read.
        var hasGoogleFit: Bool { arguments.contains("--with-google-fit") }
    }

    static let variants = [
        Variant(name: "days with only device rows", arguments: "export --days 60 --seed 21 --devices-only"),
        Variant(name: "a phone change", arguments: "export --days 80 --seed 22 --phone-change --devices-only"),
        Variant(name: "day_time as text", arguments: "export --days 50 --seed 23 --text-day-time"),
        Variant(name: "UTF-16, little-endian, zipped", arguments: "export.zip --days 50 --seed 24 --encoding utf16le"),
        Variant(name: "UTF-16, big-endian, every column prefixed",
                arguments: "export --days 50 --seed 25 --encoding utf16be --headers prefixed"),
        Variant(name: "bare headers and empty trailing rows", arguments: "export --days 50 --seed 26 --headers bare --blank-rows"),
        Variant(name: "minute bins alone at UTC+0530", arguments: "export --days 45 --seed 27 --no-trend --time-offset UTC+0530"),
        Variant(name: "a zip with jsons/", arguments: "export.zip --days 50 --seed 28 --jsons"),
        Variant(name: "renamed files", arguments: "export --days 50 --seed 29 --renamed --phone-change"),
        Variant(name: "Samsung Health and Google Fit Takeout in one folder", arguments: "export --days 70 --seed 30 --with-google-fit"),
        Variant(name: "the step CSV alone, UTF-16 with text day_time",
                arguments: "trend.csv --days 60 --seed 31 --encoding utf16be --text-day-time --devices-only"),
        Variant(name: "all at once", arguments: "export.zip --days 120 --seed 32 --phone-change --text-day-time --encoding utf16le "
                    + "--headers prefixed --blank-rows --jsons --renamed --with-google-fit --time-offset UTC+0530"),
    ]

    struct Expected: Decodable {
        struct Day: Decodable, Equatable {
            let date: String
            let steps: Int
            let source: String
        }
        struct Distance: Decodable, Equatable {
            let date: String
            let metres: Int
        }
        let days: [Day]
        let distance: [Distance]
    }

    /// `--format csv` rows: `date,steps,source` (the source quoted when it holds a comma), or `date,distance_m`.
    static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "\"", with: "") }
        }
    }

    @Test(arguments: variants)
    func daysAndDistanceEqualTheModels(_ variant: Variant) throws {
        let command = """
        "$SYNTH" samsung --out \(variant.arguments) --expected expected.json 2> /dev/null
        "$STEPIMPORT" hc \(variant.output) --format csv -q > steps.csv
        "$STEPIMPORT" hc \(variant.output) --format csv -q --metric distance > distance.csv
        \(variant.hasGoogleFit ? "echo null > reference.json" : "python3 \"$SCRIPTS/reference_samsung.py\" \(variant.output) -o reference.json 2> /dev/null")
        echo '{"expected":'; cat expected.json; echo ',"reference":'; cat reference.json
        echo ',"steps":'; python3 -c 'import json,sys; print(json.dumps(open("steps.csv").read()))'
        echo ',"distance":'; python3 -c 'import json,sys; print(json.dumps(open("distance.csv").read()))'
        echo '}'
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(result.stderr)")
        struct Combined: Decodable {
            let expected: Expected
            let reference: Expected?
            let steps: String
            let distance: String
        }
        let decoder = JSONDecoder()
        let combined = try decoder.decode(Combined.self, from: result.stdout)
        let expected = combined.expected
        #expect(expected.days.count >= 25)
        let days = Self.rows(combined.steps)
        #expect(days == expected.days.map { [$0.date, String($0.steps), $0.source] })
        let distance = Self.rows(combined.distance)
        #expect(distance == expected.distance.map { [$0.date, String($0.metres)] })
        if let reference = combined.reference {
            #expect(reference.days == expected.days)
            #expect(reference.distance == expected.distance)
        } else {
            #expect(variant.hasGoogleFit)
        }
        // The variant's point is there to see: the sources that win.
        let winners = Set(expected.days.map(\.source))
        if variant.arguments.contains("--devices-only") {
            #expect(!winners.contains("Samsung Health") && winners.contains { $0.hasPrefix("Samsung Health (phone") })
        } else if variant.arguments.contains("--no-trend") {
            #expect(winners.allSatisfy { $0.hasPrefix("Samsung Health (device ") })
        } else {
            #expect(winners.contains("Samsung Health"))
        }
        if variant.arguments.contains("--phone-change") && variant.arguments.contains("--devices-only") {
            #expect(winners.contains("Samsung Health (phone, XLy3VBYEN4)") && winners.contains("Samsung Health (phone, bvFPH0+ZC9)"))
        }
        if variant.hasGoogleFit {
            #expect(winners.contains("Google Fit"))
        }
    }
}
