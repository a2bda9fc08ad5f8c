import Foundation
import Testing
@testable import Batch

@Suite struct BatchShardTests {
    @Test(arguments: ["1/1", "1/4", "4/4", "07/10"])
    func validShardsParse(_ text: String) throws {
        let shard = try BatchShard(parsing: text)
        let parts = text.split(separator: "/").map { Int($0)! }
        #expect(shard.index == parts[0] && shard.count == parts[1])
    }

    @Test(arguments: ["0/4", "5/4", "1/0", "0/0", "1", "1/", "/4", "a/4", "-1/4", "1/4/2", " 1/4", "+1/4", ""])
    func invalidShardsAreRefusedWithTheSyntax(_ text: String) {
        do {
            _ = try BatchShard(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix("--shard \(text): "))
        }
    }

    @Test func everyAccountIsInExactlyOneShard() {
        let labels = (0..<500).map { "trainee-\($0)" } + ["", "ä", "日本", "a,b"]
        for count in [1, 2, 3, 4, 7, 16] {
            let shards = (1...count).map { BatchShard(index: $0, count: count)! }
            for label in labels {
                #expect(shards.filter { $0.contains(label) }.count == 1)
            }
        }
    }

    /// The split is a contract between machines and across releases: these must never change.
    /// (Values from an independent Python implementation of FNV-1a 64 + fmix64.)
    @Test func theSplitIsStable() {
        #expect(BatchShard.stableHash("") == 0xefd0_1f60_ba99_2926)
        let expected: [String: Int] = [
            "ann": 4, "bob": 1, "cat": 1, "dan": 3, "trainee-001": 2, "trainee-002": 2, "Zoë": 2,
        ]
        for (label, index) in expected {
            #expect(BatchShard.shardIndex(of: label, count: 4) == index, "\(label)")
            #expect(BatchShard(index: index, count: 4)!.contains(label))
        }
    }

    @Test func theSplitIsRoughlyBalanced() {
        let labels = (1...1000).map { String(format: "trainee-%04d", $0) }
        for count in [2, 4, 10] {
            var sizes = [Int](repeating: 0, count: count)
            for label in labels {
                sizes[BatchShard.shardIndex(of: label, count: count) - 1] += 1
            }
            let fair = 1000 / count
            #expect(sizes.allSatisfy { abs($0 - fair) < fair / 4 }, "\(count) shards: \(sizes)")
        }
    }

    @Test func theWholeManifestIsOneShard() {
        #expect(BatchShard.all.contains("anyone"))
        #expect(BatchShard.all.description == "1/1")
    }
}
