import Foundation
import HealthDays
import ExportInput

/// Reads the input and runs `AppleXMLPrefilter` on a second thread while the XML parser works
/// on the calling one, handing over filled buffers through a small bounded ring.
///
/// Inflating a zip entry costs about a sixth of a run; on a second core it costs nothing. The
/// ring holds `slots` buffers, so memory stays at a few hundred KiB whatever the input.
final class FilteredReadAhead: @unchecked Sendable {
    // Everything below is guarded by `condition`, except `stream` and `scratch` (producer only)
    // and `buffers` (each slot is owned by one side at a time, handed over under the lock).
    private let condition = NSCondition()
    private let stream: ByteStream
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let scratch: UnsafeMutableRawBufferPointer
    private var free: [Int]
    private var ready: [(slot: Int, count: Int, rawBytes: Int)] = []
    private var readIndex = 0
    private var ended = false
    private var failure: ExportError?
    private var cancelled = false
    private var producerDone = false
    private var filter = AppleXMLPrefilter()

    init(stream: ByteStream, chunkSize: Int, slots: Int = 4) {
        self.stream = stream
        scratch = .allocate(byteCount: chunkSize, alignment: 16)
        buffers = (0..<slots).map { _ in .allocate(byteCount: chunkSize + AppleXMLPrefilter.maxGrowth, alignment: 16) }
        free = Array(0..<slots)
        let thread = Thread { [self] in produce() }
        thread.name = "stepimport-read-ahead"
        thread.start()
    }

    deinit {
        scratch.deallocate()
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next cleaned chunk and how many input bytes it came from; nil at the end.
    /// The chunk stays valid until `recycle(slot)`.
    func next() throws(ExportError) -> (bytes: UnsafeRawBufferPointer, rawBytes: Int, slot: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while readIndex == ready.count && !ended {
            condition.wait()
        }
        if readIndex < ready.count {
            let item = ready[readIndex]
            readIndex += 1
            if readIndex == ready.count {
                ready.removeAll(keepingCapacity: true)
                readIndex = 0
            }
            return (UnsafeRawBufferPointer(rebasing: buffers[item.slot][0..<item.count]), item.rawBytes, item.slot)
        }
        if let failure { throw failure }
        return nil
    }

    /// Gives a chunk's buffer back to the reader.
    func recycle(_ slot: Int) {
        condition.lock()
        free.append(slot)
        condition.signal()
        condition.unlock()
    }

    /// Stops the reader and waits for it; returns the filter (for its counts).
    func stop() -> AppleXMLPrefilter {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        let result = filter
        condition.unlock()
        return result
    }

    private func produce() {
        var local = AppleXMLPrefilter()
        var outcome: ExportError?
        loop: while true {
            condition.lock()
            while free.isEmpty && !cancelled { condition.wait() }
            if cancelled {
                condition.unlock()
                break
            }
            let slot = free.removeLast()
            condition.unlock()

            let count: Int
            do {
                count = try stream.read(into: scratch)
            } catch {
                outcome = error
                break loop
            }
            let kept = count == 0
                ? local.finish(into: buffers[slot])
                : local.filter(UnsafeRawBufferPointer(rebasing: scratch[0..<count]), into: buffers[slot])
            condition.lock()
            ready.append((slot, kept, count))
            condition.signal()
            condition.unlock()
            if count == 0 { break }
        }
        condition.lock()
        failure = outcome
        ended = true
        filter = local
        producerDone = true
        condition.broadcast()
        condition.unlock()
    }
}
