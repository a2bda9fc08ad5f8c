/// The distinct UTC offsets records carried, for the summary's zone words: a set touched only
/// when the offset changes from one record to the next (an export carries one or two).
struct OffsetsSeen {
    private var seen = Set<Int32>()
    private var last: Int32? = nil

    @inline(__always)
    mutating func note(_ offset: Int32) {
        if offset != last {
            seen.insert(offset)
            last = offset
        }
    }

    var sorted: [Int32] { seen.sorted() }
}
