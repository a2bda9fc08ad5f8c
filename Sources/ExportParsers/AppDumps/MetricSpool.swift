import Foundation
import HealthDays
import Platform

/// The samples of a heart-rate series or the stages of a sleep session, kept until the record
/// around them ends: apps write a record's app (`metadata.dataOrigin`, HCGateway's `app`) and
/// zone offset after its samples, and every sample is handed on under them.
///
/// Flat in memory whatever the record holds: the first `memoryLimit` entries in a fixed buffer,
/// the rest in a nameless temporary file, read back in order. Nothing is allocated per record.
final class MetricSpool {
    /// One sample (start == end) or stage, with its time as read: `ownOffset` is the offset its
    /// text carries (`Int32.min` for none), `wallClock` whether it had none at all.
    struct Entry {
        var startMs: Int64
        var endMs: Int64
        var value: Double
        var ownOffset: Int32
        var wallClock: Bool

        static let noOffset = Int32.min
    }

    /// Entries kept in memory (2 MB); past it they go to the file.
    static let memoryLimit = 65_536

    /// Allocated at the first entry: a read that meets no series or session costs nothing.
    private var buffer: UnsafeMutablePointer<Entry>?
    private var buffered = 0
    private var file: SystemFile?
    private var spilled = 0
    /// The frame of the object whose array the entries came from (-1: none).
    var owner = -1
    /// Elements seen in the owner's array, those not kept included (a session's awake stages).
    var elements = 0

    init() {}

    deinit {
        buffer?.deallocate()
    }

    /// Entries kept.
    var count: Int { buffered + spilled }

    /// Starts collecting for the object at `frame`, dropping whatever was kept.
    func begin(owner frame: Int) {
        clear()
        owner = frame
    }

    /// Drops every entry; the file, if any, is kept for the next record and overwritten.
    func clear() {
        buffered = 0
        spilled = 0
        owner = -1
        elements = 0
    }

    /// Keeps one entry; a failure to write the temporary file is returned, not thrown, so that
    /// the reader can refuse the record it belongs to.
    func append(_ entry: Entry) -> SystemError? {
        guard let buffer else {
            let allocated = UnsafeMutablePointer<Entry>.allocate(capacity: MetricSpool.memoryLimit)
            buffer = allocated
            return append(entry)
        }
        if buffered == MetricSpool.memoryLimit {
            if let problem = spill(buffer) { return problem }
        }
        buffer[buffered] = entry
        buffered += 1
        return nil
    }

    private func spill(_ buffer: UnsafeMutablePointer<Entry>) -> SystemError? {
        do {
            if file == nil {
                file = try SystemFile.anonymous(in: SystemFile.temporaryFolder(ProcessInfo.processInfo.environment),
                                                prefix: "stepimport-samples")
            }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: buffered * MemoryLayout<Entry>.stride)
            try file!.writeAll(bytes, at: Int64(spilled) * Int64(MemoryLayout<Entry>.stride))
        } catch {
            return error
        }
        spilled += buffered
        buffered = 0
        return nil
    }

    /// Calls `body` with every entry in the order kept: those in the file first, then the buffer.
    func forEach(_ body: (Entry) throws(ReplayError) -> Void) throws(ReplayError) {
        if spilled > 0, let file {
            let chunk = UnsafeMutablePointer<Entry>.allocate(capacity: MetricSpool.memoryLimit)
            defer { chunk.deallocate() }
            var done = 0
            while done < spilled {
                let take = min(MetricSpool.memoryLimit, spilled - done)
                let raw = UnsafeMutableRawBufferPointer(start: chunk, count: take * MemoryLayout<Entry>.stride)
                let read: Int
                do {
                    read = try file.read(at: Int64(done) * Int64(MemoryLayout<Entry>.stride), into: raw)
                } catch {
                    throw .system(error)
                }
                let entries = read / MemoryLayout<Entry>.stride
                guard entries > 0 else { throw .system(SystemError(code: EIO)) }
                for index in 0..<entries { try body(chunk[index]) }
                done += entries
            }
        }
        guard let buffer else { return }
        for index in 0..<buffered { try body(buffer[index]) }
    }
}

extension MetricSpool {
    /// What can stop a replay: the reader's refusal of an entry, or the temporary file.
    enum ReplayError: Error {
        case failure(ParseFailure)
        case system(SystemError)
    }
}
