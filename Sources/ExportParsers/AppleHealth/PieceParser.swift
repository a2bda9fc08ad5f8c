import Foundation
import HealthDays
import ExportInput

/// Reads, filters and cuts an Apple Health XML stream into pieces on one thread, parses the
/// pieces on `workers` threads, and hands the results to the calling thread in document order.
///
/// The reader fills a buffer with prefiltered bytes and cuts it at the first boundary that
/// `TopLevelBoundaryScanner` finds past `pieceSize`; workers run `work` on each piece that stands
/// alone. Buffers come from a pool of `12 * workers` and go back only through `recycle`, in
/// order, so memory is bounded whatever the input, and the consumer can still read a piece's bytes
/// (to parse them itself) after a worker is done with it. After `parseRestInOrder()` the workers
/// stop parsing and the reader stops cutting at boundaries: every piece from then on is for the
/// consumer.
final class PieceParser<Outcome: Sendable>: @unchecked Sendable {
    /// Parses one piece; made once per worker thread by `makeWork` and used only there.
    typealias Work = (_ bytes: UnsafeRawBufferPointer, _ piece: ParsePiece) -> Outcome

    // Everything below is guarded by `condition`, except the contents of `buffers` (each slot is
    // owned by one side at a time and handed over under the lock), `scratch` (reader only) and the
    // constants.
    private let condition = NSCondition()
    private let stream: ByteStream
    private let makeWork: @Sendable () -> Work
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let scratch: UnsafeMutableRawBufferPointer
    private let pieceSize: Int
    private var free: [Int]
    private var queue: [ParsePiece] = []
    private var queueHead = 0
    private var results: [Int: (piece: ParsePiece, result: Outcome?)] = [:]
    private var published = 0
    private var delivered = 0
    private var readerEnded = false
    private var failure: ExportError?
    private var inOrderOnly = false
    private var cancelled = false
    private var running = 0
    private var filter = AppleXMLPrefilter()
    private var rawBytes: Int64 = 0

    /// Size of each read from the input.
    private let readSize: Int

    init(stream: ByteStream, workers: Int, pieceSize: Int, readSize: Int,
         makeWork: @escaping @Sendable () -> Work) {
        precondition(workers >= 1, "at least one worker")
        self.stream = stream
        self.makeWork = makeWork
        self.pieceSize = pieceSize
        self.readSize = readSize
        let capacity = pieceSize + 2 * readSize + AppleXMLPrefilter.maxGrowth
        // Buffers go back in document order, so one slow piece holds back every later one; with
        // few buffers the reader then stalls and a worker idles (measured: 6 buffers of 1 MiB,
        // 2.12 s on the 1 GB export; 24 of 256 KiB, 2.05 s in less memory).
        let slots = 12 * workers
        scratch = .allocate(byteCount: readSize, alignment: 16)
        buffers = (0..<slots).map { _ in .allocate(byteCount: capacity, alignment: 16) }
        free = Array((0..<slots).reversed())
        running = workers + 1
        let reader = Thread { [self] in produce() }
        reader.name = "stepimport-read"
        reader.start()
        for number in 0..<workers {
            let worker = Thread { [self] in parsePieces() }
            worker.name = "stepimport-parse-\(number + 1)"
            worker.start()
        }
    }

    deinit {
        scratch.deallocate()
        for buffer in buffers { buffer.deallocate() }
    }

    /// The next piece in document order, with its bytes and what the worker made of it (nil when
    /// no worker parsed it); nil at the end. The bytes stay valid until `recycle(piece.slot)`.
    /// A read error is thrown after every piece read before it has been handed out.
    func next() throws(ExportError) -> (piece: ParsePiece, bytes: UnsafeRawBufferPointer, result: Outcome?)? {
        condition.lock()
        defer { condition.unlock() }
        while results[delivered] == nil && !(readerEnded && delivered == published) {
            condition.wait()
        }
        if let entry = results.removeValue(forKey: delivered) {
            delivered += 1
            let bytes = UnsafeRawBufferPointer(rebasing: buffers[entry.piece.slot][0..<entry.piece.count])
            return (entry.piece, bytes, entry.result)
        }
        if let failure { throw failure }
        return nil
    }

    /// Gives a piece's buffer back to the reader.
    func recycle(_ slot: Int) {
        condition.lock()
        free.append(slot)
        condition.broadcast()
        condition.unlock()
    }

    /// From now on no worker parses and no piece is cut at a boundary: the consumer parses the
    /// rest itself, in order.
    func parseRestInOrder() {
        condition.lock()
        inOrderOnly = true
        condition.unlock()
    }

