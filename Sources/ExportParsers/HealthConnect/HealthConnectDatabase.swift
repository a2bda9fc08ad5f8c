import CSQLite

import HealthDays
import Platform
import ExportInput

/// Health Connect's own export database (`health_connect_export.db`, from Settings > Health
/// Connect > Backup and restore), opened read-only, checked, and read for its step records.
///
/// SQLite needs random access to a named file: a plain file is opened where it is (`immutable`);
/// a zip entry or standard input goes through `init(copying:)`, which copies it to a temporary
/// file; a database with a `-wal` or `-journal` beside it is copied with it to a private folder,
/// where SQLite applies it. Nothing is ever written beside the input: no journal, WAL or lock files.
public final class HealthConnectDatabase {
    /// The `PRAGMA user_version` values of Health Connect releases this reader knows.
    public static let knownSchemaVersions: ClosedRange<Int> = 9...23

    /// Where the database came from, for messages.
    public let location: InputLocation
    /// The database's `PRAGMA user_version`.
    public let schemaVersion: Int
    /// The size of the database file in bytes, for the report.
    public let byteSize: Int64
    let connection: OpaquePointer
    /// Whether `health_data_category_priority_table` exists with the columns read from it.
    private let hasPriorityTable: Bool
    /// Whether `steps_record_table` has `last_modified_time` (every Health Connect release writes it).
    private let hasLastModified: Bool
    /// Whether the record tables have `recording_method` (3: typed in by hand).
    let hasRecordingMethod: Bool
    /// The journal applied (on a private copy), when one lay beside the database.
    public let journal: Journal?
    /// The private copy read with its journal, removed after the connection is closed.
    private let privateCopy: PrivateFolder?

    /// The source of rows whose app is missing or not in `application_info_table`.
    static let unknownSource = "(unknown)"

    /// Opens the database at `path` read-only and checks that it is a Health Connect export this
    /// version knows; `location` names it in errors (the file, or the zip entry it came from).
    ///
    /// A descriptor's path (`/proc/self/fd/N`, `/dev/fd/N`) is read through a temporary copy,
    /// because SQLite cannot open an unlinked file by it (see `init(copying:)`, which saves the
    /// extra copy when the data comes from a stream anyway).
    public convenience init(path: String, location: InputLocation,
                            limits: TemporaryCopyLimits = .standard) throws(ExportError) {
        if HealthConnectDatabase.isDescriptorPath(path) {
            try self.init(copying: try FileStream(path: path, shownAs: location.description), location: location, limits: limits)
        } else if let journal = HealthConnectDatabase.journalBeside(path) {
            let shown = location.description + journal.kind.rawValue
            try self.init(copying: try FileStream(path: path, shownAs: location.description), prefix: [],
                          journal: (journal.kind, try FileStream(path: journal.path, shownAs: shown),
                                    String(journal.path.split(separator: "/").last ?? Substring(journal.path))),
                          location: location, limits: limits, progress: nil)
        } else {
            try self.init(opening: path, location: location)
        }
    }

