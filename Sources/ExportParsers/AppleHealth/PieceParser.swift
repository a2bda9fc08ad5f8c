import HealthDays
import ExportInput

/// Reads, filters and cuts an Apple Health XML stream into pieces on one thread, parses the
/// pieces on `workers` threads, and hands the results to the calling thread in document order.
///
/// The reader fills a buffer with prefiltered bytes and cuts it at the first boundary that
/// `TopLevelBoundaryScanner` finds past `pieceSize`; workers run `work` on each piece that stands
/// alone. The pieces travel through a `BufferRing` of `12 * workers` buffers, which go back only
/// through `recycle`, in order, so memory is bounded whatever the input, and the consumer can still
/// read a piece's bytes (to parse them itself) after a worker is done with it. After
/// `parseRestInOrder()` the workers stop parsing and the reader stops cutting at boundaries: every
/// piece from then on is for the consumer.
final class PieceParser<Outcome: Sendable>: @unchecked Sendable {
    /// Parses one piece; made once per worker thread by `makeWork` and used only there.
    typealias Work = (_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece) -> Outcome
    /// A piece and what a worker made of it (nil when no worker parsed it).
    typealias Parsed = (piece: ParsePiece, result: Outcome?)

    private let ring: BufferRing<Parsed>
    // The reader's alone; `filter` and `rawBytes` are read once the reader has stopped.
    private let stream: ByteStream
    private let scratch: UnsafeMutableRawBufferPointer
    private let pieceSize: Int
    /// Size of each read from the input.
    private let readSize: Int
    private var filter = AppleXMLPrefilter()
    private var selector: AppleRecordSelector?
    private var rawBytes: Int64 = 0

    /// `selector`: leaves out the records nobody asked for before the pieces are cut (nil: every byte passes).
    init(stream: ByteStream, workers: Int, pieceSize: Int, readSize: Int, selector: AppleRecordSelector? = nil,
         makeWork: @escaping @Sendable () -> Work) {
        precondition(workers >= 1, "at least one worker")
        self.stream = stream
        self.selector = selector
        self.pieceSize = pieceSize
        self.readSize = readSize
        scratch = .allocate(byteCount: readSize, alignment: 16)
        // Buffers go back in document order, so one slow piece holds back every later one; with
        // few buffers the reader then stalls and a worker idles (measured: 6 buffers of 1 MiB,
        // 2.12 s on the 1 GB export; 24 of 256 KiB, 2.05 s in less memory).
        ring = BufferRing(slots: 12 * workers, bufferSize: pieceSize + 2 * readSize + AppleXMLPrefilter.maxGrowth,
                          workers: workers)
        ring.startProducer(named: "stepimport-read") { [self] () throws(ExportError) in try produce() }
        ring.startWorkers(named: "stepimport-parse") {
            let work = makeWork()
            return { parsed, bytes in
                if parsed.piece.standsAlone { parsed.result = work(bytes, parsed.piece) }
            }
        }
    }

    deinit {
        scratch.deallocate()
    }

    /// The next piece in document order, with its buffer, its bytes and what the worker made of it
    /// (nil when no worker parsed it); nil at the end. The bytes stay valid until `recycle(slot)`.
    /// A read error is thrown after every piece read before it has been handed out.
    func next() throws(ExportError) -> (piece: ParsePiece, slot: Int, bytes: UnsafeRawBufferPointer, result: Outcome?)? {
        guard let delivery = try ring.next() else { return nil }
        return (delivery.item.piece, delivery.slot, delivery.bytes, delivery.item.result)
    }

    /// Gives a piece's buffer back to the reader.
    func recycle(_ slot: Int) {
        ring.recycle(slot)
    }

    /// From now on no worker parses and no piece is cut at a boundary: the consumer parses the
    /// rest itself, in order.
    func parseRestInOrder() {
        ring.bypassWorkers()
    }

    /// Stops every thread and waits for them; returns the prefilter and the selector (for their
    /// counts and drops) and the input bytes read.
    func stop() -> (filter: AppleXMLPrefilter, selector: AppleRecordSelector?, rawBytes: Int64) {
        ring.stop()
        return (filter, selector, rawBytes)
    }

    // MARK: - Reader

