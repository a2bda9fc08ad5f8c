import HealthDays
extension RecordCSVParser {
    /// A time as a cell gives it.
    struct Moment {
        /// Milliseconds since 1970; for a wall clock, the wall time written as if UTC.
        var ms: Int64
        /// The offset written in the time, in seconds east of UTC.
        var offset: Int32?
        /// An ISO 8601 time written without an offset: a wall clock.
        var isWallClock: Bool
    }

    /// The cell without leading and trailing spaces and tabs.
    @inline(__always)
    static func trimmed(_ cell: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = cell.count
        while start < end, cell[start] == 0x20 || cell[start] == 0x09 { start += 1 }
        while end > start, cell[end - 1] == 0x20 || cell[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: cell[start..<end])
    }

    /// An ISO 8601 time (with or without offset) or epoch milliseconds (all digits); nil otherwise.
    @inline(__always)
    static func moment(_ cell: UnsafeRawBufferPointer) -> Moment? {
        if let epoch = epochMilliseconds(cell) {
            return Moment(ms: epoch, offset: nil, isWallClock: false)
        }
        guard let parsed = Timestamp.parse(cell) else { return nil }
        return Moment(ms: parsed.ms, offset: parsed.offset, isWallClock: parsed.offset == nil)
    }

    /// The smallest epoch time taken as milliseconds (1973-03-03): below it, a number is more
    /// likely epoch seconds, which would silently land every sample in 1970.
    static let smallestEpochMs: Int64 = 100_000_000_000

    /// All digits, as milliseconds since 1970; nil for anything else or a value too small to be one.
    @inline(__always)
    static func epochMilliseconds(_ cell: UnsafeRawBufferPointer) -> Int64? {
        guard cell.count > 0, cell.count <= 17 else { return nil }
        var value: Int64 = 0
        for byte in cell {
            let digit = Int64(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value >= smallestEpochMs ? value : nil
    }

    static func isAllDigits(_ cell: UnsafeRawBufferPointer) -> Bool {
        !cell.isEmpty && cell.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A zone offset cell: a whole number of seconds east of UTC (`19800`, `-14400`), as Health
    /// Connect stores it, or `±hh:mm` (or `Z`); nil when malformed or beyond ±18 hours.
    ///
    /// A sign and four digits is `±hhmm` when it reads as a real zone's offset (`+0530`, `-0900`:
    /// hours up to 14, minutes 00, 15, 30 or 45), otherwise seconds (`-3600`).
    static func zoneOffset(_ cell: UnsafeRawBufferPointer) -> Int32? {
        if cell.contains(0x3A) || (cell.count == 1 && (cell[0] == 0x5A || cell[0] == 0x7A)) {
            return UTCOffset.parse(cell, lowercaseZ: true)
        }
        if cell.count == 5, let hhmm = UTCOffset.parse(cell, lowercaseZ: true), hhmm.magnitude <= 14 * 3600, hhmm % 900 == 0 {
            return hhmm
        }
        return UTCOffset.parse(seconds: cell)
    }
}
