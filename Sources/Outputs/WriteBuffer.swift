import Platform

/// The bytes of a sink waiting to be written to a descriptor: written with `write(2)` once
/// `flushSize` of them are held, and at `flush`; text as large as the buffer goes out at once,
/// without a copy. Standard output and `-o` files share it.
struct WriteBuffer {
    private var bytes: [UInt8] = []
    let flushSize: Int

    init(flushSize: Int) {
        self.flushSize = flushSize
        bytes.reserveCapacity(flushSize)
    }

    /// Holds `text`, writing what is held first when it would not fit.
    mutating func write(_ text: String, to descriptor: Int32) throws(SystemError) {
        let count = text.utf8.count
        if bytes.count + count > flushSize {
            try flush(to: descriptor)
        }
        guard count >= flushSize else {
            bytes.append(contentsOf: text.utf8)
            return
        }
        try SystemFile.writeAll(text, to: descriptor)
    }

    /// Writes what is held.
    mutating func flush(to descriptor: Int32) throws(SystemError) {
        guard !bytes.isEmpty else { return }
        let failure: SystemError? = bytes.withUnsafeBytes { held in
            do throws(SystemError) {
                try SystemFile.writeAll(held, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        bytes.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}
