import Glibc

/// Apple's mark of a record typed in by hand: a child `<MetadataEntry key="HKWasUserEntered"
/// value="1"/>`. The one rule (`marks(key:value:)`) for libxml2's reading and the selector's.
enum AppleHandEntry {
    static let key: [UInt8] = Array("HKWasUserEntered".utf8)
    static let value: [UInt8] = Array("1".utf8)
    static let metadataEntry: [UInt8] = Array("<MetadataEntry".utf8)
    static let recordEnd: [UInt8] = Array("</Record".utf8)

    /// Whether a `MetadataEntry` with this key and value marks its record as entered by hand.
    static func marks(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer?) -> Bool {
        key.elementsEqual(Self.key) && (value?.elementsEqual(Self.value) ?? false)
    }

    /// What the children of a record say, from the byte after its start tag's `>`.
    enum Children: Equatable {
        /// No mark, or a mark whose value is not 1.
        case typed
        case enteredByHand
        /// A mark the bytes do not say plainly (libxml2 is to read the record).
        case unclear
        /// The record's end tag is not in the bytes given.
        case undecided
    }

    /// Reads the children of a record up to its end tag (`</Record`, the first: a record holds no
    /// record) for the mark. Only a plain `<MetadataEntry` tag (`name="value"` pairs, no entity)
    /// holding the key is read; any other place the key's bytes stand makes the answer unclear.
    static func children(_ base: UnsafeRawPointer, from start: Int, end: Int) -> Children {
        guard let recordEnd = find(Self.recordEnd, base, from: start, to: end) else { return .undecided }
        guard let found = find(Self.key, base, from: start, to: recordEnd) else { return .typed }
        // The tag holding it: from the `<` before it to the `>` after it.
        var open = found
        while open > start && base.load(fromByteOffset: open, as: UInt8.self) != UInt8(ascii: "<") { open -= 1 }
        guard find(Self.metadataEntry, base, from: open, to: open + Self.metadataEntry.count) == open,
              let close = find([UInt8(ascii: ">")], base, from: found, to: recordEnd)
        else { return .unclear }
        var key: UnsafeRawBufferPointer?
        var value: UnsafeRawBufferPointer?
        var index = open + Self.metadataEntry.count
        func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while index < close {
            while index < close && isSpace(byte(index)) { index += 1 }
            if index >= close || byte(index) == UInt8(ascii: "/") { break }
            let nameStart = index
            while index < close && byte(index) != UInt8(ascii: "=") && !isSpace(byte(index)) { index += 1 }
            let nameEnd = index
            guard index + 1 < close, byte(index) == UInt8(ascii: "="), byte(index + 1) == UInt8(ascii: "\"") else {
                return .unclear
            }
            let valueStart = index + 2
            guard let valueEnd = find([UInt8(ascii: "\"")], base, from: valueStart, to: close) else { return .unclear }
            let text = UnsafeRawBufferPointer(start: base + valueStart, count: valueEnd - valueStart)
            guard !text.contains(UInt8(ascii: "&")) else { return .unclear }
            let name = UnsafeRawBufferPointer(start: base + nameStart, count: nameEnd - nameStart)
            if name.elementsEqual("key".utf8) { key = text } else if name.elementsEqual("value".utf8) { value = text }
            index = valueEnd + 1
        }
        guard let key, key.elementsEqual(Self.key), find(Self.key, base, from: close, to: recordEnd) == nil else {
            return .unclear
        }
        return marks(key: key, value: value) ? .enteredByHand : .typed
    }

    /// The offset of the first `needle` in [start, end), or nil: its first byte found by `memchr`,
    /// the rest compared.
    private static func find(_ needle: [UInt8], _ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        guard let first = needle.first else { return start }
        var index = start
        return needle.withUnsafeBytes { needle -> Int? in
            while end - index >= needle.count {
                guard let hit = memchr(base + index, Int32(first), end - index) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(hit))
                guard end - at >= needle.count else { return nil }
                if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
                index = at + 1
            }
            return nil
        }
    }
}
