import Foundation
import Platform

/// The sorted runs of `PriorityDayAggregator` for a dump in no known order: each run a block of
/// records sorted by start, appended to one nameless temporary file (40 bytes a record), merged
/// back in start order at the end. Memory during the merge: a buffer of `bufferRecords` per run.
final class PriorityRunFile {
    private let file: SystemFile
    /// Each run's first record and its count, in records.
    private var runs: [(first: Int64, count: Int)] = []
    private var written: Int64 = 0
    private let location = InputLocation(path: "temporary files")
    /// Records read back at a time from each run.
    private let bufferRecords: Int

    init(bufferRecords: Int = 8_192) throws(ExportError) {
        self.bufferRecords = max(1, bufferRecords)
        let directory = SystemFile.temporaryFolder(ProcessInfo.processInfo.environment)
        do {
            file = try SystemFile.anonymous(in: directory, prefix: "stepimport-priority-")
        } catch {
            throw ExportError.unreadable(location, reason: "cannot create a temporary file in \(directory) to order the records "
                                         + "by time for Health Connect's total: \(error)")
        }
    }

    /// Appends one run, already sorted by start.
    func append(_ run: [PriorityRecord]) throws(ExportError) {
        guard !run.isEmpty else { return }
        let stride = Int64(MemoryLayout<PriorityRecord>.stride)
        let result = run.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try file.writeAll(bytes, at: written * stride) }
        }
        if case .failure(let error) = result {
            throw ExportError.unreadable(location, reason: "cannot write the temporary file that orders the records by time: \(error)")
        }
        runs.append((first: written, count: run.count))
        written += Int64(run.count)
    }

    /// Hands every record of every run to `body` in start order (ties: the earlier run first).
    func merge(_ body: (PriorityRecord) -> Void) throws(ExportError) {
        var cursors = try runs.map { run throws(ExportError) in try Cursor(run: run, file: file, size: bufferRecords, location: location) }
        // A binary min-heap of cursor indices by their current record's start, then run order.
        var heap = cursors.indices.filter { cursors[$0].current != nil }
        func before(_ lhs: Int, _ rhs: Int) -> Bool {
            let (left, right) = (cursors[lhs].current!.start, cursors[rhs].current!.start)
            return left != right ? left < right : lhs < rhs
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && before(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && before(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        while let top = heap.first {
            body(cursors[top].current!)
            try cursors[top].advance(file: file, location: location)
            if cursors[top].current == nil {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
        runs = []
        try? file.truncate(to: 0)
    }

    /// Where the merge stands in one run: a buffer of its records read from the file.
    private struct Cursor {
        var next: Int64
        let end: Int64
        var buffer: [PriorityRecord]
        var position = 0
        let size: Int

        init(run: (first: Int64, count: Int), file: SystemFile, size: Int, location: InputLocation) throws(ExportError) {
            next = run.first
            end = run.first + Int64(run.count)
            self.size = size
            buffer = []
            try refill(file: file, location: location)
        }

        var current: PriorityRecord? { position < buffer.count ? buffer[position] : nil }

        mutating func advance(file: SystemFile, location: InputLocation) throws(ExportError) {
            position += 1
            if position == buffer.count { try refill(file: file, location: location) }
        }

        private mutating func refill(file: SystemFile, location: InputLocation) throws(ExportError) {
            let count = Int(min(Int64(size), end - next))
            let stride = MemoryLayout<PriorityRecord>.stride
            let offset = next * Int64(stride)
            var got = 0
            buffer = [PriorityRecord](unsafeUninitializedCapacity: count) { records, initialized in
                let bytes = UnsafeMutableRawBufferPointer(records)
                while got < count * stride {
                    guard let read = try? file.read(at: offset + Int64(got), into: UnsafeMutableRawBufferPointer(rebasing: bytes[got...])),
                          read > 0 else { break }
                    got += read
                }
                initialized = got / stride
            }
            guard buffer.count == count else {
                throw ExportError.unreadable(location, reason: "the temporary file that orders the records by time could not be read back")
            }
            next += Int64(count)
            position = 0
        }
    }
}
