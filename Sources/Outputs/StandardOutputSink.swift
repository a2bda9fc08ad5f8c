import Platform

/// Standard output through a buffer (`WriteBuffer`): bytes are written with `write(2)` once
/// `flushSize` of them are held, and at `finish()`.
public final class StandardOutputSink: OutputSink {
    /// How many bytes are held before they are written.
    public static let flushSize = 64 * 1024

    private var buffer = WriteBuffer(flushSize: flushSize)

    public init() {}

    public func write(_ text: String) throws(OutputError) {
        do {
            try buffer.write(text, to: 1)
        } catch {
            throw .standardOutput(error)
        }
    }

    public func finish() throws(OutputError) {
        do {
            try buffer.flush(to: 1)
        } catch {
            throw .standardOutput(error)
        }
    }
}
