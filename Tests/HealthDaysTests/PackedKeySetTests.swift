import Testing
@testable import HealthDays

/// The duplicate check's own set against Swift's `Set`: the same answers to every insert, the
/// same keys at the end, through growth, the key of two zero words and a fresh start.
@Suite struct PackedKeySetTests {
    @Test(arguments: [0, 1000])
    func answersAsSwiftsSetDoes(minimumCapacity: Int) throws {
        let set = PackedKeySet(minimumCapacity: minimumCapacity)
        var oracle = Set<PackedSampleKey>()
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        for round in 0..<60_000 {
            // Few distinct values, so that many inserts repeat a key; now and then zeros.
            let key = round % 997 == 0
                ? PackedSampleKey(sourceAndStart: 0, lengthAndValue: 0)
                : PackedSampleKey(sourceAndStart: next() % 5_000, lengthAndValue: next() % 7)
            #expect(set.insert(key) == oracle.insert(key).inserted)
        }
        #expect(set.count == oracle.count)
        #expect(oracle.count > 20_000, "the table grew many times")
        var seen = Set<PackedSampleKey>()
        try set.forEach { key in #expect(seen.insert(key).inserted, "each key once") }
        #expect(seen == oracle)
        set.removeAll()
        #expect(set.count == 0)
        #expect(set.insert(PackedSampleKey(sourceAndStart: 0, lengthAndValue: 0)))
        #expect(set.insert(PackedSampleKey(sourceAndStart: 1, lengthAndValue: 2)))
        #expect(!set.insert(PackedSampleKey(sourceAndStart: 1, lengthAndValue: 2)))
        #expect(set.count == 2)
    }
}
