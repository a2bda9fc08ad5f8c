import Platform
import Foundation

/// Drops exact duplicates (same source, start, end and value), in bounded memory.
///
/// Exact duplicates can be anywhere in an export, so every distinct sample must be remembered.
/// Up to `inMemoryLimit` distinct samples are kept in a hash set. Past that the filter spills:
/// every key seen so far is written, marked as already counted, to one of 64 temporary files
/// chosen by the key's hash, and so is every later sample. At the end each file is read back
/// on its own, in order: the first copy of a key wins, and only the spilled samples that won
/// are handed on. Memory stays flat whatever the number of samples; the temporary files
/// (40 bytes a sample) are unlinked as soon as they are made.
final class DuplicateFilter {
    enum Verdict {
        /// First sighting: bucket it now.
        case new
        /// A copy of a sample seen before.
        case duplicate
        /// Written to a spill file; decided by `drain`.
        case deferred
    }

    private let inMemoryLimit: Int
    /// The keys in memory counted together with other filters' (one per metric), when shared.
    private let budget: DuplicateBudget?
    /// Most keys; a class of its own, so that reaching it costs no exclusivity check.
    private let packed = PackedKeySet()
    // These three are touched for every sample: unchecked, as one thread owns the filter and no
    // method reaches one of them while another holds it, so that each access costs no dynamic
    // exclusivity check (1.14 million of them on 600,000 rows, about 4% of a database read).
    @exclusivity(unchecked) private var wide = Set<WideSampleKey>()
    @exclusivity(unchecked) private var spill: SpillFiles?
    @exclusivity(unchecked) private var spillError: ExportError?

    /// Whether the filter has begun to spill to disk.
    var isSpilling: Bool { spill != nil }

    init(inMemoryLimit: Int) {
        self.inMemoryLimit = inMemoryLimit
        budget = nil
    }

    /// A filter that spills once the keys of every filter sharing `budget` pass its limit.
    init(sharing budget: DuplicateBudget) {
        inMemoryLimit = budget.limit
        self.budget = budget
    }

    /// What `touch` read, kept so that its loads are not left out.
    @exclusivity(unchecked) private var touched: UInt64 = 0

    /// Has the processor fetch, all at once, the table slots that checking `records` will look
    /// at first. Each check of a table of several megabytes otherwise waits on a cache miss of
    /// its own (77% of the check's time on a 1 GB export, perf annotate); the aggregator calls
    /// this for a batch of records before checking them in order.
    func touch(_ records: UnsafeBufferPointer<SampleRecord>) {
        guard spill == nil else { return }
        var words: UInt64 = 0
        for record in records {
            if let key = PackedSampleKey(record) { words ^= packed.touch(key) }
        }
        touched ^= words
    }

    func check(_ record: SampleRecord) -> Verdict {
        if let spill {
            if spillError == nil {
                do { try spill.append(record) } catch { spillError = error }
            }
            return .deferred
        }
        let inserted: Bool
        var units = 1
        if let key = PackedSampleKey(record) {
            inserted = packed.insert(key)
        } else {
            inserted = wide.insert(WideSampleKey(record)).inserted
            units = 2
        }
        guard inserted else { return .duplicate }
        if let budget {
            budget.held += units
            if budget.held > budget.limit { startSpilling() }
        } else if packed.count + wide.count > inMemoryLimit {
            startSpilling()
        }
        return .new
    }

    /// Ends the input: hands every spilled record that is the first of its kind to `body`, and
    /// returns how many spilled records were duplicates.
    func drain(_ body: (SampleRecord) -> Void) throws(ExportError) -> Int {
        if let spillError { throw spillError }
        guard let spill else { return 0 }
        defer { self.spill = nil }
        var duplicates = 0
        try spill.readBack { partition throws(ExportError) in
            // Sized for the whole partition up front: grown from empty, the set rehashes every
            // key it holds at each doubling (Hasher calls from `resize`: 8% of the time of
            // reading a 5-million-row database, perf record).
            let seenPacked = PackedKeySet(minimumCapacity: partition.count)
            var seenWide = Set<WideSampleKey>()
            for record in partition {
                let inserted: Bool
                if let key = PackedSampleKey(record) {
                    inserted = seenPacked.insert(key)
                } else {
                    inserted = seenWide.insert(WideSampleKey(record)).inserted
                }
                if !inserted {
                    if record.flags & SampleRecord.alreadyCounted == 0 { duplicates += 1 }
                } else if record.flags & SampleRecord.alreadyCounted == 0 {
                    body(record)
                }
            }
        }
        return duplicates
    }

