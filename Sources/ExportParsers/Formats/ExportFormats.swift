import ExportInput
import HealthDays

/// The table of formats: every format stepimport reads, one reader each, in the order they are
/// tried. The importer, `inspect`, `batch`'s kinds, the remedies, `--input-format` and the
/// families' `--metric` sets are all derived from it.
///
/// The order matters twice: a plain file goes to the first reader that recognises its first
/// bytes, and a container is read for the first readers that find their files in it by name
/// (all of those), else for the first whose files are read alone, else for all the others.
public enum ExportFormats {
    static let readers: [any ExportReader.Type] = [
        AppleHealthReader.self,
        HealthConnectDatabaseReader.self,
        GoogleFitTakeoutReader.self,
        FitbitTakeoutReader.self,
        SamsungHealthReader.self,
        AppDumpJSONReader.self,
        RecordCSVReader.self,
    ]

    /// Every format, in the table's order.
    public static let all: [ExportFormat] = readers.map { $0.format }

    /// The format named `id`.
    public static func format(_ id: ExportFormatID) -> ExportFormat? {
        all.first { $0.id == id }
    }

    /// The readers of one family, in the table's order.
    static func readers(of family: ExportFamily) -> [any ExportReader.Type] {
        readers.filter { $0.format.family == family }
    }

    /// The `--input-format` words of a family's formats, in the table's order, each once.
    public static func forcingWords(of family: ExportFamily) -> [String] {
        var words: [String] = []
        for format in all where format.family == family {
            if let word = format.forcedBy, !words.contains(word) { words.append(word) }
        }
        return words
    }
}

extension ExportFamily {
    /// The command that reads the family's exports, which is also its kind in a `batch` manifest.
    public var command: String {
        switch self {
        case .appleHealth: return "apple"
        case .android: return "hc"
        }
    }

    /// The family whose command, or `batch` kind, is `word`.
    public init?(command word: String) {
        guard let family = ExportFamily.allCases.first(where: { $0.command == word }) else { return nil }
        self = family
    }

    /// What `--metric all` asks of the family: every metric one of its formats can give.
    public var metrics: MetricSet {
        MetricSet(ExportFormats.all.filter { $0.family == self }.flatMap { $0.metrics.metrics })
    }
}
