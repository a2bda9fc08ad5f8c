/// What a user can do about a problem. The library names it; the executable words it (the
/// command, the flag, the file to look for), so the library speaks no command line.
public enum Remedy: Equatable, Sendable {
    /// Read the input with the command for the format it was found to be (`inArchive`: found by
    /// the names inside a zip, not by the file's own first bytes).
    case useReader(for: ExportFormatID, inArchive: Bool)
    /// Skip unusable records and have them reported instead of stopping.
    case skipInvalid
    /// Point at the Apple export itself: the zip, the XML or the unpacked folder.
    case pointAtAppleExport
    /// Give one of the formats the Health Connect reader accepts.
    case useAcceptedFormat
    /// Of Google Fit's raw step streams only `estimated_steps` (or the daily summary) matches Fit's totals.
    case useEstimatedSteps
    /// Health Connect's export is the database inside `Health Connect.zip`.
    case useHealthConnectDatabase
    /// The export is newer than this version knows: a newer version may read it.
    case useNewerVersion
    /// A zip entry too big to copy safely: unpack it yourself, if it is trusted, and give the file inside.
    case unpackYourself
    /// The temporary folder has no room for a copy: point `TMPDIR` at one with more.
    case useRoomierTemporaryFolder
    /// Health Connect's total needs the apps' priority: give it, highest first.
    case givePriorityList
}
