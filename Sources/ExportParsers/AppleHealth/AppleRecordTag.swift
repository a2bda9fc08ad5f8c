import CLibXML2
import Glibc

/// The attributes of a top-level `<Record type="...">` (or `<Workout ...>`) start tag, read
/// straight from the bytes when the tag is written plainly enough that they are what libxml2
/// would hand over.
///
/// `AppleRecordSelector` uses it for the records (and workouts) asked for: a plain tag's
/// attributes go to `AppleHealthParser.readRecord` in libxml2's SAX2 layout (five pointers an
/// attribute: name, prefix, URI, value start, value end), so the one reading of a record serves
/// both paths. Plain means: attributes `name="value"` (or `'value'`) separated by white space,
/// names of ASCII letters, digits and `_:.-`, no name twice, the tag closed by `>` or `/>`; in
/// the values the parser reads (`type`, `sourceName`, `startDate`, `endDate`, `value`, `unit`,
/// a workout's `duration` and `durationUnit`) no `&`
/// (an entity to decode), no TAB, LF or CR (XML turns them into spaces), no other control
/// character, only well-formed UTF-8 of characters XML allows; in every value no `<`. Anything
/// else is `.notPlain` and the record goes to libxml2. The other values are checked as a record
/// left out is (`--strict-xml` reads them all with libxml2).
struct AppleRecordTag: MarkupBytes {
    enum Outcome: Equatable {
        /// The tag was read: `attributeCount` attributes, closed at `close`.
        case read
        /// Not plain (or not well-formed): libxml2 is to read the record.
        case notPlain
        /// The tag goes on past the bytes given.
        case undecided
    }

    /// At most this many attributes are read (Apple writes nine); a tag with more is not plain.
    static let capacity = 32

    /// The attributes in libxml2's layout; owned by the caller, `5 * capacity` pointers.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    private(set) var attributeCount = 0
    /// The `/` of `/>` or the `>` that closes the tag (where libxml2 stands when it hands the
    /// element over), and whether the element is empty.
    private(set) var close = 0
    private(set) var isEmpty = false
    /// Line feeds inside the tag, and the offset of the last one (-1: none).
    private(set) var lineFeeds = 0
    private(set) var lastLineFeed = -1

    /// A key per attribute read (its length and first eight bytes), to find a name given twice
    /// without comparing bytes in the common case.
    private var keys: [UInt64]

    init(attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>) {
        self.attributes = attributes
        keys = Array(repeating: 0, count: AppleRecordTag.capacity)
    }

    /// Reads the tag of the record whose `<` is at `open` and whose type, already compared,
    /// spans `typeStart..<typeEnd` (`typeEnd` is its closing `"`), up to `end`.
    mutating func read(_ base: UnsafeRawPointer, record open: Int, typeStart: Int, typeEnd: Int, end: Int) -> Outcome {
        attributeCount = 0
        lineFeeds = 0
        lastLineFeed = -1
        // "type" is known: `<Record type="` was matched.
        store(name: AppleRecordTag.typeName, key: AppleRecordTag.key(base, open + 8, 4), nameAt: (open + 8, open + 12),
              base, typeStart, typeEnd)
        return readAttributes(base, from: typeEnd + 1, end: end)
    }

    /// Reads the tag of the element whose name ends at `nameEnd` (a `Workout`), up to `end`.
    mutating func read(_ base: UnsafeRawPointer, element nameEnd: Int, end: Int) -> Outcome {
        attributeCount = 0
        lineFeeds = 0
        lastLineFeed = -1
        return readAttributes(base, from: nameEnd, end: end)
    }

