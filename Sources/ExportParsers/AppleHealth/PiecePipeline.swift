import HealthDays
import ExportInput

/// Reads, filters and cuts an Apple Health XML stream into pieces on one thread, parses the
/// pieces on `workers` threads, and hands the results to the calling thread in document order.
///
/// The reader fills a buffer with the input's bytes, their prolog prefiltered (the DOCTYPE and the
/// prolog's control characters dropped; those of the body are left to whoever parses each piece,
/// see `AppleXMLPrefilter(dropsBodyControls:)`), and cuts it at the first boundary that
/// `TopLevelBoundaryScanner` finds past `pieceSize`; workers run `work` on each piece that stands
/// alone. The pieces travel through a `BufferRing` of `12 * workers` buffers, which go back only
/// through `recycle`, in order, so memory is bounded whatever the input, and the consumer can still
/// read a piece's bytes (to parse them itself) after a worker is done with it. After
/// `parseRestInOrder()` the workers stop parsing and the reader stops cutting at boundaries: every
/// piece from then on is for the consumer.
final class PiecePipeline<Outcome: Sendable>: @unchecked Sendable {
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
    private var filter = AppleXMLPrefilter(dropsBodyControls: false)
    private var rawBytes: Int64 = 0
    /// Pieces cut at a line that began like a child of the root (`childLine`), not where the
    /// scanner read every markup up to; read once the reader has stopped.
    private(set) var cutsAtLines = 0

    init(stream: ByteStream, workers: Int, pieceSize: Int, readSize: Int, makeWork: @escaping @Sendable () -> Work) {
        precondition(workers >= 1, "at least one worker")
        self.stream = stream
        self.pieceSize = pieceSize
        self.readSize = readSize
        scratch = .allocate(byteCount: readSize, alignment: 16)
        // Buffers go back in document order, so one slow piece holds back every later one: twelve
        // a worker keep the reader from stalling behind it.
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

    /// Stops every thread and waits for them; returns the prefilter (for its counts and drops)
    /// and the input bytes read.
    func stop() -> (filter: AppleXMLPrefilter, rawBytes: Int64) {
        ring.stop()
        return (filter, rawBytes)
    }

    // MARK: - Reader

    /// Bytes read past `pieceSize` before a boundary is looked for: a few lines of an export, so
    /// that little is carried over to the next buffer after the cut.
    private static var overshoot: Int { 4096 }
    /// Children of the root the first boundaries must have shown indented alike before
    /// boundaries are looked for at line starts only.
    private static var indentEvidence: Int { 16 }

    private func produce() throws(ExportError) {
        var local = AppleXMLPrefilter(dropsBodyControls: false)
        var read: Int64 = 0
        defer {
            filter = local
            rawBytes = read
        }
        // Boundaries are found by the scanner, reading every markup, until it has seen the root's
        // children indented alike; from then on by looking at the lines after the target only
        // (`childLine`), and by a scanner of the piece's own when that finds none.
        var scanner = TopLevelBoundaryScanner()
        var indent: [UInt8]?
        var cutting = true
        // Where the next look at line starts begins, in guess mode.
        var lookFrom = pieceSize
        var frame: PieceFrame?
        var index = 0
        var count = 0
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
            if endsAtBoundary, frame == nil, let prefix = scanner.piecePrefix, let suffix = scanner.pieceSuffix {
                frame = PieceFrame(prefix: prefix, suffix: suffix, rootLine: scanner.rootLine)
            }
            let rest = count - cut
            if rest > 0 {
                ring.buffer(fresh).baseAddress!.copyMemory(from: buffer.baseAddress! + cut, byteCount: rest)
            }
            publish(cut, endsAtBoundary: endsAtBoundary, isLast: false)
            if endsAtBoundary && indent == nil {
                scanner.rebase(cutAt: cut)
                indent = scanner.childIndent(minimumChildren: Self.indentEvidence)
            }
            slot = fresh
            buffer = ring.buffer(fresh)
            count = rest
            lookFrom = pieceSize
            return true
        }

        /// The boundary to cut at, past the target, if the bytes so far hold one.
        func boundary() -> Int? {
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            guard let indent else { return scanner.scan(bytes, target: pieceSize) }
            guard count > lookFrom else { return nil }
            if let line = scanner.childLine(bytes, from: lookFrom, indent: indent) {
                cutsAtLines += 1
                return line
            }
            // A line may be cut off at the end: look at it again with the next bytes.
            lookFrom = max(lookFrom, count - indent.count - 2)
            return nil
        }

        /// The buffer is full without a boundary past the target: the latest one before it.
        func earlierBoundary() -> Int? {
            if indent == nil { return scanner.lastBoundary }
            var own = TopLevelBoundaryScanner.betweenChildren()
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            return own.scan(bytes, target: pieceSize) ?? own.lastBoundary
        }

        while true {
            if cutting {
                if ring.workersBypassed || (indent == nil && scanner.phase == .done) {
                    cutting = false
                    scanner.stop()
                } else if let boundary = boundary() {
                    guard cut(at: boundary, endsAtBoundary: true) else { return }
                    continue
                }
            }
            if count + readSize + AppleXMLPrefilter.maxGrowth > buffer.count {
                // Full without a boundary past the target: cut at an earlier one, else hand the whole
                // buffer over as a piece that does not stand alone (the consumer parses from there on).
                if cutting, let boundary = earlierBoundary(), boundary > 0 {
                    guard cut(at: boundary, endsAtBoundary: true) else { return }
                } else {
                    cutting = false
                    scanner.stop()
                    guard cut(at: count, endsAtBoundary: false) else { return }
                }
                continue
            }
            // Up to a little past the target while cutting, so that little is carried over.
            let wanted = cutting ? min(readSize, max(pieceSize - count, 0) + Self.overshoot) : readSize
            let inPlace = local.isInBody
            let target = inPlace ? UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + wanted)])
                                 : UnsafeMutableRawBufferPointer(rebasing: scratch[0..<wanted])
            let got: Int
            do {
                got = try stream.read(into: target)
            } catch {
                // What was read before the error is parsed first, as a piece that does not stand alone.
                if count > 0 { publish(count, endsAtBoundary: false, isLast: false) } else { ring.recycle(slot) }
                throw error
            }
            read += Int64(got)
            if got == 0 {
                count += local.finish(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                publish(count, endsAtBoundary: false, isLast: true)
                return
            }
            if inPlace {
                count += local.filterInPlace(UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + got)]))
            } else {
                count += local.filter(UnsafeRawBufferPointer(rebasing: scratch[0..<got]),
                                      into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            }
        }
    }
}
