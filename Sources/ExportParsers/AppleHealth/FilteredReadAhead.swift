import HealthDays
import ExportInput

/// Reads the input and runs `AppleXMLPrefilter` on a second thread while the XML parser works
/// on the calling one, handing over filled buffers through a small `BufferRing`.
///
/// Inflating a zip entry costs about a sixth of a run; on a second core it costs nothing. The
/// ring holds `slots` buffers, so memory stays at a few hundred KiB whatever the input.
final class FilteredReadAhead: @unchecked Sendable {
    /// Each buffer comes with the number of input bytes it was filtered from (0 at the end).
    private let ring: BufferRing<Int>
    // The reader's alone; `filter` is read once the reader has stopped.
    private let stream: ByteStream
    private let scratch: UnsafeMutableRawBufferPointer
    private var filter = AppleXMLPrefilter()

    init(stream: ByteStream, chunkSize: Int, slots: Int = 4) {
        self.stream = stream
        scratch = .allocate(byteCount: chunkSize, alignment: 16)
        ring = BufferRing(slots: slots, bufferSize: chunkSize + AppleXMLPrefilter.maxGrowth)
        ring.startProducer(named: "stepimport-read-ahead") { [self] () throws(ExportError) in try produce() }
    }

    deinit {
        scratch.deallocate()
    }

    /// The next cleaned chunk and how many input bytes it came from; nil at the end.
    /// The chunk stays valid until `recycle(slot)`.
    func next() throws(ExportError) -> (bytes: UnsafeRawBufferPointer, rawBytes: Int, slot: Int)? {
        guard let chunk = try ring.next() else { return nil }
        return (chunk.bytes, chunk.item, chunk.slot)
    }

    /// Gives a chunk's buffer back to the reader.
    func recycle(_ slot: Int) {
        ring.recycle(slot)
    }

    /// Stops the reader and waits for it; returns the filter (for its counts).
    func stop() -> AppleXMLPrefilter {
        ring.stop()
        return filter
    }

    private func produce() throws(ExportError) {
        var local = AppleXMLPrefilter()
        defer { filter = local }
        while let slot = ring.take() {
            let count = try stream.read(into: scratch)
            let kept = count == 0
                ? local.finish(into: ring.buffer(slot))
                : local.filter(UnsafeRawBufferPointer(rebasing: scratch[0..<count]), into: ring.buffer(slot))
            ring.publish(slot, count: kept, count)
            if count == 0 { return }
        }
    }
}
