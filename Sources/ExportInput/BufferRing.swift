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
/// Each side waits on a condition of its own, and a change wakes only a side that waits for it.
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

    /// Who waits, each on a condition of `lock`.
    private enum Waiter: Int, CaseIterable {
        /// The producer, for a free buffer.
        case producer
        /// Workers, for an item to process.
        case worker
        /// The consumer, for the next item to be ready.
        case consumer
        /// `stop()`, for the threads to return.
        case stopper
    }

    private struct Entry {
        var item: Item
        let slot: Int
        let count: Int
        /// Processed by a worker, or there are none: the consumer may take it.
        var ready: Bool
    }

    private let lock = ConditionLock(conditions: Waiter.allCases.count)
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let workers: Int
    // Everything below is guarded by `lock`. The bytes of a buffer are not: they belong to
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
    /// Threads waiting, by `Waiter`.
    private var waiting = [Int](repeating: 0, count: Waiter.allCases.count)
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
        lock.lock()
        precondition(!producerStarted, "one producer")
        producerStarted = true
        lock.unlock()
        start(named: name) { [self] in
            var outcome: ExportError?
            do throws(ExportError) {
                try produce()
            } catch {
                outcome = error
            }
            lock.lock()
            failure = outcome
            producerEnded = true
            running -= 1
            wakeAll(.worker)
            wake(.consumer)
            wake(.stopper)
            lock.unlock()
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
        lock.lock()
        running += 1
        threads.append(JoinableThread {
            Thread.current.name = name
            body()
        })
        lock.unlock()
    }

    /// Stops every thread the ring started and waits for them: a producer waiting for a buffer
    /// gets nil, a worker finishes the item it has and takes no more, `next()` returns nil.
    public func stop() {
        lock.lock()
        cancelled = true
        for waiter in Waiter.allCases { wakeAll(waiter) }
        while running > 0 { wait(.stopper) }
        let started = threads
        lock.unlock()
        // Their work has returned; wait until the threads themselves are gone too.
        for thread in started { thread.join() }
    }

    // MARK: - Producer

    /// A free buffer, waiting for one; nil once stopped.
    public func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        while free.isEmpty && !cancelled { wait(.producer) }
        if cancelled { return nil }
        let slot = free.removeLast()
        owners[slot] = .producer
        return slot
    }

    /// Hands the first `count` bytes of a buffer the producer took on, with `item`.
    public func publish(_ slot: Int, count: Int, _ item: Item) {
        precondition(count >= 0 && count <= buffers[slot].count, "published bytes fit in the buffer")
        lock.lock()
        precondition(owners[slot] == .producer, "only a buffer the producer took is published")
        owners[slot] = .ring
        entries[published % slots] = Entry(item: item, slot: slot, count: count, ready: workers == 0)
        published += 1
        if workers == 0 {
            wake(.consumer)
        } else if published - claimed >= Self.batch {
            wake(.worker)
        }
        lock.unlock()
    }

    /// Whether `bypassWorkers()` was called.
    public var workersBypassed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return bypassed
    }

    // MARK: - Consumer

    /// The next item in publish order, waiting for it; nil after the last one or once stopped.
    /// The producer's failure is thrown after every item published before it.
    public func next() throws(ExportError) -> Delivery? {
        lock.lock()
        defer { lock.unlock() }
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
            wait(.consumer)
        }
        return nil
    }

    /// Gives a buffer back: the consumer's once it is done with it, or one the producer took and
    /// does not publish.
    public func recycle(_ slot: Int) {
        lock.lock()
        precondition(owners[slot] == .consumer || owners[slot] == .producer, "a buffer is recycled once, by its owner")
        owners[slot] = .free
        free.append(slot)
        if free.count >= Self.batch { wake(.producer) }
        lock.unlock()
    }

    /// From now on workers pass items on unprocessed, for a consumer that takes the work over.
    public func bypassWorkers() {
        lock.lock()
        bypassed = true
        lock.unlock()
    }

    // MARK: - Workers

    private func processItems(_ process: (inout Item, UnsafeRawBufferPointer) -> Void) {
        lock.lock()
        while true {
            while claimed == published && !producerEnded && !cancelled { wait(.worker) }
            if cancelled || claimed == published { break }
            let index = claimed % slots
            claimed += 1
            guard var entry = entries[index] else { preconditionFailure("an item is claimed once") }
            if !bypassed {
                entries[index] = nil
                lock.unlock()
                process(&entry.item, UnsafeRawBufferPointer(rebasing: buffers[entry.slot][0..<entry.count]))
                lock.lock()
            }
            entry.ready = true
            entries[index] = entry
            if readyInOrder() >= Self.batch { wake(.consumer) }
        }
        running -= 1
        wakeHeldBack(except: nil)
        wake(.stopper)
        lock.unlock()
    }

    // MARK: - Waiting

    /// A sleeping producer, worker or consumer is woken once this many buffers or items wait for
    /// it, not at the first: every wake-up costs a context switch, and on two cores shared by four threads
    /// the switches take a tenth of the CPU time (1 GB export: about 4,300 voluntary switches with
    /// this, 6,238 waking at the first, 10,051 with one condition for all sides).
    private static var batch: Int { 2 }

    /// Waits on `waiter`'s condition, after waking whoever has work held back; with the lock held.
    private func wait(_ waiter: Waiter) {
        wakeHeldBack(except: waiter)
        waiting[waiter.rawValue] += 1
        lock.wait(waiter.rawValue)
        waiting[waiter.rawValue] -= 1
    }

    /// Wakes every side but `waiter` that has work waiting, if fewer than `batch` pieces of it. A
    /// thread calls it before it sleeps or returns, so that no thread sleeps while another could
    /// go on: a wake-up held back is never lost.
    private func wakeHeldBack(except waiter: Waiter?) {
        if waiter != .worker && claimed < published { wake(.worker) }
        if waiter != .producer && !free.isEmpty { wake(.producer) }
        if waiter != .consumer && readyInOrder() > 0 { wake(.consumer) }
    }

    /// How many items from `delivered` on are ready for the consumer, up to `batch`.
    private func readyInOrder() -> Int {
        var count = 0
        while count < Self.batch && delivered + count < published,
              let entry = entries[(delivered + count) % slots], entry.ready {
            count += 1
        }
        return count
    }

    /// Wakes one thread waiting as `waiter`, if one does; with the lock held.
    private func wake(_ waiter: Waiter) {
        if waiting[waiter.rawValue] > 0 { lock.signal(waiter.rawValue) }
    }

    /// Wakes every thread waiting as `waiter`; with the lock held.
    private func wakeAll(_ waiter: Waiter) {
        if waiting[waiter.rawValue] > 0 { lock.broadcast(waiter.rawValue) }
    }
}
