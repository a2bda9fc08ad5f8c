/// The settings of one `stepimport-synth apple` run, parsed from its arguments.
struct AppleExportOptions: Equatable {
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

    typealias Request = SubcommandRequest<AppleExportOptions>

    static let defaultDays = 60
    static let defaultStart = "2024-01-01"

    /// Parses the arguments that follow `apple`. Accepts `--flag value` and
    /// `--flag=value`.
    static func parse(_ arguments: [String]) throws(SynthError) -> Request {
        var output: String?
        var days: Int?
        var size: Int?
        var seed: UInt64 = 1
        var start = CivilDate(parsing: defaultStart)!
        var dtd = AppleExportDTD.normal
        var controlCharacters = false
        var expected: String?

        let reader = ArgumentReader(arguments)
        while let flag = reader.nextFlag() {
            switch flag {
            case "-h", "--help":
                return .help
            case "--out":
                output = try reader.value()
            case "--days":
                let text = try reader.value()
                guard let parsed = Int(text), parsed >= 1, parsed <= 100_000 else {
                    throw SynthError.usage("'--days' needs a whole number of days from 1 to 100000, got '\(text)'")
                }
                days = parsed
            case "--size":
                let text = try reader.value()
                guard let parsed = parseSize(text) else {
                    throw SynthError.usage("'--size' needs a byte count such as 500K, 100M or 1G, got '\(text)'")
                }
                size = parsed
            case "--seed":
                let text = try reader.value()
                guard let parsed = UInt64(text) else {
                    throw SynthError.usage("'--seed' needs a non-negative whole number, got '\(text)'")
                }
                seed = parsed
            case "--start":
                let text = try reader.value()
                guard let parsed = CivilDate(parsing: text), (1900...2999).contains(parsed.year) else {
                    throw SynthError.usage("'--start' needs a date as YYYY-MM-DD, got '\(text)'")
                }
                start = parsed
            case "--dtd":
                let text = try reader.value()
                guard let parsed = AppleExportDTD(rawValue: text) else {
                    throw SynthError.usage("'--dtd' must be normal, broken or none, got '\(text)'")
                }
                dtd = parsed
            case "--control-chars":
                try reader.noValue()
                controlCharacters = true
            case "--expected":
                expected = try reader.value()
            default:
                if flag.hasPrefix("-") {
                    throw SynthError.usage("unknown option '\(flag)'")
                }
                throw SynthError.usage("unexpected argument '\(flag)'")
            }
        }

        guard let output, !output.isEmpty else {
            throw SynthError.usage("missing '--out PATH'")
        }
        if days != nil && size != nil {
            throw SynthError.usage("give either '--days' or '--size', not both")
        }
        if let expected, expected == output {
            throw SynthError.usage("'--expected' must name a different file than '--out'")
        }
        var options = AppleExportOptions(outputPath: output, startDay: start.dayNumber)
        options.days = size == nil ? (days ?? defaultDays) : nil
        options.sizeLimit = size
        options.seed = seed
        options.dtd = dtd
        options.controlCharacters = controlCharacters
        options.expectedPath = expected
        return .run(options)
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
