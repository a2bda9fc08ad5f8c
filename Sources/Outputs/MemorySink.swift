/// An output kept in memory: the bytes written, in order (tests, and callers that want the text).
public final class MemorySink: OutputSink {
    public private(set) var bytes: [UInt8] = []
    /// Whether `finish()` was called.
    public private(set) var isFinished = false

    public init() {}

    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ text: String) throws(OutputError) {
        precondition(!isFinished, "nothing is written after finish()")
        bytes.append(contentsOf: text.utf8)
    }

    public func finish() throws(OutputError) {
        isFinished = true
    }
}
