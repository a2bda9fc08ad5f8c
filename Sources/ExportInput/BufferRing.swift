import Foundation
import HealthDays
import Platform

/// A bounded ring of byte buffers between a producer thread and a consumer, with optional worker
/// threads between them; the consumer receives the buffers in the order they were published.
///
/// Each buffer belongs to one side at a time: the producer takes a free one, fills it and
/// publishes it with an `Item` that describes it; a worker, if there are any, processes it; the
/// consumer reads it and recycles it. There are never more than `slots` buffers, so memory is
/// bounded whatever the input, and every hand-off happens under one lock and allocates nothing.
/// A failure thrown by the producer reaches the consumer after every item published before it.
/// The ring never looks at the bytes. Call `stop()` before letting go of it: its threads hold it.
public final class BufferRing<Item: Sendable>: @unchecked Sendable {
    /// A published buffer as the consumer receives it.
    public struct Delivery {
        /// What the producer published with the bytes, as the worker left it.
        public let item: Item
        /// The buffer, to give back with `recycle(_:)`.
        public let slot: Int
        /// The published bytes; valid until `recycle(slot)`.
        public let bytes: UnsafeRawBufferPointer
    }

    private enum Owner { case free, producer, ring, consumer }

    private struct Entry {
        var item: Item
        let slot: Int
        let count: Int
        /// Processed by a worker, or there are none: the consumer may take it.
        var ready: Bool
    }

    private let condition = NSCondition()
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let workers: Int
    // Everything below is guarded by `condition`. The bytes of a buffer are not: they belong to
    // whoever `owners` names (a worker reads a buffer the ring holds).
    private var owners: [Owner]
    private var free: [Int]
    /// Items between `delivered` and `published`, at their sequence number modulo `slots` (each holds
    /// a buffer, so there are never more than `slots`); nil while a worker has the item.
    private var entries: [Entry?]
    private var published = 0
    private var claimed = 0
    private var delivered = 0
    private var producerStarted = false
    private var producerEnded = false
    private var failure: ExportError?
    private var bypassed = false
    private var cancelled = false
    private var running = 0
    /// Every thread started, to join in `stop()`.
    private var threads: [JoinableThread] = []

    /// `slots` buffers of `bufferSize` bytes; with `workers` > 0 every item waits for one of the
    /// threads `startWorkers` starts before it reaches the consumer.
    public init(slots: Int, bufferSize: Int, workers: Int = 0) {
        precondition(slots >= 1 && bufferSize >= 0 && workers >= 0, "a ring needs a buffer")
        buffers = (0..<slots).map { _ in .allocate(byteCount: bufferSize, alignment: 16) }
        owners = Array(repeating: .free, count: slots)
        free = Array((0..<slots).reversed())
        entries = Array(repeating: nil, count: slots)
        self.workers = workers
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// How many buffers there are.
    public var slots: Int { buffers.count }

    /// The memory of a buffer; its owner may use it.
    public func buffer(_ slot: Int) -> UnsafeMutableRawBufferPointer { buffers[slot] }

    // MARK: - Threads

    /// Runs `produce` on a new thread named `name`. It takes, fills and publishes buffers; when it
    /// returns, the consumer gets nil after the last item, and when it throws, the error.
    public func startProducer(named name: String, _ produce: @escaping @Sendable () throws(ExportError) -> Void) {
        condition.lock()
        precondition(!producerStarted, "one producer")
        producerStarted = true
        condition.unlock()
        start(named: name) { [self] in
            var outcome: ExportError?
            do throws(ExportError) {
                try produce()
            } catch {
                outcome = error
            }
            condition.lock()
            failure = outcome
            producerEnded = true
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Starts the `workers` threads, named `name-1`, `name-2` and so on. Each calls `makeWork` once,
    /// on its own thread, and with what it returns processes the items in place, reading their bytes.
    public func startWorkers(named name: String,
                             makeWork: @escaping @Sendable () -> (inout Item, UnsafeRawBufferPointer) -> Void) {
        for number in 0..<workers {
            start(named: "\(name)-\(number + 1)") { [self] in processItems(makeWork()) }
        }
    }

    private func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        condition.lock()
        running += 1
        threads.append(JoinableThread {
            Thread.current.name = name
            body()
        })
        condition.unlock()
    }

    /// Stops every thread the ring started and waits for them: a producer waiting for a buffer
    /// gets nil, a worker finishes the item it has and takes no more, `next()` returns nil.
    public func stop() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        let started = threads
        condition.unlock()
        // Their work has returned; wait until the threads themselves are gone too.
        for thread in started { thread.join() }
    }

    // MARK: - Producer

    /// A free buffer, waiting for one; nil once stopped.
    public func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !cancelled { condition.wait() }
        if cancelled { return nil }
        let slot = free.removeLast()
        owners[slot] = .producer
        return slot
    }

    /// Hands the first `count` bytes of a buffer the producer took on, with `item`.
    public func publish(_ slot: Int, count: Int, _ item: Item) {
        precondition(count >= 0 && count <= buffers[slot].count, "published bytes fit in the buffer")
        condition.lock()
        precondition(owners[slot] == .producer, "only a buffer the producer took is published")
        owners[slot] = .ring
        entries[published % slots] = Entry(item: item, slot: slot, count: count, ready: workers == 0)
        published += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `bypassWorkers()` was called.
    public var workersBypassed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return bypassed
    }

    // MARK: - Consumer

    /// The next item in publish order, waiting for it; nil after the last one or once stopped.
    /// The producer's failure is thrown after every item published before it.
    public func next() throws(ExportError) -> Delivery? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled {
            if delivered < published {
                let index = delivered % slots
                if let entry = entries[index], entry.ready {
                    entries[index] = nil
                    delivered += 1
                    owners[entry.slot] = .consumer
                    return Delivery(item: entry.item, slot: entry.slot,
                                    bytes: UnsafeRawBufferPointer(rebasing: buffers[entry.slot][0..<entry.count]))
                }
            } else if producerEnded {
                if let failure { throw failure }
                return nil
            }
            condition.wait()
        }
        return nil
    }

    /// Gives a buffer back: the consumer's once it is done with it, or one the producer took and
    /// does not publish.
    public func recycle(_ slot: Int) {
        condition.lock()
        precondition(owners[slot] == .consumer || owners[slot] == .producer, "a buffer is recycled once, by its owner")
        owners[slot] = .free
        free.append(slot)
        condition.broadcast()
        condition.unlock()
    }

    /// From now on workers pass items on unprocessed, for a consumer that takes the work over.
    public func bypassWorkers() {
        condition.lock()
        bypassed = true
        condition.unlock()
    }

    // MARK: - Workers

    private func processItems(_ process: (inout Item, UnsafeRawBufferPointer) -> Void) {
        condition.lock()
        while true {
            while claimed == published && !producerEnded && !cancelled { condition.wait() }
            if cancelled || claimed == published { break }
            let index = claimed % slots
            claimed += 1
            guard var entry = entries[index] else { preconditionFailure("an item is claimed once") }
            if !bypassed {
                entries[index] = nil
                condition.unlock()
                process(&entry.item, UnsafeRawBufferPointer(rebasing: buffers[entry.slot][0..<entry.count]))
                condition.lock()
            }
            entry.ready = true
            entries[index] = entry
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
