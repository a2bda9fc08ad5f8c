import Foundation
import Testing

/// End to end on exports made by `stepimport-synth`: the binary's totals must equal the
/// totals the generator computed from its own model (a separate implementation of the rules),
/// under both zone rules, whatever the DTD and stray bytes.
@Suite struct GeneratedExportTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: String
        var testDescription: String { name }
    }

    static let variants = [
        Variant(name: "zip with Apple's DTD", arguments: "--out export.zip --days 150 --seed 3 --start 2023-09-01"),
        Variant(name: "zip with the broken iOS 16 DTD and control characters",
                arguments: "--out export.zip --days 120 --seed 4 --start 2024-10-01 --dtd broken --control-chars"),
        Variant(name: "bare XML without DTD", arguments: "--out export.xml --days 90 --seed 5 --start 2025-03-01 --dtd none"),
    ]

    struct Expected: Decodable {
        struct Day: Decodable, Equatable {
            let date: String
            let steps: Int
        }
        struct Zoned: Decodable {
            let zone: String
            let days: [Day]
        }
        let days: [Day]
        let tz: Zoned
    }

    struct Printed: Decodable {
        let days: [Expected.Day]
    }

    @Test(arguments: variants)
    func totalsEqualTheGeneratorsModel(_ variant: Variant) throws {
        let output = variant.arguments.contains("export.zip") ? "export.zip" : "export.xml"
        let command = """
        "$SYNTH" apple \(variant.arguments) --expected expected.json 2> /dev/null
        echo '{"expected":'
        cat expected.json
        echo ',"offset":'
        "$STEPIMPORT" apple \(output) --format json -q
        echo ',"zoned":'
        "$STEPIMPORT" apple \(output) --format json -q --tz Europe/Berlin
        echo '}'
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(result.stderr)")

        struct Combined: Decodable {
            let expected: Expected
            let offset: Printed
            let zoned: Printed
        }
        let combined = try JSONDecoder().decode(Combined.self, from: result.stdout)
        #expect(combined.expected.days.count > 60)
        #expect(combined.offset.days == combined.expected.days)
        #expect(combined.expected.tz.zone == "Europe/Berlin")
        #expect(combined.zoned.days == combined.expected.tz.days)
        // The two rules must really differ on such data, or this test would prove little.
        #expect(combined.expected.days != combined.expected.tz.days)
    }
}

/// End to end on Health Connect databases and JSON dumps made by `stepimport-synth`: the
/// binary's totals must equal the generator's own, for every shape.
@Suite struct GeneratedHealthConnectTests {
    static let variants = [
        "hc-db --out 'Health Connect.zip' --days 120 --seed 11",
        "hc-db --out export.db --days 40 --seed 12 --user-version 9",
        "hc-json --shape react-native --out dump.json --days 60 --seed 13",
        "hc-json --shape react-native-no-offsets --out dump.json --days 30 --seed 14",
        "hc-json --shape hcgateway --out dump.json --days 30 --seed 15",
        "hc-json --shape capacitor --out dump.json --days 30 --seed 16",
        "hc-json --shape flutter --out dump.json --days 30 --seed 17",
        "hc-json --shape flutter-snake --out dump.json --days 30 --seed 18",
        "hc-json --shape day-totals --out dump.json --days 30 --seed 19",
    ]

    struct Days: Decodable {
        struct Day: Decodable, Equatable {
            let date: String
            let steps: Int
        }
        let days: [Day]
    }

    @Test(arguments: variants)
    func totalsEqualTheGeneratorsModel(_ arguments: String) throws {
        let output = arguments.contains("'Health Connect.zip'") ? "'Health Connect.zip'"
            : arguments.contains("export.db") ? "export.db" : "dump.json"
        let command = """
        "$SYNTH" \(arguments) --expected expected.json 2> /dev/null
        echo '{"expected":'
        cat expected.json
        echo ',"printed":'
        "$STEPIMPORT" hc \(output) --format json -q
        echo '}'
        """
        let result = try CommandRunner.run(command)
        try #require(result.status == 0, "\(result.stderr)")
        struct Combined: Decodable {
            let expected: Days
            let printed: Days
        }
        let combined = try JSONDecoder().decode(Combined.self, from: result.stdout)
        #expect(combined.expected.days.count >= 20)
        #expect(combined.printed.days == combined.expected.days)
    }
}
