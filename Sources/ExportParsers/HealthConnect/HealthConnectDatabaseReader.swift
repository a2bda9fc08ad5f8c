import ExportInput
import HealthDays

extension ExportFormatID {
    public static let healthConnectDatabase = ExportFormatID(rawValue: "healthConnectDatabase")
}

/// Health Connect's own export: the SQLite database `health_connect_export.db`, bare or in
/// `Health Connect.zip` (with a `-wal` or `-journal` beside it, applied).
enum HealthConnectDatabaseReader: ExportReader {
    static let format = ExportFormat(id: .healthConnectDatabase, name: "Health Connect's export database",
                                     family: .android, metrics: appMetrics, forcedBy: "sqlite", marksHandEntries: true,
                                     accepted: "Health Connect's export (Health Connect.zip or health_connect_export.db)")

    /// What Health Connect's records give: HRV as RMSSD, no exercise minutes (its exercise sessions
    /// are the workouts), none of Google Fit's own minutes and points.
    static let appMetrics = MetricSet(Metric.allCases.filter {
        ![.heartRateVariability, .exercise, .moveMinutes, .heartPoints].contains($0)
    })

    static func recognises(head: [UInt8], name: String?) -> Bool {
        head.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// One database is the export: a zip with two is ambiguous.
    static var readAlone: Bool { true }

    static func read(_ input: PlainInput, in session: inout ReadSession) throws(ExportError) {
        let location = input.stream.location
        if let path = input.seekablePath {
            try read(try HealthConnectDatabase(path: path, location: location, limits: session.limits), in: &session)
        } else {
            // SQLite needs a file: a private copy, removed as soon as SQLite holds it open.
            try read(try HealthConnectDatabase(copying: input.stream, location: location, limits: session.limits),
                     in: &session)
        }
    }

    /// Reads a database member; in a zip, a `-wal` or `-journal` entry beside it is copied with it
    /// and applied (a folder's database finds its journal on the disk).
    static func read(member: InputMember, head: [UInt8], in container: InputContainer,
                     session: inout ReadSession) throws(ExportError) {
        if let path = member.path {
            try read(try HealthConnectDatabase(path: path, location: member.location, limits: member.limits), in: &session)
            return
        }
        var journal: (kind: HealthConnectDatabase.Journal.Kind, stream: ByteStream, name: String)?
        for kind in HealthConnectDatabase.Journal.Kind.allCases where journal == nil {
            if let entry = container.members.first(where: { $0.name == member.name + kind.rawValue }) {
                journal = (kind, try entry.open(), entry.name)
            }
        }
        // SQLite needs a file: a private copy, removed as soon as SQLite holds it open (or, with
        // a journal to apply, when the read is done).
        try read(try HealthConnectDatabase(copying: try member.open(), prefix: [], journal: journal,
                                           location: member.location, limits: member.limits, progress: nil),
                 in: &session)
    }

    private static func read(_ database: HealthConnectDatabase, in session: inout ReadSession) throws(ExportError) {
        let statistics = try database.read(into: session.sink, invalidRecords: session.policy, metrics: session.metrics)
        if session.inventory != nil { try database.takeStock(into: &session.inventory!) }
        session.summary.locations.append(database.location)
        session.summary.bytesRead += database.byteSize
        database.summarize(statistics, into: &session.summary, at: database.location)
        session.noteFormat(database.formatName(statistics))
    }
}
