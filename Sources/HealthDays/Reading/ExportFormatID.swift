/// Names one format of the table of formats (`ExportFormats` in ExportParsers): what a remedy or
/// a summary can say an input was found to be. Each format declares its own name beside its reader
/// (`extension ExportFormatID { static let ... }`), so the table stays the one list of formats.
public struct ExportFormatID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
