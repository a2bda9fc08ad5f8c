import Foundation
import Testing
import ExportInput
import HealthDays

/// The ring between a producer, optional workers and a consumer: order, the bound on buffers,
/// the producer's failure, and stopping at any moment without a thread left waiting.
///
/// Every call that can block runs with a deadline, so that a broken ring fails a test instead of
/// hanging the run.
@Suite struct BufferRingTests {
    /// An item as the tests publish it: its number, and what a worker read from its bytes.
    struct Numbered: Sendable, Equatable {
        let number: Int
        var processed: Int?
        var workerCalls = 0
    }

    /// What the consumer got from one call of `next()`.
    enum Next: Sendable, Equatable {
        /// An item, its buffer, and the number its bytes hold (nil unless they are 8 bytes).
        case item(Numbered, slot: Int, stored: Int?)
        case end
        case failed(ExportError)
        /// `next()` did not return within the deadline.
        case stuck

        var item: Numbered? {
            if case .item(let item, _, _) = self { return item }
            return nil
        }

        var slot: Int? {
            if case .item(_, let slot, _) = self { return slot }
            return nil
        }

        /// An item whose bytes are its own.
        var isIntact: Bool {
            if case .item(let item, _, let stored) = self { return stored == item.number }
            return false
        }
    }

    /// Facts shared between the test's threads, behind a lock.
    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var takes = 0
        private var held: Set<Int> = []
        private var mostHeld = 0
        private var handedOutTwice = 0
        private var producerReturned = false

        func took(_ slot: Int) {
            lock.withLock {
                takes += 1
                if !held.insert(slot).inserted { handedOutTwice += 1 }
                mostHeld = max(mostHeld, held.count)
            }
        }

