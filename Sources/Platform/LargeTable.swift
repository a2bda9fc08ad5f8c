import Glibc

/// Memory for a large table that is read at random (a hash set of millions of keys): aligned to
/// 2 MiB and marked for transparent huge pages where the kernel offers them on request
/// (`madvise` mode), so that a look-up costs a cache miss and not also a page-table walk. In
/// a virtual machine a walk of 4 KiB pages costs a second set of walks of the host's tables:
/// measured on the 1 GB export, the duplicate check's first load of a slot takes about 165 ns.
public enum LargeTable {
    /// Tables from this size on are given huge pages; smaller ones are plain allocations.
    public static let hugePageSize = 2 << 20

    /// `byteCount` bytes aligned for `alignment`; free them with `deallocate(_:)`.
    public static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        guard byteCount >= hugePageSize else {
            return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: max(alignment, hugePageSize))
        // Advice only: without huge pages (`never`, or none free) the table works as it is.
        _ = madvise(memory, byteCount, MADV_HUGEPAGE)
        return memory
    }

    public static func deallocate(_ memory: UnsafeMutableRawPointer) {
        memory.deallocate()
    }
}
