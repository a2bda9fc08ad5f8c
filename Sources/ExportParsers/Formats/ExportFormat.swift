import ExportInput
import HealthDays

/// One format stepimport reads: a row of the table of formats (`ExportFormats.readers`).
///
/// Everything that differs from format to format is here or in the format's reader: its name, the
/// family (and so the command and the `batch` kind that read it), the metrics it can give, the
/// `--input-format` word that forces it, and how it is recognised and read (`ExportReader`).
public struct ExportFormat: Sendable {
    public let id: ExportFormatID
    /// What the format is, in a few words ("Health Connect's export database").
    public let name: String
    /// The name of the app or service the format comes from, when one Takeout can hold several
    /// ("Google Fit", "Fitbit"); nil otherwise.
    public let service: String?
    /// The family, whose command reads the format.
    public let family: ExportFamily
    /// The metrics of `--metric` the format can give.
    public let metrics: MetricSet
    /// The `--input-format` word that forces a plain file to be read as this format; nil when none
    /// does. Several formats may share a word: the first of them whose first bytes match reads the
    /// file, else the last.
    public let forcedBy: String?
    /// Whether the format can say a record was typed in by hand (`HealthSample.enteredByHand`),
    /// for `--exclude-manual`.
    public let marksHandEntries: Bool
    /// What the list of accepted inputs says of it, for a file no reader recognises ("record or
    /// day-total CSV"); nil to leave it out of the list.
    public let accepted: String?

    init(id: ExportFormatID, name: String, service: String? = nil, family: ExportFamily, metrics: MetricSet,
         forcedBy: String? = nil, marksHandEntries: Bool = false, accepted: String? = nil) {
        self.id = id
        self.name = name
        self.service = service
        self.family = family
        self.metrics = metrics
        self.forcedBy = forcedBy
        self.marksHandEntries = marksHandEntries
        self.accepted = accepted
    }
}

/// What a plain file's reader is handed: the stream (its first bytes put back), those first bytes,
/// its name, and where it is on the disk when it can be opened again.
struct PlainInput {
    let stream: ByteStream
    let head: [UInt8]
    /// The file's name without its folder; nil for standard input.
    let name: String?
    /// The file's own path when it can be opened again (a regular file), else nil.
    let seekablePath: String?
}

/// The reader of one format: how a file or a container member is recognised as the format's, and
/// how it is read into the session's sink. The readers of the table are listed in
/// `ExportFormats.readers`; the importer and every list of formats are derived from it.
protocol ExportReader: SendableMetatype {
    /// The format's row.
    static var format: ExportFormat { get }

    /// Whether a file whose first bytes are `head` (and whose name, when it has one, is `name`) is
    /// this format's. False for a format recognised only by the names in a container.
    static func recognises(head: [UInt8], name: String?) -> Bool

    /// Whether a container holding a file of this format is read for it alone (two of them are
    /// ambiguous); otherwise every recognised file of a container is read, in order.
    static var readAlone: Bool { get }

    /// Reads a plain file recognised, or forced, as this format's.
    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError)

    /// Reads a member of `container` recognised, or forced, as this format's.
    static func read(member: InputMember, head: [UInt8], in container: InputContainer,
                     session: inout ReadSession) throws(ExportError)

    /// Reads what this format's files are among a container's members, told by their names
    /// (Takeout's folders); false when there are none. `folderName` is the container's own name
    /// when it is a folder given itself.
    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool
}

extension ExportReader {
    static func recognises(head: [UInt8], name: String?) -> Bool { false }
    static var readAlone: Bool { false }

    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        throw session.notRecognised(input.head, at: input.stream.location)
    }

    static func read(member: InputMember, head: [UInt8], in container: InputContainer,
                     session: inout ReadSession) throws(ExportError) {
        let stream = try member.open()
        try read(PlainInput(stream: stream, head: head, name: member.name, seekablePath: member.path), in: &session)
    }

    static func readByNames(_ container: InputContainer, folderName: String?,
                            in session: inout ReadSession) throws(ExportError) -> Bool { false }
}