    private mutating func readAttributes(_ base: UnsafeRawPointer, from start: Int, end: Int) -> Outcome {
        var index = start
        var block = Int.min
        var specials: UInt64 = 0
        while true {
            let spaceStart = index
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                if byte == UInt8(ascii: "/") {
                    guard index + 1 < end else { return .undecided }
                    guard base.load(fromByteOffset: index + 1, as: UInt8.self) == UInt8(ascii: ">") else { return .notPlain }
                }
                close = index
                isEmpty = byte == UInt8(ascii: "/")
                return .read
            }
            // An attribute: after white space, a name, `=`, a quoted value.
            guard index > spaceStart, AppleRecordTag.isNameStart(byte), attributeCount < AppleRecordTag.capacity else {
                return .notPlain
            }
            let nameStart = index
            index += 1
            while index < end, AppleRecordTag.isNameByte(base.load(fromByteOffset: index, as: UInt8.self)) { index += 1 }
            let nameEnd = index
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            guard base.load(fromByteOffset: index, as: UInt8.self) == UInt8(ascii: "=") else { return .notPlain }
            index += 1
            while index < end, isSpace(base.load(fromByteOffset: index, as: UInt8.self)) { notice(base, index); index += 1 }
            guard index < end else { return .undecided }
            let quote = base.load(fromByteOffset: index, as: UInt8.self)
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .notPlain }
            let valueStart = index + 1
            let name = AppleRecordTag.readName(base, nameStart, nameEnd - nameStart)
            let valueEnd: Int
            if let name {
                // A value the parser reads: every byte looked at.
                var at = valueStart
                var ascii = true
                while true {
                    guard at < end else { return .undecided }
                    let byte = base.load(fromByteOffset: at, as: UInt8.self)
                    if byte == quote { break }
                    if byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") { return .notPlain }
                    if byte >= 0x80 { ascii = false }
                    at += 1
                }
                if !ascii && !AppleRecordTag.isXMLText(base, from: valueStart, to: at) { return .notPlain }
                valueEnd = at
            } else {
                // Another value: only its quote, `<` and line feeds matter.
                var at = valueStart
                while true {
                    at = AppleRecordSelector.nextSpecial(base, from: at, to: end, block: &block, bits: &specials)
                    guard at < end else { return .undecided }
                    let byte = base.load(fromByteOffset: at, as: UInt8.self)
                    if byte == quote { break }
                    if byte == UInt8(ascii: "<") { return .notPlain }
                    if byte == 0x0A { notice(base, at) }
                    at += 1
                }
                valueEnd = at
            }
            let key = AppleRecordTag.key(base, nameStart, nameEnd - nameStart)
            for earlier in 0..<attributeCount where keys[earlier] == key {
                // The same length and first bytes: compare the names whole. A name given twice
                // is libxml2's error to report.
                if sameName(base, nameStart, nameEnd, earlier) { return .notPlain }
            }
            store(name: name ?? AppleRecordTag.otherName, key: key, nameAt: (nameStart, nameEnd), base, valueStart, valueEnd)
            index = valueEnd + 1
            // XML wants white space, `/` or `>` after a value.
            guard index < end else { return .undecided }
        }
    }

    /// Where each attribute's name is in the bytes (for the rare same-key comparison).
    private var nameSpans = [(Int, Int)](repeating: (0, 0), count: AppleRecordTag.capacity)

    private func sameName(_ base: UnsafeRawPointer, _ start: Int, _ end: Int, _ earlier: Int) -> Bool {
        let (otherStart, otherEnd) = nameSpans[earlier]
        return otherEnd - otherStart == end - start && memcmp(base + otherStart, base + start, end - start) == 0
    }

    @inline(__always)
    private mutating func store(name: UnsafePointer<xmlChar>, key: UInt64, nameAt span: (Int, Int),
                                _ base: UnsafeRawPointer, _ start: Int, _ end: Int) {
        let slot = attributeCount * 5
        attributes[slot] = name
        attributes[slot + 1] = nil
        attributes[slot + 2] = nil
        attributes[slot + 3] = (base + start).assumingMemoryBound(to: xmlChar.self)
        attributes[slot + 4] = (base + end).assumingMemoryBound(to: xmlChar.self)
        keys[attributeCount] = key
        nameSpans[attributeCount] = span
        attributeCount += 1
    }

    @inline(__always)
    private mutating func notice(_ base: UnsafeRawPointer, _ index: Int) {
        if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A {
            lineFeeds += 1
            lastLineFeed = index
        }
    }

    // MARK: - Names

    /// The names the parser reads (of records and workouts), as the NUL-terminated literals it
    /// compares with `strcmp`.
    static var typeName: UnsafePointer<xmlChar> { ("type" as StaticString).utf8Start }
    static var otherName: UnsafePointer<xmlChar> { ("" as StaticString).utf8Start }
    private static var sourceName: UnsafePointer<xmlChar> { ("sourceName" as StaticString).utf8Start }
    private static var startDateName: UnsafePointer<xmlChar> { ("startDate" as StaticString).utf8Start }
    private static var endDateName: UnsafePointer<xmlChar> { ("endDate" as StaticString).utf8Start }
    private static var valueName: UnsafePointer<xmlChar> { ("value" as StaticString).utf8Start }
    private static var unitName: UnsafePointer<xmlChar> { ("unit" as StaticString).utf8Start }
    private static var durationName: UnsafePointer<xmlChar> { ("duration" as StaticString).utf8Start }
    private static var durationUnitName: UnsafePointer<xmlChar> { ("durationUnit" as StaticString).utf8Start }

    /// The parser's name for the attribute named by the bytes, nil when it reads no such attribute.
    @inline(__always)
    private static func readName(_ base: UnsafeRawPointer, _ start: Int, _ length: Int) -> UnsafePointer<xmlChar>? {
        let known: UnsafePointer<xmlChar>
        switch length {
        case 4: known = base.load(fromByteOffset: start, as: UInt8.self) == UInt8(ascii: "t") ? typeName : unitName
        case 5: known = valueName
        case 7: known = endDateName
        case 9: known = startDateName
        case 8: known = durationName
        case 10: known = sourceName
        case 12: known = durationUnitName
        default: return nil
        }
        return memcmp(base + start, known, length) == 0 ? known : nil
    }

    /// The length of a name and its first eight bytes (fewer when shorter).
    @inline(__always)
    private static func key(_ base: UnsafeRawPointer, _ start: Int, _ length: Int) -> UInt64 {
        var key = UInt64(length) << 56
        for offset in 0..<min(length, 7) {
            key |= UInt64(base.load(fromByteOffset: start + offset, as: UInt8.self)) << UInt64(8 * offset)
        }
        return key
    }

    @inline(__always)
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":")
    }

    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    // MARK: - Text

    /// Whether `start..<end` is well-formed UTF-8 of characters XML 1.0 allows (no control
    /// characters but TAB, LF, CR; no surrogates; not U+FFFE or U+FFFF; nothing past U+10FFFF).
    static func isXMLText(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                if lead < 0x20 && lead != 0x09 && lead != 0x0A && lead != 0x0D { return false }
                index += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
            default: return false
            }
            guard end - index >= length else { return false }
            for offset in 1..<length {
                let byte = base.load(fromByteOffset: index + offset, as: UInt8.self)
                guard byte & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= shortest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar),
                  scalar != 0xFFFE, scalar != 0xFFFF else { return false }
            index += length
        }
        return true
    }
}