    private func produce() throws(ExportError) {
        var local = AppleXMLPrefilter()
        var choice = selector
        var read: Int64 = 0
        defer {
            filter = local
            selector = choice
            rawBytes = read
        }
        var scanner = TopLevelBoundaryScanner()
        var frame: PieceFrame?
        var index = 0
        var count = 0
        // Bytes at the start of the buffer the selector has read; the rest waits for more bytes.
        var selected = 0
        // Filtered bytes handed out in earlier pieces.
        var published: Int64 = 0
        guard var slot = ring.take() else { return }
        var buffer = ring.buffer(slot)

        /// Hands the first `count` bytes of the buffer on as the next piece.
        func publish(_ count: Int, endsAtBoundary: Bool, isLast: Bool) {
            let piece = ParsePiece(index: index, endsAtBoundary: endsAtBoundary, isLast: isLast, rawBytesRead: read,
                                   filteredStart: published, frame: frame)
            ring.publish(slot, count: count, (piece, nil))
            index += 1
            published += Int64(count)
        }

        /// Publishes the bytes before `cut` and carries the rest over to a fresh buffer.
        func cut(at cut: Int, endsAtBoundary: Bool) -> Bool {
            guard let fresh = ring.take() else { return false }
            let rest = count - cut
            if rest > 0 {
                ring.buffer(fresh).baseAddress!.copyMemory(from: buffer.baseAddress! + cut, byteCount: rest)
            }
            publish(cut, endsAtBoundary: endsAtBoundary, isLast: false)
            if endsAtBoundary { scanner.rebase(cutAt: cut) }
            slot = fresh
            buffer = ring.buffer(fresh)
            count = rest
            selected = max(0, selected - cut)
            return true
        }

        /// Runs the selector on the bytes it has not read; false when it found a structure error.
        func select() -> Bool {
            guard choice != nil else {
                selected = count
                return true
            }
            (selected, count) = choice!.select(buffer, from: selected, to: count)
            return choice!.failure == nil
        }

        /// Publishes what was selected before a structure error and throws it.
        func failSelecting() throws(ExportError) {
            let failure = choice!.failure!
            if selected > 0 { publish(selected, endsAtBoundary: false, isLast: false) } else { ring.recycle(slot) }
            throw ExportError(local.dropped.placing(failure), at: stream.location, expected: .appleHealth, grammar: "XML")
        }

        while true {
            if scanner.phase != .done {
                if ring.workersBypassed {
                    scanner.stop()
                } else if let boundary = scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<selected]),
                                                      target: pieceSize) {
                    if frame == nil, let prefix = scanner.piecePrefix, let suffix = scanner.pieceSuffix {
                        frame = PieceFrame(prefix: prefix, suffix: suffix, rootLine: scanner.rootLine)
                    }
                    guard cut(at: boundary, endsAtBoundary: true) else { return }
                    continue
                }
            }
            if count + readSize + AppleXMLPrefilter.maxGrowth > buffer.count {
                // Full without a boundary past the target: cut at an earlier one, else hand the whole
                // buffer over as a piece that does not stand alone (the consumer parses from there on).
                if scanner.phase != .done, let boundary = scanner.lastBoundary, boundary > 0 {
                    if frame == nil, let prefix = scanner.piecePrefix, let suffix = scanner.pieceSuffix {
                        frame = PieceFrame(prefix: prefix, suffix: suffix, rootLine: scanner.rootLine)
                    }
                    guard cut(at: boundary, endsAtBoundary: true) else { return }
                } else {
                    // What the selector has not decided on yet passes as it is, and so does the rest.
                    scanner.stop()
                    choice?.stop()
                    selected = count
                    guard cut(at: count, endsAtBoundary: false) else { return }
                }
                continue
            }
            let got: Int
            do {
                got = try stream.read(into: scratch)
            } catch {
                // What was read before the error is parsed first, as a piece that does not stand alone.
                if count > 0 { publish(count, endsAtBoundary: false, isLast: false) } else { ring.recycle(slot) }
                throw error
            }
            read += Int64(got)
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
            if got == 0 {
                count += local.finish(into: room)
                guard select() else { return try failSelecting() }
                choice?.finish()
                if choice?.failure != nil { return try failSelecting() }
                publish(count, endsAtBoundary: false, isLast: true)
                return
            }
            count += local.filter(UnsafeRawBufferPointer(rebasing: scratch[0..<got]), into: room)
            guard select() else { return try failSelecting() }
        }
    }
}
