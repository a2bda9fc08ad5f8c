import Platform

/// Standard output through a buffer: bytes are written with `write(2)` once `flushSize` of them
/// are held, and at `finish()`; text as large as the buffer goes out at once, without a copy.
public final class StandardOutputSink: OutputSink {
    /// How many bytes are held before they are written.
    public static let flushSize = 64 * 1024

    private var buffer: [UInt8] = []

    public init() {
        buffer.reserveCapacity(Self.flushSize)
    }

    public func write(_ text: String) throws(OutputError) {
        var text = text
        let count = text.utf8.count
        if buffer.count + count > Self.flushSize {
            try flush()
        }
        if count >= Self.flushSize {
            let failure: SystemError? = text.withUTF8 { bytes in
                do throws(SystemError) {
                    try StandardStreams.writeOutput(UnsafeRawBufferPointer(bytes))
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw .standardOutput(failure) }
            return
        }
        buffer.append(contentsOf: text.utf8)
    }

    public func finish() throws(OutputError) {
        try flush()
    }

    private func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        let failure: SystemError? = buffer.withUnsafeBytes { bytes in
            do throws(SystemError) {
                try StandardStreams.writeOutput(bytes)
                return nil
            } catch {
                return error
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw .standardOutput(failure) }
    }
}
