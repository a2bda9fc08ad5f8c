import Foundation

/// Where a batch stands: for the progress line.
public struct BatchTally: Sendable {
    /// Accounts this run will take (in the shard, not done earlier).
    public var total = 0
    public var done = 0
    /// Posted, with no day inside the server's window: nothing written.
    public var nothingInWindow = 0
    public var failed = 0
    public var started = Date()

    public init(total: Int) {
        self.total = total
    }

    public var finished: Int { done + nothingInWindow + failed }
    public var remaining: Int { max(0, total - finished) }

    /// Accounts per minute so far.
    public var rate: Double {
        let minutes = Date().timeIntervalSince(started) / 60
        return minutes > 0 ? Double(finished) / minutes : 0
    }
}
