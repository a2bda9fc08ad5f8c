/// The distinct UTC offsets records carried, for the summary's zone words: a set touched only
/// when the offset changes from one record to the next (an export carries one or two).
///
/// Callers ask `changes(to:)` first and `note` only then: an aggregator's stored property
/// modified for every sample costs a dynamic exclusivity check each time (2.5% of the
/// instructions of reading a database), a read does not.
struct OffsetsSeen {
    private var seen = Set<Int32>()
    private var last: Int32? = nil

    /// Whether `offset` differs from the last one noted.
    @inline(__always)
    func changes(to offset: Int32) -> Bool {
        offset != last
    }

    mutating func note(_ offset: Int32) {
        seen.insert(offset)
        last = offset
    }

    var sorted: [Int32] { seen.sorted() }
}