        /// Called before the buffer goes back, so `held` never counts fewer than the ring gives out.
        func recycling(_ slot: Int) { _ = lock.withLock { held.remove(slot) } }
        func producerEnded() { lock.withLock { producerReturned = true } }
        var takeCount: Int { lock.withLock { takes } }
        var ended: Bool { lock.withLock { producerReturned } }
        /// At most `slots` buffers out at once, never one buffer twice.
        func keptTheBound(_ slots: Int) -> Bool { lock.withLock { mostHeld <= slots && handedOutTwice == 0 } }
    }

    /// A value handed from one thread to another, waited for until a deadline.
    final class Handoff<Value: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: Value?

        func put(_ new: Value) {
            condition.withLock {
                value = new
                condition.broadcast()
            }
        }

        func wait(seconds: Double) -> Value? {
            let deadline = Date(timeIntervalSinceNow: seconds)
            return condition.withLock {
                while value == nil && condition.wait(until: deadline) {}
                return value
            }
        }
    }

    /// Runs `body` on a thread of its own; nil when it has not returned within 10 seconds.
    static func withDeadline<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value? {
        let handoff = Handoff<Value>()
        Thread { handoff.put(body()) }.start()
        return handoff.wait(seconds: 10)
    }

    static func next(_ ring: BufferRing<Numbered>) -> Next {
        withDeadline { () -> Next in
            do throws(ExportError) {
                guard let delivery = try ring.next() else { return .end }
                let stored = delivery.bytes.count == 8 ? delivery.bytes.load(as: Int.self) : nil
                return .item(delivery.item, slot: delivery.slot, stored: stored)
            } catch {
                return .failed(error)
            }
        } ?? .stuck
    }

    static func recycle(_ ring: BufferRing<Numbered>, _ step: Next, _ shared: Shared) {
        guard let slot = step.slot else { return }
        shared.recycling(slot)
        ring.recycle(slot)
    }

    /// Takes every item to the end (or the error), recycling each one; the last step is not an item.
    static func drain(_ ring: BufferRing<Numbered>, _ shared: Shared) -> [Next] {
        var steps: [Next] = []
        repeat {
            steps.append(next(ring))
            recycle(ring, steps.last!, shared)
        } while steps.last!.item != nil
        return steps
    }

    /// Stops the ring; false when `stop()` has not returned within the deadline.
    static func stop(_ ring: BufferRing<Numbered>) -> Bool {
        withDeadline { ring.stop() } != nil
    }

    static let failure = ExportError.unreadable(InputLocation(path: "export.zip"), reason: "Input/output error")

    /// Starts a producer that publishes `count` items (forever when nil), each buffer holding its
    /// number, then throws `failure` if given.
    static func produce(into ring: BufferRing<Numbered>, count: Int?, shared: Shared, failure: ExportError? = nil,
                        pause: Bool = false) {
        ring.startProducer(named: "test-producer") { () throws(ExportError) in
            defer { shared.producerEnded() }
            var number = 0
            while count.map({ number < $0 }) ?? true {
                guard let slot = ring.take() else { return }
                shared.took(slot)
                ring.buffer(slot).storeBytes(of: number, as: Int.self)
                if pause && number % 7 == 0 { usleep(200) }
                ring.publish(slot, count: 8, Numbered(number: number))
                number += 1
            }
            if let failure { throw failure }
        }
    }

    /// Workers that read the number back from the bytes, slower on some items than on others so
    /// that they finish out of order.
    static func startWorkers(_ ring: BufferRing<Numbered>) {
        ring.startWorkers(named: "test-worker") {
            { item, bytes in
                if item.number % 5 == 0 { usleep(UInt32(100 * (item.number % 3))) }
                item.processed = bytes.load(as: Int.self)
                item.workerCalls += 1
            }
        }
    }

    @Test(arguments: [0, 1, 3])
    func itemsArriveInPublishOrderEachProcessedOnce(workers: Int) {
        let ring = BufferRing<Numbered>(slots: 4, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: 500, shared: shared, pause: true)
        Self.startWorkers(ring)
        let steps = Self.drain(ring, shared)
        #expect(steps.last == .end)
        #expect(Self.next(ring) == .end, "after the end, still the end")
        #expect(Self.stop(ring))
        let items = steps.compactMap(\.item)
        #expect(items.map(\.number) == Array(0..<500))
        #expect(steps.dropLast().allSatisfy { $0.isIntact }, "each item comes with its own bytes")
        if workers == 0 {
            #expect(items.allSatisfy { $0.processed == nil && $0.workerCalls == 0 })
        } else {
            #expect(items.allSatisfy { $0.processed == $0.number && $0.workerCalls == 1 })
        }
        #expect(shared.keptTheBound(4))
    }

    /// The ring wakes a sleeping producer or worker only once two buffers or items wait for it,
    /// and relies on every thread that sleeps or returns waking the others first. Any order of
    /// pauses among the three sides must still deliver every item, with one buffer as with many.
    @Test(arguments: [(1, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 0), (3, 2), (5, 1), (5, 2)])
    func everyItemArrivesWhateverTheSidesPausesAndSlots(slots: Int, workers: Int) {
        let ring = BufferRing<Numbered>(slots: slots, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: 300, shared: shared, pause: true)
        Self.startWorkers(ring)
        var steps: [Next] = []
        repeat {
            steps.append(Self.next(ring))
            // The consumer is slow now and then too, so that each side in turn waits for another.
            if steps.count % 11 == 0 { usleep(300) }
            Self.recycle(ring, steps.last!, shared)
        } while steps.last!.item != nil
        #expect(steps.last == .end, "not stuck: \(steps.last!)")
        #expect(Self.stop(ring))
        #expect(steps.compactMap(\.item?.number) == Array(0..<300))
        #expect(steps.dropLast().allSatisfy { $0.isIntact })
        #expect(shared.keptTheBound(slots))
    }

    @Test(arguments: [0, 2])
    func theProducerWaitsWhileEveryBufferIsOut(workers: Int) {
        let ring = BufferRing<Numbered>(slots: 3, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: 20, shared: shared)
        Self.startWorkers(ring)
        // The consumer holds on to three buffers: all there are.
        let held = (0..<3).map { _ in Self.next(ring) }
        #expect(held.map(\.item?.number) == [0, 1, 2])
        usleep(200_000)
        #expect(shared.takeCount == 3, "no fourth buffer while three are out")
        Self.recycle(ring, held[0], shared)
        let fourth = Self.next(ring)
        #expect(fourth.item?.number == 3)
        #expect(fourth.slot != nil && fourth.slot == held[0].slot, "the one buffer given back")
        usleep(100_000)
        #expect(shared.takeCount == 4)
        for step in held.dropFirst() + [fourth] { Self.recycle(ring, step, shared) }
        let rest = Self.drain(ring, shared)
        #expect(Self.stop(ring))
        #expect(rest.compactMap(\.item?.number) == Array(4..<20))
        #expect(rest.last == .end)
        #expect(shared.keptTheBound(3))
    }

    @Test(arguments: [0, 2])
    func theProducersFailureComesAfterWhatItPublished(workers: Int) {
        let ring = BufferRing<Numbered>(slots: 2, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: 7, shared: shared, failure: Self.failure)
        Self.startWorkers(ring)
        let steps = Self.drain(ring, shared)
        #expect(steps.compactMap(\.item?.number) == Array(0..<7))
        #expect(steps.last == .failed(Self.failure))
        #expect(Self.next(ring) == .failed(Self.failure), "the failure stays")
        #expect(Self.stop(ring))
    }

    @Test(arguments: [0, 2])
    func stopWakesAProducerWaitingForABuffer(workers: Int) {
        let ring = BufferRing<Numbered>(slots: 2, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: nil, shared: shared)
        Self.startWorkers(ring)
        for _ in 0..<1000 where shared.takeCount < 2 { usleep(1000) }
        usleep(100_000)
        #expect(shared.takeCount == 2 && !shared.ended, "the producer waits for a third buffer")
        #expect(Self.stop(ring))
        #expect(shared.ended, "stop() returns once the producer has")
        #expect(Self.next(ring) == .end)
    }

    /// The names of this process's threads, from /proc.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func stopReturnsOnlyOnceTheThreadsHaveExited() {
        // A name no other test uses (Linux keeps 15 bytes of it).
        let name = "jn\(UInt16.random(in: 1000...9999))"
        let ring = BufferRing<Numbered>(slots: 2, bufferSize: 8, workers: 2)
        let shared = Shared()
        ring.startProducer(named: name) { () throws(ExportError) in
            defer { shared.producerEnded() }
            while let slot = ring.take() {
                ring.publish(slot, count: 8, Numbered(number: 0))
            }
        }
        ring.startWorkers(named: name) { { _, _ in } }
        for _ in 0..<1000 where !Self.threadNames().contains(where: { $0.hasPrefix(name) }) { usleep(1000) }
        #expect(Self.threadNames().filter { $0.hasPrefix(name) }.count == 3, "a producer and two workers, named")
        #expect(Self.stop(ring))
        #expect(Self.threadNames().filter { $0.hasPrefix(name) }.isEmpty, "joined, not only told to stop")
    }

    @Test(arguments: [0, 1, 3])
    func theConsumerStopsEarly(workers: Int) {
        let ring = BufferRing<Numbered>(slots: 4, bufferSize: 8, workers: workers)
        let shared = Shared()
        Self.produce(into: ring, count: nil, shared: shared, pause: true)
        Self.startWorkers(ring)
        var numbers: [Int?] = []
        for index in 0..<10 {
            let step = Self.next(ring)
            numbers.append(step.item?.number)
            // The last one is still out when the consumer stops.
            if index < 9 { Self.recycle(ring, step, shared) }
        }
        #expect(numbers == Array(0..<10))
        #expect(Self.stop(ring))
        #expect(shared.ended)
        #expect(shared.keptTheBound(4))
    }

    @Test func bypassedWorkersPassItemsOnUnprocessed() {
        let ring = BufferRing<Numbered>(slots: 3, bufferSize: 8, workers: 2)
        let shared = Shared()
        Self.produce(into: ring, count: 40, shared: shared)
        Self.startWorkers(ring)
        var steps = (0..<5).map { _ in
            let step = Self.next(ring)
            Self.recycle(ring, step, shared)
            return step
        }
        #expect(!ring.workersBypassed)
        ring.bypassWorkers()
        #expect(ring.workersBypassed)
        steps += Self.drain(ring, shared)
        #expect(Self.stop(ring))
        let items = steps.compactMap(\.item)
        #expect(items.map(\.number) == Array(0..<40))
        #expect(items.prefix(5).allSatisfy { $0.processed == $0.number })
        // Only the three in the ring when the consumer took over (5, 6, 7) may have been processed.
        #expect(items.dropFirst(8).allSatisfy { $0.processed == nil && $0.workerCalls == 0 })
    }

    @Test func aBufferIsRecycledOnce() async {
        await #expect(processExitsWith: .failure) {
            let ring = BufferRing<Int>(slots: 2, bufferSize: 1)
            ring.startProducer(named: "test-producer") { () throws(ExportError) in
                if let slot = ring.take() { ring.publish(slot, count: 1, 0) }
            }
            let delivery = try? ring.next()
            ring.recycle(delivery!.slot)
            ring.recycle(delivery!.slot)
        }
    }
}
