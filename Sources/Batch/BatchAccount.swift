import DisplayText
import ExportParsers
import HealthDays
import Foundation

/// One row of a batch manifest, checked: a trainee account, its export, where its token is, and its zone.
///
/// Holds where the token is, never the token itself: it is read only when the account is uploaded.
public struct BatchAccount: Equatable, Sendable {
    /// Where the account's bearer token is.
    public enum TokenSource: Equatable, Sendable, CustomStringConvertible {
        /// A file whose first line is the token; the path is resolved against the manifest's folder.
        case file(String)
        /// An environment variable, by name.
        case environment(String)

        /// Names the place, never the value: `file /x/token` or `environment variable TOKEN_A`,
        /// with control characters escaped (both come from the manifest).
        public var description: String {
            switch self {
            case .file(let path): return "file \(path.escapingControlCharacters())"
            case .environment(let name): return "environment variable \(name.escapingControlCharacters())"
            }
        }
    }

    /// The 1-based line of the row in the manifest.
    public let line: Int
    /// The account's label, for reports, the journal and shard assignment; unique in the manifest.
    /// Exactly as the manifest writes it: `shownLabel` is the one to print.
    public let account: String
    /// The export's path, resolved against the manifest's folder.
    public let file: String
    /// The export's path as the manifest gives it, for reports.
    public let relativeFile: String
    public let kind: ExportChoice
    /// Where the token is; nil in a manifest read only for summaries (no token needed).
    public let token: TokenSource?
    /// The trainee's IANA zone, which decides the calendar day of every sample.
    public let zone: TimeZone
    /// The zone as the manifest names it (Foundation calls `UTC` `GMT`), for reports.
    public let zoneName: String
    /// Sources left out of this account (its `exclude_sources` cell), beside the batch's own.
    public let excludedSources: [SourcePattern]

    public init(line: Int, account: String, file: String, relativeFile: String, kind: ExportChoice,
                token: TokenSource?, zone: TimeZone, zoneName: String? = nil, excludedSources: [SourcePattern] = []) {
        self.line = line
        self.account = account
        self.file = file
        self.relativeFile = relativeFile
        self.kind = kind
        self.token = token
        self.zone = zone
        self.zoneName = zoneName ?? zone.identifier
        self.excludedSources = excludedSources
    }

    /// The label fit to show on a terminal or in a table: control characters escaped.
    public var shownLabel: String { account.escapingControlCharacters() }

    /// The export's path as the manifest gives it, fit to show: control characters escaped.
    public var shownFile: String { relativeFile.escapingControlCharacters() }

    /// The zone as the aggregation stage takes it.
    public var zoneRule: ZoneRule { .zone(zone) }
}
