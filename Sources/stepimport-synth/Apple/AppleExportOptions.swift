import CommandLineKit

/// The settings of one `stepimport-synth apple` run, read from its arguments (`AppleCommand.table`).
struct AppleExportOptions: Equatable, GeneratorOptions {
    /// Where to write: a `.zip` gets Apple's archive layout, anything else the bare XML.
    var outputPath: String
    /// Number of days to generate, when the length is given in days.
    var days: Int?
    /// XML size to reach, when the length is given in bytes.
    var sizeLimit: Int?
    var seed: UInt64 = 1
    /// First Berlin date, as a day number.
    var startDay: Int
    var dtd: AppleExportDTD = .normal
    var controlCharacters = false
    /// Where to write the expected day totals (JSON), if anywhere.
    var expectedPath: String?

    /// Whether the output is a zip archive.
    var writesZip: Bool {
        outputPath.lowercased().hasSuffix(".zip")
    }

    static let defaultDays = 60
    static let defaultStart = "2024-01-01"

    /// The settings before any argument: no output yet, the default start; the length is decided
    /// by `finish()`.
    static let defaults = AppleExportOptions(outputPath: "", startDay: CivilDate(parsing: defaultStart)!.dayNumber)

    /// The settings once every option is read: `--expected` is not the output, and without
    /// `--size` the length is `--days` or the default.
    mutating func finish() throws(Rejection) {
        try checkExpectedPath()
        days = sizeLimit == nil ? (days ?? Self.defaultDays) : nil
    }

    /// `500K`, `100M`, `1G` (binary multiples, case-insensitive) or plain bytes.
    static func parseSize(_ text: String) -> Int? {
        var digits = text
        var multiplier = 1
        switch text.last.map({ Character($0.uppercased()) }) {
        case "K": multiplier = 1 << 10
        case "M": multiplier = 1 << 20
        case "G": multiplier = 1 << 30
        default: break
        }
        if multiplier != 1 { digits.removeLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 1,
              number <= (1 << 50) / multiplier
        else { return nil }
        return number * multiplier
    }
}