    private func startSpilling() {
        do {
            // Several filters may spill at once (one per metric): smaller write buffers each.
            let files = try SpillFiles(bufferRecords: budget == nil ? 1024 : 256)
            try packed.forEach { key throws(ExportError) in try files.append(key.record) }
            for key in wide {
                try files.append(key.record)
            }
            spill = files
            budget?.held -= packed.count + 2 * wide.count
        } catch {
            spillError = error
            spill = nil
            return
        }
        packed.removeAll()
        wide = []
    }
}

/// The keys that several `DuplicateFilter`s (one per metric) may hold in memory together, so
/// that asking for every metric keeps the memory of one filter: counted in units of a packed
/// key's 16 bytes (a wide key, 32 bytes, counts two).
final class DuplicateBudget {
    let limit: Int
    var held = 0

    init(limit: Int) {
        self.limit = limit
    }
}

/// The 64 temporary files of a spilling `DuplicateFilter`, with a write buffer each.
private final class SpillFiles {
    static let partitions = 64
    /// Records buffered per partition before a write (40 bytes each).
    private let bufferRecords: Int
    private var files: [SystemFile] = []
    /// Appended to for every spilled sample: unchecked, like the filter's own sets.
    @exclusivity(unchecked) private var buffers: [[SampleRecord]]
    private let location = InputLocation(path: "temporary files")

    init(bufferRecords: Int) throws(ExportError) {
        self.bufferRecords = bufferRecords
        buffers = Array(repeating: [], count: SpillFiles.partitions)
        let directory = SystemFile.temporaryFolder(ProcessInfo.processInfo.environment)
        for _ in 0..<SpillFiles.partitions {
            do {
                files.append(try SystemFile.anonymous(in: directory, prefix: "stepimport-duplicates-"))
            } catch {
                files = []
                throw ExportError.unreadable(location, reason: "cannot create a temporary file in \(directory) for the duplicate check: \(error)")
            }
        }
    }

    func append(_ record: SampleRecord) throws(ExportError) {
        let partition = Int(record.partitionHash >> 58)
        buffers[partition].append(record)
        if buffers[partition].count >= bufferRecords {
            try flush(partition)
        }
    }

    private func flush(_ partition: Int) throws(ExportError) {
        let file = files[partition]
        let written = buffers[partition].withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try file.writeAll(bytes) }
        }
        if case .failure(let error) = written {
            throw ExportError.unreadable(location, reason: "cannot write the duplicate check's temporary file: \(error)")
        }
        buffers[partition].removeAll(keepingCapacity: true)
    }

    /// Calls `body` once per partition with all its records, in the order they were appended.
    func readBack(_ body: ([SampleRecord]) throws(ExportError) -> Void) throws(ExportError) {
        let stride = MemoryLayout<SampleRecord>.stride
        for partition in 0..<SpillFiles.partitions {
            try flush(partition)
            let file = files[partition]
            let size: Int
            do {
                size = Int(try file.status().size)
                try file.seek(to: 0)
            } catch {
                throw ExportError.unreadable(location, reason: error.description)
            }
            var records = [SampleRecord](unsafeUninitializedCapacity: size / stride) { buffer, count in
                let got = (try? file.readFully(into: UnsafeMutableRawBufferPointer(buffer))) ?? 0
                count = got / stride
            }
            guard records.count * stride == size else {
                throw ExportError.unreadable(location, reason: "the duplicate check's temporary file could not be read back")
            }
            try body(records)
            records = []
            // Free the disk space of what has been read.
            try? file.truncate(to: 0)
        }
        files = []
    }
}

extension SampleRecord {
    /// A well-mixed hash of the record's identity, for choosing its spill file.
    var partitionHash: UInt64 {
        var hash = UInt64(bitPattern: startMs) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt64(bitPattern: endMs) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= (value == 0 ? 0 : value.bitPattern) &* 0x1656_67B1_9E37_79F9
        hash ^= UInt64(UInt32(bitPattern: source)) &* 0x27D4_EB2F_1656_67C5
        hash ^= hash >> 31
        hash &*= 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        return hash
    }
}
