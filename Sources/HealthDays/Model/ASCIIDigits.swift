/// Reading fixed-width decimal fields straight from bytes, for the date, time and offset parsers.
@usableFromInline
enum ASCIIDigits {
    /// The value of the digit at `index`; nil for any other byte.
    @inlinable @inline(__always)
    static func one(_ text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        let value = Int(text[index]) &- 48
        return value >= 0 && value <= 9 ? value : nil
    }

    /// The value of the two digits at `index` and `index + 1`; nil unless both are digits.
    @inlinable @inline(__always)
    static func two(_ text: UnsafeRawBufferPointer, at index: Int) -> Int? {
        guard let high = one(text, at: index), let low = one(text, at: index + 1) else { return nil }
        return high * 10 + low
    }
}