    /// Opens and checks the database file at `path` itself: `immutable` and read-only, or, for a
    /// private copy with its `journal` beside it, read-write so that SQLite applies the journal.
    init(opening path: String, location: InputLocation, privateCopy: PrivateFolder? = nil,
         journal: Journal? = nil) throws(ExportError) {
        try HealthConnectDatabase.checkFile(path: path, location: location)
        byteSize = (try? FileStatus.of(path: path).size) ?? 0
        var handle: OpaquePointer?
        let applies = privateCopy != nil && journal != nil
        let flags = (applies ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(HealthConnectDatabase.uri(forPath: path, immutable: !applies), &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let error = HealthConnectDatabase.failure(status, on: handle, location: location, while: "opening the database")
            sqlite3_close_v2(handle)
            throw error
        }
        do {
            let checked = try HealthConnectDatabase.checkSchema(handle, location: location)
            schemaVersion = checked.version
            hasPriorityTable = checked.hasPriorityTable
            hasLastModified = checked.hasLastModified
            hasRecordingMethod = checked.hasRecordingMethod
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        self.location = location
        connection = handle
        self.journal = applies ? journal : nil
        self.privateCopy = privateCopy
    }

    deinit {
        sqlite3_close_v2(connection)
        privateCopy?.remove()
    }

    // MARK: - Reading

    /// The apps of `application_info_table`: package names and the sources they count under.
    struct Origins {
        var ids: [Int64: Int] = [:]
        var packageNames: [[UInt8]] = []
        var sources: [[UInt8]] = []

        /// Adds the slot for rows whose app is unknown, last.
        mutating func addUnknown() -> Int {
            packageNames.append(Array(HealthConnectDatabase.unknownSource.utf8))
            sources.append(Array(HealthConnectDatabase.unknownSource.utf8))
            return packageNames.count - 1
        }
    }

    /// Reads every row of `steps_record_table` into `sink` and returns what was found.
    ///
    /// Each row becomes one sample placed at its own `start_zone_offset` (none when NULL), under
    /// its app's package name (the phone's counter under one name). A damaged database ends the
    /// read with an error: a total from part of the data must not pass for the real one.
    ///
    /// `metrics` other than steps are read from their own tables after it (`readMetrics`); without
    /// steps among them, `steps_record_table` is not read.
    public func read(into sink: RecordSink, invalidRecords policy: InvalidRecordPolicy = .fail, metrics: MetricSet = .steps)
        throws(ExportError) -> HealthConnectDatabaseStatistics {
        var statistics = HealthConnectDatabaseStatistics()
        statistics.schemaVersion = schemaVersion
        var origins = try loadOrigins()
        let unknown = origins.addUnknown()
        if hasPriorityTable {
            statistics.activityPriority = try loadActivityPriority(origins)
        }
        // Health Connect's own total (`--rule hc-priority`) needs the stored priority, each row's
        // last_modified_time and the rows in time order; every other read takes the rows in row_id
        // order, without last_modified_time.
        let prioritySink = sink.prioritySink
        if let prioritySink {
            // As the sources the rows count under: the phone's two names are one source, ranked where it first appears.
            prioritySink.storedPriority(statistics.activityPriority.map { names in
                var seen = Set<String>()
                return names.map(HealthConnectOrigin.canonical).filter { seen.insert($0).inserted }
            })
        }
        if !metrics.isStepsOnly {
            try readMetrics(metrics, into: sink, origins: origins, policy: policy, statistics: &statistics)
            guard metrics.contains(.steps) else { return statistics }
        }
        var rowsPerOrigin = [Int](repeating: 0, count: origins.packageNames.count)

        // Only the columns the day rules use, in the table's own column order (SQLite decodes a
        // row's record front to back), in row_id order: the table's own order, so SQLite scans
        // it without a sort. row_id only names a refused row and is read only then.
        let method = hasRecordingMethod ? "recording_method" : "NULL"
        let statement = try prepare(prioritySink == nil ? """
            SELECT app_info_id, \(method), start_time, start_zone_offset, end_time, end_zone_offset, count, row_id
            FROM steps_record_table ORDER BY row_id
            """ : """
            SELECT app_info_id, \(method), start_time, start_zone_offset, end_time, end_zone_offset, count, row_id,
             \(hasLastModified ? "last_modified_time" : "NULL") FROM steps_record_table ORDER BY start_time, row_id
            """)
        prioritySink?.recordsComeInStartOrder()
        var lastAppID: Int64 = .min
        var lastOrigin = unknown
        let check = RowCheck(table: "steps_record_table", statement: statement, policy: policy, location: location)
        // Every source's bytes in one block that lives as long as the read, handed to the sink as
        // views into it: no array is retained and released per row.
        let sourceBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, origins.sources.reduce(0) { $0 + $1.count }),
                                                                 alignment: 1)
        defer { sourceBytes.deallocate() }
        var sourceViews: [UnsafeRawBufferPointer] = []
        sourceViews.reserveCapacity(origins.sources.count)
        var filled = 0
        for source in origins.sources {
            let view = UnsafeMutableRawBufferPointer(rebasing: sourceBytes[filled..<(filled + source.count)])
            view.copyBytes(from: source)
            sourceViews.append(UnsafeRawBufferPointer(view))
            filled += source.count
        }

        try HealthConnectDatabase.forEachRow(statement, on: connection, location: location,
                                             while: "reading steps_record_table") { () throws(ExportError) in
            statistics.rows += 1
            var origin = unknown
            let app = statement.value(0)
            if app.type == SQLITE_INTEGER {
                let appID = app.int64
                if appID == lastAppID {
                    origin = lastOrigin
                } else {
                    origin = origins.ids[appID] ?? unknown
                    lastAppID = appID
                    lastOrigin = origin
                }
            }
            rowsPerOrigin[origin] += 1

            guard let start = try check.integer(2, "start_time", statement.int64(7)),
                  let end = try check.integer(4, "end_time", statement.int64(7))
            else { return }
            guard end >= start else {
                return try check.invalid(statement.int64(7), "end_time \(end) is before start_time \(start)")
            }
            guard let startOffset = try check.offset(3, "start_zone_offset", statement.int64(7)),
                  try check.offset(5, "end_zone_offset", statement.int64(7)) != nil,
                  let count = try check.number(6, "count", statement.int64(7))
            else { return }

            let sample = HealthSample(startMs: start, endMs: end, offsetSeconds: startOffset, value: count,
                                      enteredByHand: HealthConnectDatabase.isManualEntry(statement.value(1)))
            if let problem = SampleLimits.problem(in: sample) {
                let countText = statement.type(6) == SQLITE_INTEGER ? String(statement.int64(6)) : String(count)
                return try check.invalid(statement.int64(7),
                                         problem.message(steps: "count \(countText)", start: "start_time \(start)",
                                                         end: "end_time \(end)", offset: "start_zone_offset \(startOffset ?? 0)"))
            }
            if startOffset == nil { statistics.rowsWithoutOffset += 1 }
            statistics.samples += 1
            if let prioritySink {
                let cell = statement.value(8)
                let modified = cell.type == SQLITE_INTEGER ? cell.int64 : nil
                prioritySink.add(sample, lastModifiedMs: modified, sourceUTF8: sourceViews[origin])
            } else {
                sink.add(sample, sourceUTF8: sourceViews[origin])
            }
        }

        statistics.skipped.add(check.skipped, lineShift: 0)
        statistics.origins = rowsPerOrigin.indices.compactMap { index in
            guard rowsPerOrigin[index] > 0 else { return nil }
            return HealthConnectDatabaseStatistics.Origin(
                packageName: String(decoding: origins.packageNames[index], as: UTF8.self),
                source: String(decoding: origins.sources[index], as: UTF8.self),
                rows: rowsPerOrigin[index])
        }.sorted { $0.rows != $1.rows ? $0.rows > $1.rows : $0.packageName.utf8.lexicographicallyPrecedes($1.packageName.utf8) }
        return statistics
    }

