import Platform
/// The set of `PackedSampleKey`s a `DuplicateFilter` has seen: open addressing with linear
/// probing over a power-of-two table, at most three quarters full.
///
/// `Set<PackedSampleKey>` hashes every key with SipHash through `Hasher` (its seeding, combining
/// and finalizing: 6% of a steps run on a 1 GB export, the set's inserts and growth
/// included). Here a key is hashed by one folded multiplication of its two words, each mixed
/// with a seed drawn at random for each set: an input cannot be written to collide without
/// knowing the seed, so no export can make the probing quadratic.
final class PackedKeySet {
    /// The table; a slot of two zero words is free (the key of two zero words is `holdsZero`).
    private var slots: UnsafeMutablePointer<PackedSampleKey>
    private var mask: Int
    private(set) var count = 0
    private var holdsZero = false
    private let seed0: UInt64
    private let seed1: UInt64

    init(minimumCapacity: Int = 0) {
        var capacity = 16
        // Room for `minimumCapacity` keys at three quarters full, without overflowing.
        while capacity / 4 * 3 < minimumCapacity && capacity < 1 << 40 { capacity *= 2 }
        slots = PackedKeySet.emptyTable(capacity)
        mask = capacity - 1
        var random = SystemRandomNumberGenerator()
        seed0 = random.next()
        seed1 = random.next()
    }

    deinit {
        LargeTable.deallocate(slots)
    }

    private static func emptyTable(_ capacity: Int) -> UnsafeMutablePointer<PackedSampleKey> {
        let table = LargeTable.allocate(byteCount: capacity * MemoryLayout<PackedSampleKey>.stride,
                                        alignment: MemoryLayout<PackedSampleKey>.alignment)
            .bindMemory(to: PackedSampleKey.self, capacity: capacity)
        table.initialize(repeating: PackedSampleKey(sourceAndStart: 0, lengthAndValue: 0), count: capacity)
        return table
    }

    /// The key of two zero words, which marks a free slot (held apart, in `holdsZero`).
    @inline(__always)
    private static func isZero(_ key: PackedSampleKey) -> Bool {
        key.sourceAndStart == 0 && key.lengthAndValue == 0
    }

    /// The slot where the search for `key` begins: its hash.
    @inline(__always)
    private func home(_ key: PackedSampleKey) -> Int {
        let product = (key.sourceAndStart ^ seed0).multipliedFullWidth(by: key.lengthAndValue ^ seed1)
        return Int(truncatingIfNeeded: product.high ^ product.low) & mask
    }

    /// Reads the first word of `key`'s home slot and returns it: called for several keys in a
    /// row, before they are inserted, it has the processor fetch their slots from memory at once
    /// rather than one after the other (Swift has no prefetch instruction; a load whose result
    /// is used is the way to have one issued).
    @inline(__always)
    func touch(_ key: PackedSampleKey) -> UInt64 {
        slots[home(key)].sourceAndStart
    }

    /// The slot that holds `key`, or the free slot where it goes: from its hash, the next slots
    /// in turn.
    @inline(__always)
    private func probe(_ key: PackedSampleKey) -> Int {
        var index = home(key)
        while case let held = slots[index], !PackedKeySet.isZero(held), held != key {
            index = (index + 1) & mask
        }
        return index
    }

    /// Adds `key`; false when it was already there.
    @inline(__always)
    func insert(_ key: PackedSampleKey) -> Bool {
        if PackedKeySet.isZero(key) {
            if holdsZero { return false }
            holdsZero = true
            count += 1
            return true
        }
        let index = probe(key)
        guard PackedKeySet.isZero(slots[index]) else { return false }
        slots[index] = key
        count += 1
        if count > (mask + 1) / 4 * 3 { grow() }
        return true
    }

    /// Calls `body` with every key held, in no particular order.
    func forEach(_ body: (PackedSampleKey) throws(ExportError) -> Void) throws(ExportError) {
        if holdsZero { try body(PackedSampleKey(sourceAndStart: 0, lengthAndValue: 0)) }
        for index in 0...mask where !PackedKeySet.isZero(slots[index]) {
            try body(slots[index])
        }
    }

    /// Lets go of every key and of the table's memory but a small one.
    func removeAll() {
        LargeTable.deallocate(slots)
        slots = PackedKeySet.emptyTable(16)
        mask = 15
        count = 0
        holdsZero = false
    }

    private func grow() {
        let old = slots
        let oldCapacity = mask + 1
        slots = PackedKeySet.emptyTable(oldCapacity * 2)
        mask = oldCapacity * 2 - 1
        for index in 0..<oldCapacity where !PackedKeySet.isZero(old[index]) {
            slots[probe(old[index])] = old[index]
        }
        LargeTable.deallocate(old)
    }
}
