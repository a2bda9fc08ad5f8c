import Testing
import Platform

/// Large tables come aligned to a huge page and usable to their last byte; small ones are plain.
@Suite struct LargeTableTests {
    @Test(arguments: [16, 4096, LargeTable.hugePageSize - 1, LargeTable.hugePageSize, 5 * LargeTable.hugePageSize + 8])
    func aTableIsAlignedAndWritableThroughout(byteCount: Int) {
        let memory = LargeTable.allocate(byteCount: byteCount, alignment: 16)
        defer { LargeTable.deallocate(memory) }
        let address = Int(bitPattern: memory)
        #expect(address % 16 == 0)
        if byteCount >= LargeTable.hugePageSize {
            #expect(address % LargeTable.hugePageSize == 0, "aligned for huge pages")
        }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: byteCount)
        #expect(memory.load(fromByteOffset: byteCount - 1, as: UInt8.self) == 0xA5)
    }
}