    /// Stops every thread and waits for them; returns the prefilter (for its counts) and the input bytes read.
    func stop() -> (filter: AppleXMLPrefilter, rawBytes: Int64) {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        let result = (filter, rawBytes)
        condition.unlock()
        return result
    }

    // MARK: - Reader

    /// A free buffer, waiting for one; nil when stopped.
    private func takeFreeSlot() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !cancelled { condition.wait() }
        return cancelled ? nil : free.removeLast()
    }

    private func publish(_ piece: ParsePiece) {
        condition.lock()
        queue.append(piece)
        published += 1
        condition.broadcast()
        condition.unlock()
    }

    private var cuttingStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return inOrderOnly
    }

    private func produce() {
        var local = AppleXMLPrefilter()
        var scanner = TopLevelBoundaryScanner()
        var frame: PieceFrame?
        var index = 0
        var read: Int64 = 0
        var outcome: ExportError?
        var count = 0
        guard var slot = takeFreeSlot() else { return finishReading(local, read, outcome) }

        func piece(_ count: Int, endsAtBoundary: Bool, isLast: Bool) -> ParsePiece {
            defer { index += 1 }
            return ParsePiece(index: index, slot: slot, count: count, endsAtBoundary: endsAtBoundary,
                              isLast: isLast, rawBytesRead: read, frame: frame)
        }

        /// Publishes the bytes before `cut` and carries the rest over to a fresh buffer.
        func cut(at cut: Int, endsAtBoundary: Bool) -> Bool {
            guard let fresh = takeFreeSlot() else { return false }
            let rest = count - cut
            if rest > 0 {
                buffers[fresh].baseAddress!.copyMemory(from: buffers[slot].baseAddress! + cut, byteCount: rest)
            }
            publish(piece(cut, endsAtBoundary: endsAtBoundary, isLast: false))
            if endsAtBoundary { scanner.rebase(cutAt: cut) }
            slot = fresh
            count = rest
            return true
        }

        while true {
            if scanner.phase != .done {
                if cuttingStopped {
                    scanner.stop()
                } else if let boundary = scanner.scan(UnsafeRawBufferPointer(rebasing: buffers[slot][0..<count]),
                                                      target: pieceSize) {
                    if frame == nil, let prefix = scanner.piecePrefix, let suffix = scanner.pieceSuffix {
                        frame = PieceFrame(prefix: prefix, suffix: suffix, rootLine: scanner.rootLine)
                    }
                    guard cut(at: boundary, endsAtBoundary: true) else { break }
                    continue
                }
            }
            if count + readSize + AppleXMLPrefilter.maxGrowth > buffers[slot].count {
                // Full without a boundary past the target: cut at an earlier one, else hand the whole
                // buffer over as a piece that does not stand alone (the consumer parses from there on).
                if scanner.phase != .done, let boundary = scanner.lastBoundary, boundary > 0 {
                    if frame == nil, let prefix = scanner.piecePrefix, let suffix = scanner.pieceSuffix {
                        frame = PieceFrame(prefix: prefix, suffix: suffix, rootLine: scanner.rootLine)
                    }
                    guard cut(at: boundary, endsAtBoundary: true) else { break }
                } else {
                    scanner.stop()
                    guard cut(at: count, endsAtBoundary: false) else { break }
                }
                continue
            }
            let got: Int
            do {
                got = try stream.read(into: scratch)
            } catch {
                // What was read before the error is parsed first, as a piece that does not stand alone.
                outcome = error
                if count > 0 { publish(piece(count, endsAtBoundary: false, isLast: false)) } else { recycle(slot) }
                break
            }
            read += Int64(got)
            let room = UnsafeMutableRawBufferPointer(rebasing: buffers[slot][count...])
            if got == 0 {
                count += local.finish(into: room)
                publish(piece(count, endsAtBoundary: false, isLast: true))
                break
            }
            count += local.filter(UnsafeRawBufferPointer(rebasing: scratch[0..<got]), into: room)
        }
        finishReading(local, read, outcome)
    }

    private func finishReading(_ local: AppleXMLPrefilter, _ read: Int64, _ outcome: ExportError?) {
        condition.lock()
        filter = local
        rawBytes = read
        failure = outcome
        readerEnded = true
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Workers

    private func parsePieces() {
        let work = makeWork()
        condition.lock()
        while true {
            while queueHead == queue.count && !readerEnded && !cancelled { condition.wait() }
            if cancelled || queueHead == queue.count { break }
            let piece = queue[queueHead]
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            let parse = !inOrderOnly && piece.standsAlone
            condition.unlock()
            let result = parse ? work(UnsafeRawBufferPointer(rebasing: buffers[piece.slot][0..<piece.count]), piece) : nil
            condition.lock()
            results[piece.index] = (piece, result)
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
