/// The unrounded sums of `DayAggregator`, one per source and local day that was added to, kept
/// in blocks of eight consecutive days of one source.
///
/// A sum is found through its block: a small table of blocks (one entry per eight days of a
/// source, not per day) and the sums of neighbouring days side by side in one array. Samples
/// of one source come in time order in most inputs, and after the duplicate check spills they
/// come scattered: a table keyed by day, with an entry per source and day (250,000 on a
/// 5-million-row database), then missed the cache on almost every sample (15% of the time of
/// that read). A block costs 8 sums whether or not its days are used: at worst (one day in
/// every block, as no real export is) about four times the memory of a table keyed by day.
struct DaySums {
    /// Block number by (day / 8) in the high 32 bits and source id in the low 32.
    private var blocks: [UInt64: Int] = [:]
    /// Eight sums per block, in day order.
    private var values: [Double] = []
    /// Per block, bit `i` set when day `i` of the block has a sum (a sum of 0 counts as one).
    private var present: [UInt8] = []
    /// The block added to last: consecutive samples mostly fall in it (no hashing then). Block
    /// numbers never move, so it stays right when blocks are added.
    private var last: (key: UInt64, block: Int)?

    static let daysPerBlock: Int32 = 8

    /// The number of (source, day) sums.
    var count: Int { present.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Adds `steps` to the sum of `source` on `day` (days since 1970-01-01), starting it at +0.
    @inline(__always)
    mutating func add(_ steps: Double, day: Int32, source: Int32) {
        let key = UInt64(UInt32(bitPattern: day >> 3)) << 32 | UInt64(UInt32(bitPattern: source))
        let block: Int
        if let last, last.key == key {
            block = last.block
        } else if let known = blocks[key] {
            block = known
            last = (key, block)
        } else {
            block = present.count
            blocks[key] = block
            values.append(contentsOf: repeatElement(0, count: Int(DaySums.daysPerBlock)))
            present.append(0)
            last = (key, block)
        }
        let slot = Int(day & 7)
        let bit = UInt8(1) << UInt8(slot)
        let index = block * Int(DaySums.daysPerBlock) + slot
        if present[block] & bit == 0 {
            present[block] |= bit
            // 0 + steps, the bits `sums[key, default: 0] += steps` gives (-0.0 becomes +0.0).
            values[index] = 0 + steps
        } else {
            values[index] += steps
        }
    }

    /// Calls `body` with every sum, in no particular order.
    func forEach(_ body: (_ day: Int32, _ source: Int32, _ sum: Double) -> Void) {
        for (key, block) in blocks {
            let firstDay = Int32(bitPattern: UInt32(truncatingIfNeeded: key >> 32)) &<< 3
            let source = Int32(bitPattern: UInt32(truncatingIfNeeded: key))
            let mask = present[block]
            for slot in 0..<Int(DaySums.daysPerBlock) where mask & (UInt8(1) << UInt8(slot)) != 0 {
                body(firstDay | Int32(slot), source, values[block * Int(DaySums.daysPerBlock) + slot])
            }
        }
    }
}