    /// Health Connect's `RECORDING_METHOD_MANUAL_ENTRY`: a record typed in by hand.
    static let manualEntry: Int64 = 3

    /// Whether a `recording_method` cell says the record was typed in by hand.
    @inline(__always)
    static func isManualEntry(_ cell: Statement.Value) -> Bool {
        cell.type == SQLITE_INTEGER && cell.int64 == manualEntry
    }

    /// Loads `application_info_table` into a small map from row_id to package name and source.
    func loadOrigins() throws(ExportError) -> Origins {
        var origins = Origins()
        let statement = try prepare("SELECT row_id, package_name FROM application_info_table")
        try HealthConnectDatabase.forEachRow(statement, on: connection, location: location,
                                             while: "reading application_info_table") { () throws(ExportError) in
            guard statement.type(0) == SQLITE_INTEGER, !statement.isNull(1) else { return }
            let name = statement.bytes(1)
            guard !name.isEmpty else { return }
            let source = name.withUnsafeBytes { raw in
                HealthConnectOrigin.withCanonical(raw) { Array($0) }
            }
            origins.ids[statement.int64(0)] = origins.packageNames.count
            origins.packageNames.append(name)
            origins.sources.append(source)
        }
        return origins
    }

    /// The ACTIVITY category's priority (category 1) as package names, highest first; nil when absent.
    ///
    /// `app_id_priority_order` lists `application_info_table` row_ids separated by commas.
    private func loadActivityPriority(_ origins: Origins) throws(ExportError) -> [String]? {
        let statement = try prepare("""
            SELECT app_id_priority_order FROM health_data_category_priority_table WHERE health_data_category = 1
            """)
        var order: [String]?
        try HealthConnectDatabase.forEachRow(statement, on: connection, location: location,
                                             while: "reading health_data_category_priority_table") { () throws(ExportError) in
            guard order == nil else { return }
            let text = statement.bytes(0)
            var names: [String] = []
            for field in text.split(whereSeparator: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) && $0 != UInt8(ascii: "-") }) {
                guard let id = Int64(String(decoding: field, as: UTF8.self)) else { continue }
                if let index = origins.ids[id] {
                    names.append(String(decoding: origins.packageNames[index], as: UTF8.self))
                } else {
                    names.append("(unknown app \(id))")
                }
            }
            order = names
        }
        return order
    }
}
