/// When to try a request again: exponential backoff with full jitter, bounded attempts,
/// and the server's `Retry-After` honoured.
public struct RetryPolicy: Sendable {
    /// Attempts per request, the first included.
    public let maxAttempts: Int
    /// The first wait (before jitter).
    public let baseDelay: Double
    /// The longest wait, whatever the attempt or `Retry-After`.
    public let maxDelay: Double

    public init(maxAttempts: Int = 6, baseDelay: Double = 0.5, maxDelay: Double = 60) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Seconds to wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed.
    ///
    /// `random` gives a number in 0..<1 (injected so tests are repeatable). With a
    /// `Retry-After` the wait is at least that long; without one it is a random share of
    /// `baseDelay * 2^(attempt-1)`, so that many clients retrying do not stampede together.
    public func delay(afterAttempt attempt: Int, retryAfter: Int?, random: Double) -> Double {
        let ceiling = min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 30)))
        let jittered = ceiling * (0.5 + 0.5 * random)
        if let retryAfter {
            return min(maxDelay, max(Double(retryAfter), jittered))
        }
        return jittered
    }
}
