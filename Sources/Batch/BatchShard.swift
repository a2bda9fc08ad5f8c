/// One of N stable shares of a manifest's accounts (`--shard K/N`), so that one manifest can be
/// spread over N machines with every account taken by exactly one of them.
///
/// K is 1-based, as people count machines: `1/4` through `4/4`. An account belongs to shard K when
/// `stableHash(label) % N == K - 1`. The hash is FNV-1a 64 over the label's UTF-8 bytes, followed by
/// a 64-bit finaliser that spreads labels differing only in their last digits (`trainee-001`,
/// `trainee-002`) over every shard. It never changes between runs or machines, unlike Swift's
/// `Hasher`, which is seeded per process: changing it would move accounts between shards.
public struct BatchShard: Equatable, Sendable, CustomStringConvertible {
    /// The 1-based shard number, 1...count.
    public let index: Int
    /// How many shards the manifest is split into.
    public let count: Int

    /// The whole manifest: `1/1`.
    public static let all = BatchShard(uncheckedIndex: 1, count: 1)

    /// A shard from its number and the shard count; nil unless 1 <= index <= count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, such as `1/4` (1 <= K <= N).
    public init(parsing text: String) throws(BatchError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidShard("--shard \(text): write K/N, such as 1/4 for the first of 4 machines")
        }
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidShard("--shard \(text): K counts from 1 and must be between 1 and N (1/\(max(count, 1)) to \(max(count, 1))/\(max(count, 1)))")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Whether the account with this label belongs to this shard.
    public func contains(_ account: String) -> Bool {
        Self.shardIndex(of: account, count: count) == index
    }

    /// The 1-based shard that holds the account with this label, out of `count`.
    public static func shardIndex(of account: String, count: Int) -> Int {
        precondition(count >= 1, "at least one shard")
        return Int(stableHash(account) % UInt64(count)) + 1
    }

    /// FNV-1a 64 over the UTF-8 bytes, then MurmurHash3's fmix64 finaliser. Part of the shard
    /// contract: never change it.
    public static func stableHash(_ label: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
