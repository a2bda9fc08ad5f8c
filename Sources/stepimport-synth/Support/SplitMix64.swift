/// A small seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// The generator owns its randomness because Foundation's and the standard
/// library's random APIs are neither seedable nor promised to stay the same
/// across releases, and the same arguments must give the same bytes forever.
/// Only `+ - * /` are used on doubles derived from it, so results do not depend
/// on the platform's libm either.
struct SplitMix64 {
    private var state: UInt64

    /// A generator that starts from `seed`; equal seeds give equal sequences.
    init(seed: UInt64) {
        state = seed
    }

    /// A generator for one named stream of one day, independent of every other
    /// (seed, day, stream) triple, so adding a record type to one stream never
    /// shifts the numbers another stream draws.
    init(seed: UInt64, day: Int, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ 0x6A09_E667_F3BC_C908)
        let a = mixer.next()
        mixer = SplitMix64(seed: a ^ UInt64(bitPattern: Int64(day)) &* 0xD1B5_4A32_D192_ED03)
        let b = mixer.next()
        state = b ^ (stream &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range`. The modulo bias is below 2^-40 for the
    /// small ranges used here, far below anything a benchmark could notice.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// A uniform 64-bit integer in `range`, for instants and durations.
    mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int64(next() % width)
    }

    /// A uniform double in [0, 1), from the top 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform double in [low, high).
    mutating func double(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * unit()
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A new generator seeded from this one, for a sub-stream whose length
    /// varies (so the parent's later draws do not depend on it).
    mutating func fork() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
